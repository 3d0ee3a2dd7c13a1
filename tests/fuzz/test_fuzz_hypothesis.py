"""Hypothesis: arbitrary JSON values spliced into a valid map or record, arbitrary paths to the
bounded reader. Nothing may end in anything but a clean, located verdict."""

from __future__ import annotations

import json
import string

from fuzzlib import check_map, check_record, map_corpus, record_corpus
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import boundedio

SETTINGS = settings(
    max_examples=150, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck)
)
JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**20), 10**20)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.sampled_from([3.0, -0.0, 0.5])
    | st.text(max_size=30),
    lambda inner: (
        st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=5)
    ),
    max_leaves=20,
)
MAP_KEYS = [
    "format_version",
    "id",
    "name",
    "rule_set",
    "setup",
    "square_size_mm",
    "grid",
    "squares",
    "start_squares",
    "towns",
    "large_cities",
    "border_features",
    "ferries",
    "islands",
    "waves",
    "chip_squares",
    "tracks",
    "isle_of_man",
    "editor",
    "extra",
]


@SETTINGS
@given(which=st.integers(0, 5), key=st.sampled_from(MAP_KEYS), value=JSON)
def test_any_value_in_any_map_field(which: int, key: str, value: object) -> None:
    corpus = map_corpus()
    data = json.loads(corpus[which % len(corpus)])
    data[key] = value
    verdict = check_map(json.dumps(data), limit=20.0)
    assert verdict.kind != "defect", verdict.detail


@SETTINGS
@given(
    which=st.integers(0, 20),
    key=st.sampled_from(["map", "options", "seed", "players", "draw_order", "actions", "x"]),
    value=JSON,
)
def test_any_value_in_any_record_field(which: int, key: str, value: object) -> None:
    corpus = record_corpus()
    data = json.loads(corpus[which % len(corpus)])
    data[key] = value
    verdict = check_record(json.dumps(data), limit=20.0)
    assert verdict.kind != "defect", verdict.detail


@SETTINGS
@given(path=st.text(alphabet=string.printable + "\x00é/.", max_size=300) | st.just("a" * 5000))
def test_any_path_gives_a_clean_refusal_or_bytes(path: str) -> None:
    try:
        boundedio.read_bytes(path, limit=1024 * 1024)
    except boundedio.InputFileError as exc:
        assert len(str(exc)) < 400
