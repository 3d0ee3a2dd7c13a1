"""Long fuzz run: mutants of the shipped maps and of game records, and generated rule sets (alone
and embedded in maps and records), counted by verdict.

``python benchmarks/fuzz_long.py [--maps 100000] [--records 10000] [--rulesets 10000]
[--ruleset-maps 10000] [--ruleset-records 10000] [--seed 0] [--until 23:00]``

Rule sets come from ``tests/fuzz/rulegen.py`` (valid and hostile; verdicts ``refused``,
``unfit``: accepted but no shipped map has its prints, ``valid``: it round-trips and bot games on
it play through ``play()`` with every offered action accepted and a refused one changing
nothing, or ``defect``); ``ruleset-map`` cases are shipped maps embedding one (mutated further
half of the time), ``ruleset-record`` cases mutants of records of games on such maps.

Mutants and verdicts come from ``tests/fuzz/fuzzlib.py`` (the CI suite's bounded part uses the
same code): ``refused`` (the loader refused it, naming where), ``invalid`` (loaded, validation
errors), ``valid`` (validates clean and a game on it plays; a record replays, and its re-saved
record replays identically) and ``defect`` (another exception type, a hang over ``--limit``
seconds (5), a message without a location, a map that validates clean but cannot be played or
cannot be saved, a validator failure). Maps and records are interleaved, so a time cap leaves
both counted. Prints the counts and each distinct defect with an example; exit 1 on any defect.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "fuzz")]

from fuzzlib import check_map, check_record, map_corpus, mutant, record_corpus  # noqa: E402
from rulegen import (  # noqa: E402
    check_ruleset,
    embedding_map,
    embedding_record_corpus,
    ruleset,
)

from benchmarks.deadline import deadline  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--maps", type=int, default=100_000)
    ap.add_argument("--records", type=int, default=10_000)
    ap.add_argument("--rulesets", type=int, default=10_000)
    ap.add_argument("--ruleset-maps", type=int, default=10_000)
    ap.add_argument("--ruleset-records", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--limit", type=float, default=5.0, help="seconds before a case is a hang")
    ap.add_argument("--until", help="stop at this UTC time (HH:MM)")
    ap.add_argument("--report-every", type=float, default=300.0)
    args = ap.parse_args(argv)
    stop_at = deadline(args.until)
    rng = random.Random(args.seed)
    targets = {
        "map": args.maps,
        "record": args.records,
        "ruleset": args.rulesets,
        "ruleset-map": args.ruleset_maps,
        "ruleset-record": args.ruleset_records,
    }
    targets = {k: n for k, n in targets.items() if n > 0}
    cases: dict[str, Any] = {
        "map": lambda: mutant(map_corpus(), rng),
        "record": lambda: mutant(record_corpus(), rng),
        "ruleset": lambda: ruleset(rng),
        "ruleset-map": lambda: embedding_map(rng),
        "ruleset-record": lambda: mutant(embedding_record_corpus(), rng),
    }
    checks: dict[str, Any] = {
        "map": check_map,
        "record": check_record,
        # rule sets play bot games: a case may take longer than a map's
        "ruleset": lambda d, limit: check_ruleset(d, seed=sum(done.values()), limit=4 * limit),
        "ruleset-map": check_map,
        "ruleset-record": check_record,
    }
    counts: dict[str, Counter[str]] = {k: Counter() for k in targets}
    defects: dict[str, tuple[int, str]] = {}
    start = last = time.time()
    done = {k: 0 for k in targets}
    while any(done[k] < targets[k] for k in done) and time.time() < stop_at:
        # interleave in proportion to the targets
        kind = min(done, key=lambda k: done[k] / max(1, targets[k]))
        case = cases[kind]()
        verdict = checks[kind](case, limit=args.limit)
        counts[kind][verdict.kind] += 1
        done[kind] += 1
        if verdict.kind == "defect":
            key = f"{kind}: {verdict.detail[:160]}"
            text = case if isinstance(case, str) else repr(case)
            n, example = defects.get(key, (0, text[:400]))
            defects[key] = (n + 1, example)
            if n == 0:
                print(f"DEFECT {key}\n  example: {text[:400]!r}", flush=True)
        if time.time() - last > args.report_every:
            last = time.time()
            so_far = " ".join(f"{k} {n}" for k, n in done.items())
            print(f"[{last - start:.0f} s] {so_far}", flush=True)
    elapsed = time.time() - start
    print(f"fuzz long run: {elapsed:.0f} s, seed {args.seed}, hang limit {args.limit:g} s")
    for kind, c in counts.items():
        kinds = "  ".join(f"{v} {n:6d}" for v, n in sorted(c.items()))
        print(f"  {kind:15s} {done[kind]:7d}  {kinds}")
    for key, (n, _example) in sorted(defects.items(), key=lambda kv: -kv[1][0]):
        print(f"  {n:5d} x {key}")
    return 1 if defects else 0


if __name__ == "__main__":
    sys.exit(main())
