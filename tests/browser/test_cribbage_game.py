"""A person plays cribbage against a house bot through the page, to 121, then replays the game;
and a manual-counting game shows the count, agree and muggins controls."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest

from games.cribbage.records.record_check import verify_record
from tests.browser.pages import open_page, server_database, sign_up, snap

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

MAX_DECISIONS = 300

# Something to act on (a fresh decision whose controls are live) or the final result. Returns
# the decision's action, or "over".
_READY = """(last) => {
  const result = document.querySelector('[data-testid="cribbage-result"]');
  if (result && result.offsetParent !== null) return "over";
  const dialogs = [...document.querySelectorAll('[data-testid="cribbage-dialog"]')];
  const fresh = dialogs.filter((d) => d.dataset.v !== last);
  if (!fresh.length) return false;
  const live = (selector) => [...document.querySelectorAll(selector)].some((b) => !b.disabled);
  for (const d of fresh) {
    const a = d.dataset.action;
    if (a === "discard" && live('button[data-testid="hand-card"]')) return a;
    const legal = live('button[data-testid="hand-card"].crib-card--legal');
    if (a === "play" && (legal || live('[data-testid="play-button"]'))) return a;
    const button = `[data-testid="cribbage-dialog"][data-action="${a}"] [data-testid="action-button"]`;
    if (["count", "agree", "vote", "muggins"].includes(a) && live(button)) return a;
  }
  return false;
}"""


# The running count, the cards offered and how many cards are in the current count, in one go.
_PLAY_STATE = """() => ({
  count: Number(document.querySelector('[data-testid="count"]').dataset.count),
  legal: [...document.querySelectorAll('button[data-testid="hand-card"].crib-card--legal')].map((b) => b.dataset.card),
  inPlay: document.querySelectorAll('[data-testid="play-card"]').length,
})"""


def open_table_with_bot(page, base_url: str, username: str, shot=None) -> str:
    """Sign up, open a two-player cribbage table, add a house bot, accept: the game page."""
    from playwright.sync_api import expect

    sign_up(page, base_url, username)
    page.get_by_test_id("create-type").select_option("cribbage")
    page.get_by_test_id("create-mode").select_option("2")
    page.get_by_test_id("create-submit").click()
    table = page.get_by_test_id("setup-table")
    expect(table).to_have_count(1)
    game_id = table.get_attribute("data-game")
    table.get_by_test_id("add-bot").click()
    expect(table.get_by_test_id("seat")).to_have_count(2)
    expect(table.locator(".tag--bot")).to_have_count(1)
    if shot:
        snap(page, shot)
    table.get_by_test_id("accept-setup").click()
    page.wait_for_url(f"{base_url}/games/{game_id}/")
    expect(page.get_by_test_id("cribbage-table")).to_be_visible()
    return game_id


def wait_ready(page, last_v: str | None, timeout_ms: int = 20_000) -> str:
    return page.wait_for_function(_READY, arg=last_v or "", timeout=timeout_ms).json_value()


def dialog_v(page, action: str) -> str:
    return page.locator(f'[data-testid="cribbage-dialog"][data-action="{action}"]').first.get_attribute("data-v")


def lay_away(page) -> None:
    """Pick the first cards of the hand (as many as the crib wants) and lay them away."""
    from playwright.sync_api import expect

    hand = page.locator('button[data-testid="hand-card"]')
    button = page.get_by_test_id("discard-button")
    wanted = int(re.search(r"Pick (\d)", page.get_by_test_id("hand-hint").inner_text()).group(1))
    for i in range(wanted):
        expect(button).to_be_disabled()
        hand.nth(i).click()
    expect(page.locator('[data-testid="hand-card"][data-selected="true"]')).to_have_count(wanted)
    expect(button).to_be_enabled()
    button.click()


def test_cribbage_full_game_against_a_bot(live_server_url, browser, artifacts):
    from playwright.sync_api import expect

    errors: list[str] = []
    page = open_page(browser, errors)
    started = time.monotonic()
    game_id = open_table_with_bot(page, live_server_url, "cora", shot=artifacts / "cribbage-lobby.png")

    # The table: one opponent with their cards face down (six, or four once the bot has laid
    # away), a 121-hole board with two lanes, and six cards in hand.
    expect(page.get_by_test_id("crib-seat")).to_have_count(1)
    backs = page.locator('[data-testid="crib-seat"] [data-testid="hand-backs"]')
    expect(backs).to_have_attribute("data-count", re.compile("^[46]$"))
    expect(page.get_by_test_id("score")).to_have_count(2)
    expect(page.get_by_test_id("peg")).to_have_count(4)
    expect(page.get_by_test_id("hand-card")).to_have_count(6)
    # Each card is drawn with its rank and suit: red for hearts and diamonds.
    for card in page.get_by_test_id("hand-card").all():
        code = card.get_attribute("data-card")
        assert re.fullmatch(r"[A2-90JQK][HDCS]", code), code
        expect(card).to_have_class(re.compile("crib-card--red" if code[1] in "HD" else "crib-card--black"))

    last_v: str | None = None
    decisions = 0
    seen: set[str] = set()
    shot_play = shot_show = False
    while True:
        action = wait_ready(page, last_v)
        if action == "over":
            break
        seen.add(action)
        v = dialog_v(page, action)
        if action == "discard":
            if not shot_show and page.locator('[data-testid="show"] [data-testid="show-items"]').count():
                # The last hand's show stays on the table while the next hand is laid away.
                show = page.get_by_test_id("show")
                expect(show.get_by_test_id("show-hand")).to_have_count(3)  # two hands and the crib
                snap(page, artifacts / "cribbage-show.png")
                shot_show = True
            lay_away(page)
        elif action == "play":
            table = page.evaluate(_PLAY_STATE)
            # Only the cards that keep the count at 31 or under are offered.
            assert table["legal"], table
            for code in table["legal"]:
                assert table["count"] + min("A234567890JQK".index(code[0]) + 1, 10) <= 31, table
            card = page.locator(f'button[data-testid="hand-card"][data-card="{table["legal"][0]}"]')
            if not shot_play and table["inPlay"] >= 2:
                card.hover()
                snap(page, artifacts / "cribbage-table.png")
                shot_play = True
            card.click()
        else:  # pragma: no cover - auto counting asks for nothing else
            raise AssertionError(f"unexpected decision {action}")
        last_v = v
        decisions += 1
        assert decisions < MAX_DECISIONS, "the game should have ended by now"

    elapsed = time.monotonic() - started
    assert seen == {"discard", "play"}, seen
    assert shot_play and shot_show

    # The result: the winner, the margin, both final scores; one side on 121.
    result = page.get_by_test_id("cribbage-result")
    expect(result).to_be_visible()
    expect(page.get_by_test_id("game-status")).to_have_text("Finished")
    margin = int(page.get_by_test_id("result-margin").get_attribute("data-margin"))
    expect(page.get_by_test_id("result-margin")).to_contain_text(f"by {margin} point")
    scores = sorted(int(s) for s in page.locator('[data-testid="final-score"] td.num').all_inner_texts())
    assert scores[1] == 121 and scores[1] - scores[0] == margin, (scores, margin)
    assert margin > 0
    # The winner's front peg is in the game hole.
    expect(page.locator('[data-testid="peg"][data-front="true"][data-hole="121"]')).to_have_count(1)
    log = page.get_by_test_id("game-log")
    expect(log).to_contain_text(re.compile(r"cora played"))
    expect(log).to_contain_text(re.compile(r"showed the hand"))
    expect(log).to_contain_text(re.compile(r"won by \d+ point"))
    snap(page, artifacts / "cribbage-final.png")

    # The final screen downloads the game's record, which replays to the same result.
    with page.expect_download() as download:
        result.get_by_test_id("download-record").click()
    record = json.loads(Path(download.value.path()).read_text())
    assert verify_record(record) == [] and record["result"]["margin"] == margin

    # The replay opens at the end with the result, and steps back and forward.
    page.get_by_test_id("watch-replay").click()
    page.wait_for_url(f"{live_server_url}/games/{game_id}/replay/")
    step_text = page.get_by_test_id("replay-step")
    expect(step_text).to_have_text(re.compile(r"Step ([1-9]\d*) of \1$"))
    steps = int(re.search(r"of (\d+)", step_text.inner_text()).group(1))
    expect(page.get_by_test_id("cribbage-result")).to_be_visible()
    expect(page.get_by_test_id("cribbage-table")).to_be_visible()
    page.get_by_test_id("replay-back").click()
    expect(step_text).to_have_text(f"Step {steps - 1} of {steps}")
    expect(page.get_by_test_id("cribbage-result")).to_be_hidden()
    page.get_by_test_id("replay-first").click()
    expect(step_text).to_have_text(f"Step 0 of {steps}")
    expect(page.locator('#replay-board[data-step="0"]')).to_have_count(1)
    # Before the deal: nobody has scored and there are no cards.
    assert page.locator('[data-testid="score"]').evaluate_all("els => els.map((e) => e.dataset.score)") == ["0", "0"]
    page.keyboard.press("ArrowRight")
    expect(step_text).to_have_text(f"Step 1 of {steps}")
    # After the deal: six cards each, every hand face up in the replay of a finished game.
    expect(page.locator('#replay-board[data-step="1"]')).to_have_count(1)
    expect(page.get_by_test_id("hand-card")).to_have_count(6)
    expect(page.locator('[data-testid="hand-revealed"] [data-testid="card"]')).to_have_count(6)
    page.get_by_test_id("replay-forward").click()
    expect(step_text).to_have_text(f"Step 2 of {steps}")
    page.get_by_test_id("replay-slider").fill(str(steps // 2))
    expect(step_text).to_have_text(f"Step {steps // 2} of {steps}")
    snap(page, artifacts / "cribbage-replay.png")

    print(f"\n{decisions} decisions by cora, game played in {elapsed:.1f} s, {steps} actions; "
          f"screenshots in {artifacts}")
    assert not errors, errors


def _true_count(page, action: str) -> int:
    """What the decision on the page is really worth, worked out with the engine's own scoring."""
    from games.cribbage.engine.scoring import peg_points, score_hand

    if action == "count":
        dialog = page.locator('[data-testid="cribbage-dialog"][data-action="count"]')
        cards = dialog.locator("[data-card]").evaluate_all("els => els.map((e) => e.dataset.card)")
        crib = "crib" in dialog.locator("h3").inner_text()
        return score_hand(cards[:-1], cards[-1], crib=crib)[0]
    # A card about to be played: the play so far and the picked card.
    play = page.locator('[data-testid="play-card"] [data-card]').evaluate_all("els => els.map((e) => e.dataset.card)")
    picked = page.locator('[data-testid="hand-card"][data-selected="true"]').get_attribute("data-card")
    return peg_points([*play, picked])[0]


