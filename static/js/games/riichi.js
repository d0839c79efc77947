// The riichi mahjong table for the game page (registered in registry.js). The drawing lives in
// ./riichi/: tiles.js (notation and tiles as SVG), table.js (the square table, rivers, hands,
// middle), controls.js (the decision bar, help and panel), decisions.js (legal actions read, the
// moves made for the player), hands.js (the hands of the history), result.js (win and draw
// screens, final standings), log.js (history in words), names.js (yaku and other words) and
// rules.js (the rules in force, shown in the action panel). The replay page uses the same modules.
// See docs/browser.md and docs/riichi-table.md.

import { h, replaceChildrenKeepingFocus } from "../dom.js";
import generic from "./generic.js";
import { renderBar, renderHelp, renderPanel } from "./riichi/controls.js";
import { autoMove, loadToggles, options, saveToggles } from "./riichi/decisions.js";
import { handsOf, lastEnded } from "./riichi/hands.js";
import { describeMessage } from "./riichi/log.js";
import { drawName, roundName } from "./riichi/names.js";
import { renderHandEnd, renderStandings } from "./riichi/result.js";
import { renderRules } from "./riichi/rules.js";
import { renderTable } from "./riichi/table.js";

// A hand's result shows until the player closes it, or until this long after it appeared once
// the next hand has begun: the server deals the next hand at once, so "until the next deal"
// alone would be no time at all.
const HAND_END_HOLD_MS = 8000;

const ui = {
  // What the player is picking on the table ("lizhi": the riichi discard; "chi", "pon", "kan":
  // one meld of several), for the decision of one v only.
  mode: null,
  modeV: null,
  toggles: loadToggles(),
  // The last board drawn and its context, so the renderer can redraw itself (a mode, a closed
  // screen, the hold running out) between the page's repaints.
  el: null,
  ctx: null,
  // The hand-end screen: which hand it shows (key), since when, the node itself (kept across
  // redraws, so it neither flickers nor replays its entrance on every push), and those closed.
  screen: { key: null, since: 0, node: null, closed: new Set(), baseline: null, timer: null },
  // The rules panel, built once per rule set: the action panel is redrawn at every move, and a
  // node moved into the new panel keeps "All rules" open if the reader opened it.
  rules: { sig: null, node: null },
};

/** A player's name with the robot marker for house bots. */
export function playerTag(name, { bot = false, me = false, gone = false } = {}) {
  return h("span", { class: ["rii-who", me && "rii-who--me", gone && "rii-who--gone"] }, name,
    bot ? h("span", { class: "bot-icon", title: "House bot", "aria-label": "(bot)", role: "img" }) : null,
    // A player who left: the server plays the seat from then on, and everyone should know it.
    gone ? h("span", { class: "rii-who__gone", dataset: { testid: "seat-left" }, title: "Left the game; the server plays this seat" }, "left") : null);
}

/** Names for seats; ``marks``: also mark a player who left (the table's plates, not every log line). */
function whoFor(ctx, { marks = false } = {}) {
  return (seat) => {
    const player = ctx.players.find((p) => p.position === seat);
    return playerTag(ctx.playerName(seat), { bot: Boolean(player?.bot), me: seat === ctx.position,
      gone: marks && Boolean(player?.forfeited) });
  };
}

const seated = (ctx) => ctx.position !== null && ctx.position !== undefined;

/** Who sits at the bottom: the viewer; for a spectator, the host's seat (else the first). */
function bottomSeat(ctx) {
  if (seated(ctx)) return ctx.position;
  const host = ctx.players.find((p) => p.user === ctx.config.host && p.position !== null && p.position !== undefined);
  return host ? host.position : 0;
}

function legalNow(ctx) {
  return seated(ctx) && ctx.state.status === "active" ? ctx.state.legal || [] : [];
}

function modeFor(ctx, opts) {
  if (ui.modeV !== ctx.state.v) return null;
  if (ui.mode === "lizhi" && !opts.lizhi.length) return null;
  if (ui.mode && ui.mode !== "lizhi" && !(ui.mode === "kan" && opts.ownTurn ? opts.gang : opts[ui.mode] || []).length) return null;
  return ui.mode;
}

function redraw() {
  if (ui.el && ui.ctx && ui.el.isConnected) renderer.renderBoard(ui.el, { ...ui.ctx, busy: ui.ctx.state.busy });
}

