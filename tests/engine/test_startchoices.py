"""The worst start-square choice for chips, found without trying every choice."""

from __future__ import annotations

import math
import random

import pytest

from engine.chips import feasibility, max_chips
from engine.mapdef import MapDef, NamedRuleSet, StartSquare
from engine.startchoices import every_choice, worst_choice
from engine.validation import validate_map


def random_map(seed: int, w: int, h: int, n: int, k: int) -> MapDef:
    rng = random.Random(seed)
    m = MapDef("t", "T", w, h)
    m.rule_set = NamedRuleSet("france")
    m.land = {(x, y) for x in range(w) for y in range(h) if rng.random() < 0.85}
    for sq in rng.sample(sorted(m.land), min(n, len(m.land))):
        m.start_squares[sq] = StartSquare(f"s{sq[0]}-{sq[1]}")
    m.setup.start_squares_used = k
    return m


@pytest.mark.parametrize("seed", range(60))
def test_worst_choice_is_the_exact_minimum(seed: int) -> None:
    rng = random.Random(seed)
    m = random_map(seed, rng.randint(3, 9), rng.randint(3, 9), rng.randint(1, 9), rng.randint(0, 5))
    proof = feasibility(m)
    worst = worst_choice(m)
    if not proof:
        assert worst is None
        return
    assert worst is not None and worst.exact
    assert worst.chips == min(proof.values()) == proof[worst.choice]
    assert worst.lower_bound == worst.chips and worst.choices == len(proof)


def test_a_search_cut_short_keeps_a_witness_and_a_proved_bound() -> None:
    m = random_map(1, 12, 12, 16, 8)
    exact = min(feasibility(m).values())
    cut = worst_choice(m, budget=1)
    assert cut is not None
    assert cut.lower_bound <= exact <= cut.chips
    assert feasibility(m)[cut.choice] == cut.chips  # the witness is exact for its choice
    full = worst_choice(m)
    assert full is not None and full.exact and full.chips == exact


def test_forty_choose_twenty_on_a_small_map_is_proved_exactly() -> None:
    m = random_map(1, 12, 12, 40, 20)
    worst = worst_choice(m)
    assert worst is not None and worst.exact and worst.chips == worst.lower_bound
    assert max_chips(m, worst.choice) == worst.chips  # the witness, computed independently


def test_sixteen_choose_eight_is_exact_and_forty_choose_twenty_ends() -> None:
    m = random_map(1, 40, 40, 16, 8)
    assert every_choice(m) is None  # 12870 choices: not enumerated
    worst = worst_choice(m)
    assert worst is not None and worst.exact and worst.choices == 12870
    big = random_map(1, 40, 40, 40, 20)
    worst = worst_choice(big)  # 1.4e11 choices: a bounded search, whatever it proves
    assert worst is not None and worst.choices == math.comb(40, 20)
    assert worst.lower_bound <= worst.chips


def test_validation_reports_the_worst_choice_or_the_proved_bound(monkeypatch) -> None:
    import engine.startchoices

    monkeypatch.setattr(engine.startchoices, "WORK_BUDGET", 200_000)  # a search cut short
    m = random_map(1, 12, 12, 40, 20)  # 1.4e11 choices; about 25 chips fit
    worst = worst_choice(m)
    assert worst is not None and not worst.exact and worst.lower_bound < worst.chips <= 30
    m.setup.chip_count = worst.chips + 1  # the witness choice is short: an exact error
    found = [i for i in validate_map(m) if i.code == "chips-infeasible"]
    assert len(found) == 1 and f"at most {worst.chips} chips" in found[0].message
    assert set(found[0].where.squares) == set(worst.choice)
    m.setup.chip_count = worst.lower_bound  # proved for every choice: nothing to say
    codes = {i.code for i in validate_map(m)}
    assert not {"chips-infeasible", "chips-unproved"} & codes
    m.setup.chip_count = worst.chips  # between the bound and the witness: a warning
    found = [i for i in validate_map(m) if i.code == "chips-unproved"]
    assert len(found) == 1 and f"at least {worst.lower_bound} chips" in found[0].message


def test_more_chips_than_the_box_holds_is_an_error() -> None:
    """Found by the fuzz suite: chip_count 31 validated clean, then the game refused to start."""
    m = random_map(3, 12, 12, 3, 2)
    m.setup.chip_count = 31
    found = [i for i in validate_map(m) if i.code == "setup-chip-count"]
    assert len(found) == 1 and "31" in found[0].message
    m.setup.chip_count = 30
    assert "setup-chip-count" not in {i.code for i in validate_map(m)}


def test_a_floor_above_the_need_ends_the_search_at_once() -> None:
    m = random_map(1, 40, 40, 40, 20)
    full = worst_choice(m)
    assert full is not None
    quick = worst_choice(m, enough=full.lower_bound)
    assert quick is not None and quick.lower_bound == full.lower_bound and not quick.exact
    assert quick.chips >= quick.lower_bound
