"""The online game in real browsers: headless Chromium pages driven by Playwright, playing
through the page's own controls against a real host process."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from _browser import (
    HostProcess,
    actions_count,
    is_mine,
    launch,
    open_page,
    page_errors,
    play_turn_via_page,
    wait_mine,
    wait_moved,
)
from playwright.sync_api import expect, sync_playwright

from engine import load_record, replay

SEATS = "Ann=human,Bob=human,greedy"
HERRING = Path(__file__).resolve().parents[3] / "docs" / "rule-language" / "herring.ruleset.json"


@pytest.fixture
def host_factory(tmp_path):
    hosts: list[HostProcess] = []

    def make(args: list[str]) -> HostProcess:
        h = HostProcess(tmp_path / "state", args).start()
        hosts.append(h)
        return h

    yield make
    for h in hosts:
        h.stop()


@pytest.mark.slow
def test_two_browsers_and_a_bot_play_a_whole_game_of_deutschland(host_factory, tmp_path):
    host = host_factory(["deutschland", "--players", SEATS, "--seed", "5"])
    with sync_playwright() as pw:
        ann_browser, bob_browser = launch(pw), launch(pw)
        ann = open_page(ann_browser, host.links["Ann"])
        bob = open_page(bob_browser, host.links["Bob"], viewport=(820, 1180))  # a tablet
        turns = 0
        deadline = time.monotonic() + 600
        while "Game over" not in (ann.locator("#turn").text_content() or ""):
            assert time.monotonic() < deadline, "the game did not finish in time"
            for page in (ann, bob):
                if is_mine(page):
                    play_turn_via_page(page, meeple=turns % 3 == 0)
                    turns += 1
            time.sleep(0.02)
        final = [int(td.text_content()) for td in ann.locator("#scores td.score").all()]
        expect(bob.locator("#turn")).to_contain_text("Game over", timeout=30_000)
        ann_browser.close()
        bob_browser.close()
    game = replay(load_record(host.state / "deutschland" / "record.json"))
    assert game.is_over()
    assert game.scores == final
    assert turns > 60  # the two humans played their share of the 111 tiles
    assert any(r.name == "deutschland" for r in game.rules)


def test_a_reload_in_the_middle_of_a_turn_continues_it(host_factory):
    host = host_factory(["deutschland", "--players", "Ann=human,greedy", "--seed", "7"])
    with sync_playwright() as pw:
        browser = launch(pw)
        ann = open_page(browser, host.links["Ann"])
        before = actions_count(ann)
        ann.locator("[data-sq]").first.click()  # the tile is down: the meeple step
        ann.reload()
        wait_mine(ann)
        assert actions_count(ann) == before  # the same position, still Ann's turn
        play_turn_via_page(ann)
        wait_moved(ann, before + 1)  # the bot answered too
        assert actions_count(ann) >= before + 2
        browser.close()


def test_a_bot_stands_in_for_a_dropped_player_and_hands_the_seat_back(host_factory):
    host = host_factory(
        ["deutschland", "--players", "Ann=human,Bob=human", "--seed", "9", "--takeover", "1"]
    )
    with sync_playwright() as pw:
        browser = launch(pw)
        ann = open_page(browser, host.links["Ann"])
        bob = open_page(browser, host.links["Bob"])
        bob.context.close()  # Bob's browser drops
        play_turn_via_page(ann)
        # Bob's turn: after the takeover delay a bot plays it for him
        wait_mine(ann)
        assert "bot standing in" in ann.locator("#log").text_content()
        # Bob comes back: the seat is his again
        bob = open_page(browser, host.links["Bob"])
        play_turn_via_page(ann)
        wait_mine(bob)
        before = actions_count(bob)
        time.sleep(2.5)  # longer than the takeover delay: no bot takes his turn
        assert actions_count(bob) == before and is_mine(bob)
        play_turn_via_page(bob)
        wait_mine(ann)
        browser.close()


def test_a_killed_host_restarts_and_the_game_resumes(host_factory):
    args = ["deutschland", "--players", "Ann=human,greedy", "--seed", "11"]
    host = host_factory(args)
    with sync_playwright() as pw:
        browser = launch(pw)
        ann = open_page(browser, host.links["Ann"])
        play_turn_via_page(ann)
        wait_mine(ann)
        played = actions_count(ann)
        host.kill()
        expect(ann.locator("#status")).to_contain_text("reconnecting")
        again = HostProcess(host.state, args, port=host.port).start()
        try:
            assert again.links["Ann"] == host.links["Ann"]  # the same seats and tokens
            expect(ann.locator("#status")).to_have_text("connected", timeout=30_000)
            wait_mine(ann)
            assert actions_count(ann) == played
            play_turn_via_page(ann)
            assert actions_count(ann) > played
        finally:
            again.stop()
        browser.close()


def herring_map(folder: Path) -> tuple[Path, dict[tuple[int, int], str]]:
    """France with the docs' Herring rule set (resources Herring and Salt) and fish markets."""
    from engine.mapdef import MarkSquare
    from engine.mapio import load_map, save_map
    from engine.resources import bundled_map
    from mapeditor.ruleset_data import data_state

    m = load_map(bundled_map("france"))
    m.rule_set = data_state(json.loads(HERRING.read_text(encoding="utf-8")))
    coast = sorted(sq for sq in m.land if sq not in m.towns)[::23][:4]
    m.marks = {sq: MarkSquare("fish_market") for sq in coast}
    path = folder / "herring.json"
    save_map(m, path)
    return path, {sq: "fish_market" for sq in coast}


