"""The paifu viewer: the replay page of a finished riichi game lists its hands and jumps to each
hand's deal (by the list, the buttons and the [ ] keys), beside the step-by-step controls, and
shows the rules the game was played under. It steps by what a viewer sees: the passes that change
nothing are folded into the step before, the caption counts visible steps, and the address keeps
the log's step (a folded one opens the visible step it is in). The game is a bot game played in
the test process from a fixed seed, as in test_riichi_game.py."""

from __future__ import annotations

import random
import re

import pytest

from tests.browser.pages import boxes, open_page, server_database, sign_up, snap

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
RULES = {"preset": "tenhou-east"}  # Tenhou's rules east-only: three options differ from Majiang's


def _finished_bot_game(monkeypatch) -> tuple[int, list[dict], list[int]]:
    """A finished bot game of at least four hands (the first fixed seed giving one), its hands
    as the server sees them: [{step, round, honba, ending}], ``step`` being the first at whose
    history the hand's qipai is, ``ending`` how the hand list should say it ended; and the log
    step that begins each visible step, as the server says (tests/records/test_visible_steps.py
    checks those against the log)."""
    from games.core.engine import Mode
    from games.management.commands.playbots import bot_users, load_bot, play_table
    from games.models import Game
    from games.service import lobby, reads

    users = bot_users("riichi", 4)
    choose = load_bot("riichi")
    for seed in range(1, 20):
        monkeypatch.setattr(lobby.secrets, "randbits", lambda bits, seed=seed: seed)
        played = play_table("riichi", Mode(4, "Four players", 4), users, choose, random.Random(seed), RULES)
        game = Game.objects.get(id=played.game.id)
        end = reads.replay_step(game, None, game.seq)
        history, steps = end["history"], end["message_steps"]
        # The new field: one step per message, in order, none beyond the step asked for.
        assert len(steps) == len(history) and steps == sorted(steps) and steps[-1] <= game.seq
        names = {s.position: s.user.username for s in game.seats.select_related("user")}
        qijia = next(m for m in history if m["type"] == "kaiju")["params"][0]["qijia"]
        hands = []
        for i, message in enumerate(history):
            if message["type"] == "qipai":
                step, data = steps[i], message["params"][0]
                # The hand's deal is in that step's history and not in the one before.
                assert reads.replay_step(game, None, step)["history"][i] == message
                assert len(reads.replay_step(game, None, step - 1)["history"]) <= i
                wind = ["East", "South", "West", "North"][data["zhuangfeng"]]
                hands.append({"step": step, "round": f"{wind} {data['jushu'] + 1}", "honba": data["changbang"],
                              "jushu": data["jushu"], "wins": [], "draw": None})
            elif message["type"] == "hule":
                hands[-1]["wins"].append(message)
            elif message["type"] == "pingju":
                hands[-1]["draw"] = message["params"][0]["name"]
        for hand in hands:
            wins = hand.pop("wins")
            if not wins:
                hand["ending"] = hand.pop("draw") or ""
                continue
            hand.pop("draw")
            winners = " and ".join(names[m["player"]] for m in wins)
            baojia = wins[0]["params"][0]["baojia"]
            hand["ending"] = f"{winners} {'win' if len(wins) > 1 else 'wins'} " + (
                "by tsumo" if baojia is None else f"by ron off {names[(qijia + hand['jushu'] + baojia) % 4]}")
        if len(hands) >= 4:
            starts = reads.replay_step(game, None, game.seq, starts=True)["visible_starts"]
            print(f"\nriichi game {game.id}: {len(hands)} hands, {game.seq} actions, {len(starts) - 1} visible steps")
            return game.id, hands, starts
    raise AssertionError("no bot game of four hands or more in 19 seeds")


