"""Bounded mutation fuzzing (CI): mutants of the shipped maps and of seeded game records.

Every mutant must end in a clean verdict: refused with a located message, invalid, or valid and
playable (see ``fuzzlib``). The long run is ``benchmarks/fuzz_long.py`` (10^5 maps, 10^4 records).
The time limit here is 20 s, not the long run's 5 s, so a busy CI machine never fails a case
that is merely slow there.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from fuzzlib import check_map, check_record, map_corpus, mutant, record_corpus

MAP_CHUNKS, RECORD_CHUNKS, PER_CHUNK = 8, 4, 250
LIMIT = 20.0


def _run(kind: str, chunk: int) -> Counter[str]:
    corpus = map_corpus() if kind == "map" else record_corpus()
    check = check_map if kind == "map" else check_record
    rng = random.Random(f"{kind}-{chunk}")
    verdicts: Counter[str] = Counter()
    defects: list[str] = []
    for _ in range(PER_CHUNK):
        text = mutant(corpus, rng)
        verdict = check(text, limit=LIMIT)
        verdicts[verdict.kind] += 1
        if verdict.kind == "defect":
            defects.append(f"{verdict.detail}\n  mutant: {text[:300]!r}")
    assert not defects, "\n".join(defects[:5])
    return verdicts


@pytest.mark.parametrize("chunk", range(MAP_CHUNKS))
def test_mutated_maps_end_cleanly(chunk: int) -> None:
    verdicts = _run("map", chunk)
    # a meaningful corpus: most mutants are refused, and some still load
    assert verdicts["refused"] > 0 and verdicts["valid"] + verdicts["invalid"] > 0, verdicts


@pytest.mark.parametrize("chunk", range(RECORD_CHUNKS))
def test_mutated_records_end_cleanly(chunk: int) -> None:
    verdicts = _run("record", chunk)
    assert verdicts["refused"] > 0 and verdicts["valid"] > 0, verdicts


def test_the_unmutated_corpus_is_valid() -> None:
    assert all(check_map(t).kind == "valid" for t in map_corpus())
    assert all(check_record(t).kind == "valid" for t in record_corpus())


def test_defects_are_recognised(monkeypatch) -> None:
    """The verdicts can fail: each kind of defect is reported as one."""
    import fuzzlib

    from engine.errors import EngineError, MapFormatError

    text = map_corpus()[0]

    def refuse(*_a: object, **_k: object) -> None:
        raise EngineError("no start tile fits")

    monkeypatch.setattr(fuzzlib, "Game", refuse)
    assert check_map(text).detail.startswith("validates clean but cannot be played")
    monkeypatch.undo()

    def crash(*_a: object, **_k: object) -> None:
        raise KeyError("x")

    monkeypatch.setattr(fuzzlib, "_loads", crash)
    verdict = check_map(text)
    assert verdict.kind == "defect" and verdict.detail.startswith("KeyError")

    def unlocated(*_a: object, **_k: object) -> None:
        raise MapFormatError("bad", source="elsewhere")

    monkeypatch.setattr(fuzzlib, "_loads", unlocated)
    assert check_map(text).detail.startswith("message without a location")

    def hang(*_a: object, **_k: object) -> None:
        while True:
            pass

    monkeypatch.setattr(fuzzlib, "_loads", hang)
    assert check_map(text, limit=0.1).detail.startswith("hang")