def test_cribbage_manual_counting_and_muggins(live_server_url, browser, artifacts):
    """Manual counting: the person pegs each card with a claim, counts hands with the stepper, agrees
    to the bot's counts, calls muggins (wrongly: rejected), is mugginsed for an overcount and votes,
    and pauses and resumes the game."""
    from playwright.sync_api import expect

    from games.models import Game

    errors: list[str] = []
    page = open_page(browser, errors)
    sign_up(page, live_server_url, "milo")
    page.get_by_test_id("create-type").select_option("cribbage")
    page.get_by_test_id("create-mode").select_option("2")
    expect(page.get_by_test_id("create-rules-cribbage")).to_be_visible()
    page.get_by_test_id("create-counting").select_option("manual")
    page.get_by_test_id("create-submit").click()
    table = page.get_by_test_id("setup-table")
    expect(table).to_have_count(1)
    game_id = table.get_attribute("data-game")
    with server_database():
        assert Game.objects.get(id=game_id).rules == {"counting": "manual"}  # chosen on the create form
    table.get_by_test_id("add-bot").click()
    expect(table.get_by_test_id("seat")).to_have_count(2)
    table.get_by_test_id("accept-setup").click()
    page.wait_for_url(f"{live_server_url}/games/{game_id}/")
    expect(page.get_by_test_id("cribbage-table")).to_be_visible()

    started = time.monotonic()
    last_v: str | None = None
    seen: set[str] = set()
    overcounted = called = paused = False
    for _ in range(MAX_DECISIONS):
        if {"count", "agree", "vote", "muggins-called"} <= seen and paused:
            break
        action = wait_ready(page, last_v)
        assert action != "over", "the game ended before every control was seen"
        if action == "muggins" and not page.locator('[data-testid="cribbage-dialog"][data-action="play"]').count():
            # Only the option to dispute the bot's last pegging claim, while the bot is to play.
            last_v = dialog_v(page, action)
            continue
        action = "play" if action == "muggins" else action
        seen.add(action)
        v = dialog_v(page, action)
        if action == "discard":
            lay_away(page)
        elif action == "play":
            if not paused:
                # Pause: the table is covered and only "Resume" is offered, then play goes on.
                page.locator('[data-testid="action-button"][data-action="pause"]').click()
                expect(page.get_by_test_id("paused")).to_be_visible()
                expect(page.get_by_test_id("paused-note")).to_contain_text("paused by you")
                page.screenshot(path=str(artifacts / "cribbage-paused.png"), animations="disabled")
                page.locator('[data-testid="action-button"][data-action="unpause"]').click()
                expect(page.get_by_test_id("paused")).to_have_count(0)
                paused = True
                last_v = None  # the pause moved v on: the play decision is asked again
                continue
            button = page.get_by_test_id("play-button")
            expect(button).to_be_disabled()  # nothing picked yet
            page.locator('button[data-testid="hand-card"].crib-card--legal').first.click()
            expect(button).to_be_enabled()
            page.get_by_test_id("claim-value").fill(str(_true_count(page, "play")))
            button.click()
        elif action == "count":
            truth = _true_count(page, "count")
            # Once, claim a point too many: the bot calls muggins and the person has to vote.
            claim = truth + 1 if not overcounted and truth < 29 else truth
            overcounted = overcounted or claim != truth
            for _ in range(claim):
                page.get_by_test_id("count-plus").click()
            expect(page.get_by_test_id("count-value")).to_have_value(str(claim))
            if claim != truth:
                page.screenshot(path=str(artifacts / "cribbage-count.png"), animations="disabled")
            page.locator('[data-testid="action-button"][data-action="count"]').click()
        elif action == "agree":
            dialog = page.locator('[data-testid="cribbage-dialog"][data-action="agree"]')
            mugginsable = dialog.locator('[data-action="muggins"]').count() > 0
            if mugginsable and not called:
                # The bot claims the truth, so calling muggins on it fails.
                claimed = int(page.get_by_test_id("muggins-value").input_value())
                page.get_by_test_id("muggins-value").fill(str(claimed + 1 if claimed < 29 else claimed - 1))
                dialog.locator('[data-action="muggins"]').click()
                called = True
                seen.add("muggins-called")
                expect(page.get_by_test_id("game-log")).to_contain_text("Muggins rejected")
            else:
                dialog.locator('[data-action="agree"]').click()
        elif action == "vote":
            dialog = page.locator('[data-testid="cribbage-dialog"][data-action="vote"]')
            expect(dialog).to_contain_text("should be")
            page.screenshot(path=str(artifacts / "cribbage-vote.png"), animations="disabled")
            dialog.locator('[data-vote="true"]').click()
            expect(page.get_by_test_id("game-log")).to_contain_text("Muggins upheld")
        last_v = v
    else:  # pragma: no cover
        raise AssertionError(f"not every control came up: {seen}")

    log = page.get_by_test_id("game-log")
    expect(log).to_contain_text("called muggins")
    expect(log).to_contain_text("paused the game")
    expect(log).to_contain_text("resumed the game")
    print(f"\nmanual counting: {sorted(seen)} in {time.monotonic() - started:.1f} s; screenshots in {artifacts}")
    assert not errors, errors