def test_riichi_replay_jumps_between_hands(live_server_url, browser, artifacts, monkeypatch):
    from playwright.sync_api import expect

    with server_database():
        game_id, hands, starts = _finished_bot_game(monkeypatch)
    visible = {start: i for i, start in enumerate(starts)}  # a hand's deal begins a visible step
    errors: list[str] = []
    page = open_page(browser, errors)
    sign_up(page, live_server_url, "fuu")
    steps_asked: list[int] = []
    page.on("request", lambda r: steps_asked.append(int(re.search(r"step=(\d+)", r.url).group(1)))
            if f"/api/games/{game_id}/replay/" in r.url else None)
    page.goto(f"{live_server_url}/games/{game_id}/replay/")
    step = page.get_by_test_id("replay-step")
    expect(step).to_have_text(re.compile(r"Step ([1-9]\d*) of \1$"))
    total = int(re.search(r"of (\d+)", step.inner_text()).group(1))
    assert total == len(starts) - 1

    # One entry per hand, named by its round and honba, and how it ended.
    select = page.get_by_test_id("replay-hands")
    options = page.get_by_test_id("replay-hand")
    expect(options).to_have_count(len(hands))
    labels = options.all_inner_texts()
    for i, (hand, label) in enumerate(zip(hands, labels, strict=True)):
        assert label.startswith(f"{i + 1}. {hand['round']}, {hand['honba']} honba ("), label
        assert hand["ending"] and hand["ending"] in label, (label, hand)
    assert [int(s) for s in options.evaluate_all("els => els.map((e) => e.dataset.step)")] == [h["step"] for h in hands]
    # At the last step, the last hand is the one listed as current.
    expect(select).to_have_value(str(len(hands) - 1))
    # The index came from the last step (the page opened there): no request per step.
    assert len(set(steps_asked)) <= 4, steps_asked

    def at_hand(i: int) -> None:
        hand = hands[i]
        expect(step).to_have_text(f"Step {visible[hand['step']]} of {total}")
        expect(page).to_have_url(re.compile(rf"[?&]step={hand['step']}$"))
        expect(select).to_have_value(str(i))
        # The centre shows that hand's round, freshly dealt: no result of the hand before over it.
        expect(page.get_by_test_id("round")).to_contain_text(hand["round"])
        expect(page.get_by_test_id("honba")).to_have_attribute("data-count", str(hand["honba"]))
        expect(page.locator('[data-testid="win-screen"], [data-testid="draw-screen"]')).to_have_count(0)
        expect(page.get_by_test_id("replay-what")).to_contain_text("the tiles are dealt")

    # Choosing a hand jumps to its deal.
    select.select_option("1")
    at_hand(1)
    snap(page, artifacts / "riichi-replay-hands.png")
    # The keys move between hands, also with the select focused: ] next, [ previous.
    page.keyboard.press("]")
    at_hand(2)
    page.keyboard.press("[")
    at_hand(1)
    page.keyboard.press("[")
    at_hand(0)
    # ... and the buttons.
    page.get_by_test_id("replay-next-hand").click()
    at_hand(1)
    expect(page.get_by_test_id("replay-prev-hand")).to_be_enabled()

    # The step-by-step controls still work around a hand's start: one step back is the hand
    # before, and stepping forward onto the deal shows that hand's result, as before.
    page.evaluate("document.activeElement && document.activeElement.blur()")
    page.keyboard.press("ArrowLeft")
    expect(step).to_have_text(f"Step {visible[hands[1]['step']] - 1} of {total}")
    expect(page).to_have_url(re.compile(rf"[?&]step={starts[visible[hands[1]['step']] - 1]}$"))
    expect(select).to_have_value("0")
    page.keyboard.press("ArrowRight")
    expect(step).to_have_text(f"Step {visible[hands[1]['step']]} of {total}")
    expect(page.locator('[data-testid="win-screen"], [data-testid="draw-screen"]')).to_have_count(1)

    # From the last hand, "next" goes nowhere; a shared address still opens its step.
    select.select_option(str(len(hands) - 1))
    at_hand(len(hands) - 1)
    expect(page.get_by_test_id("replay-next-hand")).to_be_disabled()
    page.keyboard.press("]")
    expect(step).to_have_text(f"Step {visible[hands[-1]['step']]} of {total}")
    page.goto(f"{live_server_url}/games/{game_id}/replay/?step={starts[visible[hands[2]['step']] + 3]}")
    expect(step).to_have_text(f"Step {visible[hands[2]['step']] + 3} of {total}")
    expect(page.get_by_test_id("replay-hands")).to_have_value("2")

    # The rules the game was played under, beside the log.
    rules = page.get_by_test_id("riichi-rules")
    expect(rules.get_by_test_id("rules-preset")).to_have_text("Tenhou-like east only (東風戦)")
    expect(rules.locator('[data-testid="rule-key"][data-rule="場数"]')).to_contain_text("East only")
    differs = rules.locator('[data-testid="rule"][data-differs="true"]')
    marked = differs.evaluate_all("els => els.map((e) => e.dataset.rule)")
    assert sorted(marked) == sorted(["順位点", "場数", "ダブル役満あり"]), marked

    # On a phone the hand list stays within the screen.
    page.set_viewport_size(PHONE)
    page.wait_for_timeout(200)
    (box,) = boxes(page, '[data-testid="replay-chapters"]')
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], box
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert not errors, errors