function setMode(mode) {
  ui.mode = mode;
  ui.modeV = ui.ctx ? ui.ctx.state.v : null;
  redraw();
}

function send(ctx, type, params) {
  ui.mode = null;
  ctx.act(type, params);
}

// ------------------------------------------------------------------ hand-end screen

function closeScreen(key) {
  ui.screen.closed.add(key);
  clearTimeout(ui.screen.timer);
  redraw();
}

// The hold ran out: the screen leaves, and nothing else is redrawn. A redraw replaces every
// button and tile, and one at a moment the player did not cause could fall between the press and
// the release of their click, which is then lost (the page would wait for a decision made).
function expireScreen(key) {
  const s = ui.screen;
  s.closed.add(key);
  if (s.key === key && s.node) s.node.remove();
}

/** The last hand's result while it should show (see HAND_END_HOLD_MS), else null. */
function liveScreen(ctx, who) {
  const history = ctx.state.history;
  const view = ctx.state.view;
  const s = ui.screen;
  if (s.baseline === null) s.baseline = history.length;
  const hands = handsOf(history, view.qijia);
  const hand = lastEnded(hands);
  if (!hand) return null;
  const key = String(hand.start);
  if (s.closed.has(key)) return null;
  const next = hands[hands.length - 1] !== hand ? hands[hands.length - 1] : null;
  if (s.key !== key) {
    s.key = key;
    s.since = Date.now();
    s.node = null;
    // Opened the page in a later hand already under way: that result is old news.
    const played = next && history.slice(next.start).some((m) => m.type === "dapai");
    if (hand.endIndex < s.baseline && played) {
      s.closed.add(key);
      return null;
    }
  }
  if (next) {
    const left = HAND_END_HOLD_MS - (Date.now() - s.since);
    if (left <= 0) {
      s.closed.add(key);
      return null;
    }
    clearTimeout(s.timer);
    s.timer = setTimeout(() => expireScreen(key), left + 20);
  }
  if (!s.node) {
    const node = renderHandEnd(hand, { who, rule: view.rule, onClose: () => closeScreen(key) });
    // A node moved into the next redraw would play its entrance again: once is enough.
    node.addEventListener("animationend", () => node.classList.add("rii-screen--shown"), { once: true });
    s.node = node;
  }
  return s.node;
}

/**
 * The screen a replay step shows: the last hand's result from the step that ended it until the
 * next hand's first discard. ``deal``: the step was reached by jumping to the hand it deals, so
 * the table shows that deal, not the result of the hand before (ended by the same step).
 */
export function replayScreen(history, view, who, { deal = false } = {}) {
  if (deal) return null;
  const hand = lastEnded(handsOf(history, view?.qijia));
  if (!hand) return null;
  if (history.slice(hand.endIndex).some((m) => m.type === "dapai")) return null;
  return renderHandEnd(hand, { who, rule: view?.rule || {} });
}

/**
 * The round the game ended in: {zhuangfeng, jushu, changbang} of the last hand played (the view,
 * once the game is over, already names the next one), or null without a hand in the history.
 */
export function endedRound(history, view) {
  const hands = handsOf(history || [], view?.qijia);
  const hand = lastEnded(hands) || hands[hands.length - 1];
  return hand ? { zhuangfeng: hand.zhuangfeng, jushu: hand.jushu, changbang: hand.qipai.changbang ?? 0 } : null;
}

/** The rules in force (rules.js), for players and spectators alike; null before the game's view. */
function rulesNode(ctx) {
  const view = ctx.state.view;
  if (!view || view.game_type !== "riichi" || !view.rule) return null;
  const sig = JSON.stringify([view.rule, view.preset]);
  if (ui.rules.sig !== sig) ui.rules = { sig, node: renderRules(view.rule, view.preset, ctx.config.riichi_presets) };
  return ui.rules.node;
}

/** How a hand ended, in words: "alice wins by tsumo", "bob and carol win by ron off dave", a draw. */
function handEnding(hand, nameOf) {
  if (!hand.ends.length) return "not finished";
  const wins = hand.ends.filter((m) => m.type === "hule");
  if (!wins.length) {
    const name = hand.ends[0].params?.[0]?.name;
    return `${drawName(name)}${name ? ` (${name})` : ""}`;
  }
  const winners = wins.map((m) => nameOf(m.player ?? hand.seatOf(m.params?.[0]?.l)));
  const data = wins[0].params?.[0] || {};
  const names = winners.length > 1 ? `${winners.slice(0, -1).join(", ")} and ${winners[winners.length - 1]}` : winners[0];
  const verb = winners.length > 1 ? "win" : "wins";
  if (data.baojia === null || data.baojia === undefined) return `${names} ${verb} by tsumo`;
  return `${names} ${verb} by ron off ${nameOf(hand.seatOf(data.baojia))}`;
}

