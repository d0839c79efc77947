// The cribbage table for the game page (registered in registry.js). The drawing lives in
// ./cribbage/: cards.js (cards as SVG), pegboard.js (the 121-hole board), table.js (hands, starter,
// play area, crib, show), controls.js (the viewer's decisions), log.js (history in words) and
// result.js (winner and margin). The replay page uses the same modules. See docs/browser.md.

import { h } from "../dom.js";
import generic from "./generic.js";
import { pendingPhrase, renderControls } from "./cribbage/controls.js";
import { describeMessage } from "./cribbage/log.js";
import { outcome, renderResult } from "./cribbage/result.js";
import { renderTable } from "./cribbage/table.js";

function isBot(ctx, seat) {
  return Boolean(ctx.players.find((p) => p.position === seat)?.bot);
}

/** A player's name with the robot marker for house bots. */
export function playerTag(name, { bot = false, me = false } = {}) {
  return h("span", { class: ["crib-who", me && "crib-who--me"] }, name,
    bot ? h("span", { class: "bot-icon", title: "House bot", "aria-label": "(bot)", role: "img" }) : null);
}

function whoFor(ctx) {
  return (seat) => playerTag(ctx.playerName(seat), { bot: isBot(ctx, seat), me: seat === ctx.position });
}

function entry(ctx, type) {
  return ctx.state.status === "active" ? ctx.state.legal.find((e) => (e.type || e.action) === type) || null : null;
}

/**
 * A key for the viewer's picks: the same decision over the same hand keeps its picks across
 * redraws, a new one (another hand, the next card to play) starts afresh.
 */
function pickKey(view, type) {
  return JSON.stringify([type, view.hands_dealt ?? null, view.hand || [], view.count ?? null]);
}

/** How the viewer's hand behaves now: which cards are live and what a click does. */
function handConfig(ctx) {
  const view = ctx.state.view;
  const discard = entry(ctx, "discard");
  const play = entry(ctx, "play");
  if (discard) {
    return { mode: "discard", count: discard.count ?? 1, pickKey: pickKey(view, "discard"), busy: ctx.busy,
      onDiscard: (cards) => ctx.act("discard", cards) };
  }
  if (play) {
    const legal = new Set(play.cards || []);
    if (play.claim === true || view.rules?.counting === "manual") {
      return { mode: "manual", legal, pickKey: pickKey(view, "play"), busy: ctx.busy,
        onManualPlay: (card, points) => ctx.act("play", [card, points]) };
    }
    return { mode: "play", legal, busy: ctx.busy, onPlay: (card) => ctx.act("play", [card]) };
  }
  return { mode: null, busy: ctx.busy };
}

export default {
  name: "cribbage",
  // The viewer's hand is clickable when it is their turn, so the board follows the legal moves.
  boardShowsActions: true,

  formatMessage(message, ctx) {
    return describeMessage(message, whoFor(ctx));
  },

  renderBoard(el, ctx) {
    const view = ctx.state.view;
    if (!view || typeof view !== "object" || !("phase" in view || "scores" in view)) {
      generic.renderBoard(el, ctx);
      return;
    }
    const seated = ctx.position !== null && ctx.position !== undefined;
    el.replaceChildren(renderTable(view, {
      who: whoFor(ctx),
      position: seated ? ctx.position : null,
      toAct: ctx.state.status === "active" ? ctx.state.toAct : [],
      history: ctx.state.history,
      hand: seated && ctx.state.status === "active" ? handConfig(ctx) : null,
      boardId: `game-${ctx.config.game}`,
      clocks: ctx.state.status === "active" ? ctx.state.clocks || null : null,
      clocksAt: ctx.state.clocksAt || Date.now(),
    }));
  },

  /** What the seats to act are to do ("to lay away to the crib"), for the page's "Waiting for …" line. */
  pendingDecision(ctx) {
    return ctx.state.status === "active" ? pendingPhrase(ctx.state.view) : null;
  },

  renderActions(el, ctx) {
    const { state } = ctx;
    if (ctx.position === null || ctx.position === undefined || state.status !== "active" || !state.view) {
      generic.renderActions(el, ctx);
      return;
    }
    el.replaceChildren(...renderControls({
      view: state.view, legal: state.legal, position: ctx.position, toAct: state.toAct, busy: ctx.busy, v: state.v,
      act: ctx.act, who: whoFor(ctx),
    }));
  },

  renderResult(el, ctx) {
    const out = ctx.state.status === "active" ? null : outcome(ctx.state.history, ctx.state.result, ctx.state.view);
    if (!out) {
      if (ctx.state.result && ctx.state.status !== "active") generic.renderResult(el, ctx);
      else el.replaceChildren();
      return;
    }
    // Redrawn only when something in it changed, so a focused link keeps its focus.
    const sig = JSON.stringify([out, ctx.state.status, ctx.players]);
    if (el.dataset.cribSig === sig) return;
    el.dataset.cribSig = sig;
    el.replaceChildren(renderResult(out, { who: whoFor(ctx), position: ctx.position, gameId: ctx.config.game, links: ctx.state.status === "finished" }));
  },
};