def test_the_board_draws_the_designers_marks_and_the_score_board_their_resources(
    host_factory, tmp_path
):
    path, marks = herring_map(tmp_path)
    host = host_factory([str(path), "--players", "Ann=human,greedy", "--seed", "3"])
    with sync_playwright() as pw:
        browser = launch(pw)
        ann = open_page(browser, host.links["Ann"])
        drawn = ann.locator("[data-mark]")
        expect(drawn).to_have_count(len(marks))
        for (x, y), mark in marks.items():
            here = ann.locator(f'[data-mark="{x},{y}"]')
            assert here.get_attribute("data-mark-id") == mark
            assert here.locator("use").get_attribute("href") == "/static/icons.svg#icon-ship"
            assert here.locator("use").get_attribute("color") == "#c0392b"  # the designer's
            assert here.locator("title").text_content() == "Fish market"
        rows = ann.locator("#scores tbody tr")
        expect(rows.first.locator("[data-resource]")).to_have_count(2)
        expect(rows.first).to_contain_text("Herring 0")
        expect(rows.first).to_contain_text("Salt 1")
        fish = rows.first.locator('[data-resource="herring"] use')
        assert fish.get_attribute("href") == "/static/icons.svg#icon-fish"
        browser.close()


def test_a_state_without_the_designers_keys_is_drawn_and_played(host_factory):
    # a host from before the designer's marks and resources sends none of their keys
    stripped: list[int] = []

    def old_host(state: dict) -> None:
        for key in ("marks", "mark_kinds", "resource_kinds"):
            del state[key]
        for player in state["players"]:
            del player["resources"]
        stripped.append(state["actions"])

    host = host_factory(["deutschland", "--players", "Ann=human,greedy", "--seed", "7"])
    with sync_playwright() as pw:
        browser = launch(pw)
        ann = open_page(browser, host.links["Ann"], states=old_host)
        expect(ann.locator("#scores tbody tr")).to_have_count(2)
        assert ann.locator("[data-mark]").count() == 0
        play_turn_via_page(ann)  # raises if the page raised
        wait_mine(ann)
        assert len(stripped) >= 2 and page_errors(ann) == []
        browser.close()