/**
 * The hands of a finished game for the replay's hand list: [{step (the step that deals it, from
 * ``messageSteps``, the replay API's step of each message), index (its qipai in the history),
 * label ("East 1, 0 honba (東1局 0本場): alice wins by tsumo"), round ("East 1"), honba, ending}].
 * ``nameOf(seat)``: a player's name as plain text (an <option> holds no markup).
 */
export function replayHands(history, messageSteps, nameOf) {
  return handsOf(history).map((hand) => {
    const [ja, en] = roundName(hand.zhuangfeng, hand.jushu);
    const honba = hand.qipai.changbang ?? 0;
    const ending = handEnding(hand, nameOf);
    return { step: messageSteps[hand.start], index: hand.start, round: en, honba, ending,
      label: `${en}, ${honba} honba (${ja} ${honba}本場): ${ending}` };
  }).filter((hand) => Number.isInteger(hand.step));
}

// ------------------------------------------------------------------ keyboard

function handTiles() {
  return ui.el ? [...ui.el.querySelectorAll('[data-testid="my-hand"] [data-testid="hand-tile"]')] : [];
}

function barButton(shortcut) {
  if (!ui.el) return null;
  return [...ui.el.querySelectorAll('[data-testid="riichi-bar"] [data-shortcut]')].find((b) => b.dataset.shortcut === shortcut && !b.disabled) || null;
}

function onKey(event) {
  if (event.altKey || event.ctrlKey || event.metaKey || !ui.el || !ui.el.isConnected) return;
  const target = event.target;
  if (target instanceof HTMLElement && target.closest("input, textarea, select, [contenteditable]")) return;
  const key = event.key;
  const handled = () => event.preventDefault();
  if (key === "Escape") {
    if (ui.mode && ui.modeV === ui.ctx?.state.v) {
      setMode(null);
      return handled();
    }
    const close = ui.el.querySelector('[data-testid="screen-close"]');
    if (close) {
      close.click();
      return handled();
    }
    // Otherwise Escape skips, as Space does.
    const skip = barButton(" ");
    if (skip) {
      skip.click();
      return handled();
    }
    return;
  }
  const digit = "1234567890-=".indexOf(key);
  const options = [...ui.el.querySelectorAll('[data-testid="call-option"]')];
  if (digit >= 0 && options.length) {
    if (options[digit] && !options[digit].disabled) options[digit].click();
    return handled();
  }
  const tiles = handTiles();
  if (digit >= 0) {
    const tile = tiles[digit];
    if (!tile || tile.tagName !== "BUTTON" || tile.disabled) return;
    // The first press picks the tile, the second discards it: a slip of the finger costs nothing.
    if (document.activeElement === tile) tile.click();
    else tile.focus();
    return handled();
  }
  if (key === "ArrowLeft" || key === "ArrowRight") {
    const live = tiles.filter((t) => t.tagName === "BUTTON" && !t.disabled);
    if (!live.length) return;
    const at = live.indexOf(document.activeElement);
    const next = at < 0 ? (key === "ArrowLeft" ? live.length - 1 : 0) : Math.max(0, Math.min(live.length - 1, at + (key === "ArrowLeft" ? -1 : 1)));
    live[next].focus();
    return handled();
  }
  if (key === "ArrowUp") {
    if (tiles.includes(document.activeElement) && !document.activeElement.disabled) document.activeElement.click();
    return handled();
  }
  const button = barButton(key.length === 1 ? key.toLowerCase() : key);
  if (button) {
    button.click();
    handled();
  }
}

let keysWired = false;
function wireKeys() {
  if (keysWired) return;
  keysWired = true;
  document.addEventListener("keydown", onKey);
}

// ------------------------------------------------------------------ the renderer