def test_riichi_replay_steps_by_what_a_viewer_sees(live_server_url, browser, artifacts, monkeypatch):
    """A log step that changed nothing seen (a pass) opens, by its address, the visible step it is
    folded into; the arrow key and the forward button move one visible step, each with a new
    caption, the address following with the log's step."""
    from playwright.sync_api import expect

    with server_database():
        game_id, hands, starts = _finished_bot_game(monkeypatch)
    folded = [n for n in range(starts[-1]) if n not in set(starts)]
    assert len(folded) > len(starts) // 2, "hardly any step folded"
    errors: list[str] = []
    page = open_page(browser, errors)
    sign_up(page, live_server_url, "tobi")
    step, what = page.get_by_test_id("replay-step"), page.get_by_test_id("replay-what")
    board = page.get_by_test_id("board")

    # In the second hand, a folded step and the visible step it is in: the step that begins it
    # and the passes after it show the same.
    n = next(n for n in folded if n > hands[1]["step"] + 20)
    start = max(s for s in starts if s <= n)
    i = starts.index(start)
    page.goto(f"{live_server_url}/games/{game_id}/replay/?step={start}")
    expect(step).to_have_text(f"Step {i} of {len(starts) - 1}")
    expect(what).not_to_be_empty()
    table, caption = board.inner_html(), what.text_content()
    page.goto(f"{live_server_url}/games/{game_id}/replay/?step={n}")
    expect(step).to_have_text(f"Step {i} of {len(starts) - 1}")
    expect(board).to_have_attribute("data-step", str(start))
    expect(page).to_have_url(re.compile(rf"[?&]step={start}$"))  # the address names what is shown
    assert board.inner_html() == table and what.text_content() == caption
    expect(page.get_by_test_id("replay-hands")).to_have_value("1")

    # One visible step per key press and per click, each saying something new.
    captions = [caption]
    page.evaluate("document.activeElement && document.activeElement.blur()")
    for k in range(1, 25):
        if k % 2:
            page.keyboard.press("ArrowRight")
        else:
            page.get_by_test_id("replay-forward").click()
        expect(step).to_have_text(f"Step {i + k} of {len(starts) - 1}")
        expect(page).to_have_url(re.compile(rf"[?&]step={starts[i + k]}$"))
        expect(what).not_to_have_text(captions[-1])
        captions.append(what.text_content())
    # ... and back the same way.
    page.keyboard.press("ArrowLeft")
    expect(step).to_have_text(f"Step {i + 23} of {len(starts) - 1}")
    expect(what).to_have_text(captions[-2])
    snap(page, artifacts / "riichi-replay-visible-steps.png")
    assert not errors, errors
