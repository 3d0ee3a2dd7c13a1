"""The tracing underlay's model: two-point alignment maths and the saved form."""

from __future__ import annotations

import math

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from mapeditor.underlay import (
    EDITOR_KEY,
    IDENTITY,
    Underlay,
    UnderlayError,
    align_two_points,
    apply,
    decompose,
    fit_width,
    resolve_image_path,
    storable_path,
    underlay_of,
)


def _close(p: tuple[float, float], q: tuple[float, float], tol: float = 1e-6) -> bool:
    return math.isclose(p[0], q[0], abs_tol=tol) and math.isclose(p[1], q[1], abs_tol=tol)


def test_axis_aligned_alignment_gives_scale_and_offset() -> None:
    # A scan at 100 px per square whose square (0, 0) corner is at pixel (50, 80).
    al = align_two_points(((150, 180), (450, 580)), ((1, 1), (4, 5)))
    assert math.isclose(al.scale, 0.01)
    assert math.isclose(al.rotation_deg, 0.0, abs_tol=1e-9)
    assert _close(al.offset, (-0.5, -0.8))
    assert _close(apply(al.transform, (50, 80)), (0, 0))


def test_rotated_scan_round_trips() -> None:
    # Build a scan: map → image by rotating 3° clockwise, 120 px per square, offset (40, 25).
    angle = math.radians(3.0)

    def to_image(x: float, y: float) -> tuple[float, float]:
        u = 120 * (x * math.cos(angle) + y * math.sin(angle)) + 40
        v = 120 * (-x * math.sin(angle) + y * math.cos(angle)) + 25
        return (u, v)

    corners = ((2.0, 1.0), (9.0, 12.0))
    al = align_two_points((to_image(*corners[0]), to_image(*corners[1])), corners)
    assert math.isclose(al.scale, 1 / 120)
    # The image is turned 3° anticlockwise on screen, so the fix rotates it 3° clockwise.
    assert math.isclose(al.rotation_deg, 3.0)
    for sq in [(0.0, 0.0), (5.0, 7.0), (13.0, 2.5)]:
        assert _close(apply(al.transform, to_image(*sq)), sq)
    back = decompose(al.transform)
    assert math.isclose(back.scale, al.scale) and math.isclose(back.rotation_deg, 3.0)
    assert _close(back.offset, al.offset)


@given(
    st.tuples(st.floats(-500, 500), st.floats(-500, 500)),
    st.tuples(st.floats(-500, 500), st.floats(-500, 500)),
    st.tuples(st.integers(-5, 30), st.integers(-5, 30)),
    st.tuples(st.integers(-5, 30), st.integers(-5, 30)),
)
def test_alignment_maps_both_clicked_points_exactly(
    p1: tuple[float, float], p2: tuple[float, float], q1: tuple[int, int], q2: tuple[int, int]
) -> None:
    assume(math.dist(p1, p2) >= 1.0 and q1 != q2)
    al = align_two_points((p1, p2), (q1, q2))
    assert _close(apply(al.transform, p1), q1, 1e-6)
    assert _close(apply(al.transform, p2), q2, 1e-6)
    assert _close(apply(decompose(al.transform).transform, p1), q1, 1e-6)


def test_coincident_points_are_refused_with_a_reason() -> None:
    with pytest.raises(UnderlayError, match="image points are the same"):
        align_two_points(((3, 4), (3, 4)), ((0, 0), (1, 1)))
    with pytest.raises(UnderlayError, match="square corners are the same"):
        align_two_points(((3, 4), (9, 4)), ((2, 2), (2, 2)))


def test_saved_form_round_trips_and_bad_fields_are_named() -> None:
    u = Underlay("scan.png", opacity=0.3, visible=False, transform=(0.5, 0.1, -0.1, 0.5, 2.0, 3.0))
    assert Underlay.from_dict(u.to_dict()) == u
    assert underlay_of({EDITOR_KEY: u.to_dict()}) == u
    assert underlay_of({}) is None
    assert Underlay.from_dict({"path": "a.png"}).transform == IDENTITY
    with pytest.raises(UnderlayError, match=r"opacity: 2 is outside"):
        Underlay.from_dict({"path": "a.png", "opacity": 2})
    with pytest.raises(UnderlayError, match=r"transform: expected 6"):
        Underlay.from_dict({"path": "a.png", "transform": [1, 0, 0]})
    with pytest.raises(UnderlayError, match=r"transform: not invertible"):
        Underlay.from_dict({"path": "a.png", "transform": [0, 0, 0, 0, 1, 1]})
    with pytest.raises(UnderlayError, match=r"path"):
        Underlay.from_dict({"opacity": 0.5})
    # An unreadable underlay never stops a map from opening.
    assert underlay_of({EDITOR_KEY: "nonsense"}) is None


def test_fit_width_scales_image_to_the_grid() -> None:
    t = fit_width((2000, 1500), 20)
    assert _close(apply(t, (2000, 1500)), (20, 15))


def test_paths_are_stored_relative_to_the_map(tmp_path) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "scans").mkdir()
    img = tmp_path / "scans" / "de.jpg"
    img.write_bytes(b"")
    map_path = tmp_path / "de.json"
    stored = storable_path(img, map_path)
    assert stored == "scans/de.jpg"
    assert resolve_image_path(stored, map_path) == img.resolve()
    elsewhere = tmp_path.parent / "x.png"
    assert storable_path(elsewhere, tmp_path / "sub" / "m.json") == str(elsewhere.resolve())
    assert resolve_image_path("/abs/a.png", map_path).as_posix() == "/abs/a.png"