const renderer = {
  name: "riichi",
  // The hand is clickable when it is the viewer's turn, so the board follows the legal moves.
  boardShowsActions: true,
  // The table draws its own seats (counter-clockwise from the viewer): no generic plaques.
  ownSeats: true,

  formatMessage(message, ctx) {
    return describeMessage(message, whoFor(ctx), { history: ctx.state.history, rule: ctx.state.view?.rule });
  },

  renderBoard(el, ctx) {
    const view = ctx.state.view;
    if (!view || view.game_type !== "riichi") {
      generic.renderBoard(el, ctx);
      return;
    }
    ui.el = el;
    ui.ctx = ctx;
    wireKeys();
    const who = whoFor(ctx, { marks: true });
    const busy = Boolean(ctx.busy);
    // A decision the page is about to answer by itself (autoAction, right after this repaint) is
    // not offered: no tile or button lights up for a moment only to go dark.
    const auto = !busy && autoMove(legalNow(ctx), ui.toggles);
    const opts = options(auto ? [] : legalNow(ctx));
    const mode = modeFor(ctx, opts);
    let hand = null;
    if (opts.ownTurn) {
      const legal = new Set(mode === "lizhi" ? opts.lizhi.map((p) => p.replace(/\*$/, "")) : opts.dapai);
      hand = { legal, mode: mode === "lizhi" ? "lizhi" : "dapai", busy,
        onTile: (param) => send(ctx, "dapai", [mode === "lizhi" ? `${param}*` : param]) };
    }
    const active = ctx.state.status === "active";
    const table = renderTable(view, {
      who,
      bottom: bottomSeat(ctx),
      mine: seated(ctx),
      toAct: active ? ctx.state.toAct : [],
      hand,
      help: seated(ctx) && !view.is_over ? renderHelp(view.me, opts) : null,
      bar: renderBar({ opts, view, v: ctx.state.v, busy, mode, setMode, send: (type, params) => send(ctx, type, params), who }),
      screen: liveScreen(ctx, who),
      clocks: active ? ctx.state.clocks || null : null,
      clocksAt: ctx.state.clocksAt || Date.now(),
      ended: view.is_over ? endedRound(ctx.state.history, view) : null,
    });
    // For tests and the curious: the v this table answers and the legal action types behind it.
    table.dataset.v = String(ctx.state.v ?? "");
    table.dataset.legal = legalNow(ctx).map((e) => e.type).join(",");
    replaceChildrenKeepingFocus(el, [table]);
  },

  renderActions(el, ctx) {
    const { state } = ctx;
    const rules = rulesNode(ctx);
    if (!seated(ctx) || state.status !== "active" || !state.view) {
      generic.renderActions(el, ctx);
      if (rules) el.append(rules);
      return;
    }
    const opts = options(state.legal);
    const note = opts.ownTurn && !opts.calls && !opts.hule && !opts.lizhi.length && !opts.gang.length && !opts.pingju
      ? "Click a tile of your hand to discard it."
      // Whose turn it is, the page's heading and indicator say (game.js panelText), not the note.
      : opts.any ? "Your decision is on the table, beside your hand." : null;
    el.replaceChildren(...renderPanel({
      toggles: ui.toggles, note, rules,
      onToggle: (key, on) => {
        ui.toggles = { ...ui.toggles, [key]: on };
        saveToggles(ui.toggles);
        // A toggle turned on may already answer the decision on the table.
        const move = !ctx.state.busy ? autoMove(ctx.state.legal, ui.toggles) : null;
        if (move) send(ctx, move[0], move[1]);
      },
    }).filter(Boolean));
  },

  /** Moves the client makes by itself (decisions.js): lone passes, forced discards, the toggles. */
  autoAction(ctx) {
    if (!seated(ctx) || ctx.state.status !== "active") return null;
    return autoMove(ctx.state.legal, ui.toggles);
  },

  renderResult(el, ctx) {
    const { state } = ctx;
    if (state.status === "active" || !state.result) {
      el.replaceChildren();
      return;
    }
    const jieju = [...state.history].reverse().find((m) => m.type === "jieju") || null;
    const sig = JSON.stringify([state.result, state.status, ctx.players, Boolean(jieju), state.history?.length]);
    if (el.dataset.riiSig === sig) return;
    el.dataset.riiSig = sig;
    const standings = renderStandings(state.result, jieju, { who: whoFor(ctx), position: ctx.position, gameId: ctx.config.game, links: state.status === "finished",
      ended: endedRound(state.history, state.view) });
    if (standings) el.replaceChildren(standings);
    else generic.renderResult(el, ctx);
  },
};

export default renderer;
