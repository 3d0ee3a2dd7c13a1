"""Benchmark: "New map from country" imports (needs the geo extra).

Run: ``python benchmarks/bench_country.py``. Prints the time of the first import (loading the
Natural Earth and GeoNames data) and of later imports at several grid sizes.
"""

from __future__ import annotations

import time

from engine.geo.country import import_country


def main() -> None:
    start = time.perf_counter()
    import_country("Luxembourg", columns=5)
    print(f"first import (loads Natural Earth + GeoNames): {time.perf_counter() - start:.2f} s")
    cases = [
        ("Germany", {"columns": 20}),
        ("Germany", {"km": 42.0}),
        ("Germany", {"columns": 200}),
        ("France", {"columns": 40}),
        (["Belgium", "Netherlands", "Luxembourg"], {"km": 20.0}),
        ("Norway", {"columns": 40}),
        ("Russia", {"columns": 60}),
    ]
    for source, kwargs in cases:
        start = time.perf_counter()
        result = import_country(source, **kwargs)
        ms = (time.perf_counter() - start) * 1000
        m = result.map
        label = source if isinstance(source, str) else "+".join(source)
        size = ", ".join(f"{k}={v}" for k, v in kwargs.items())
        print(
            f"{label:<32} {size:<12} {m.width:>3}x{m.height:<3} {len(m.land):>6} squares "
            f"{len(result.cities):>3} cities {len(set(result.neighbours.values())):>2} neighbours "
            f"{ms:8.0f} ms"
        )


if __name__ == "__main__":
    main()
