// The Acquire table for the game page (registered in registry.js). The drawing lives in
// ./acquire/: table.js (board, players, rack, stock market), dialogs.js (the viewer's decisions),
// log.js (history in words) and standings.js (the final result). The replay page uses the same
// modules. See docs/browser.md.

import generic from "./generic.js";
import { playerTag } from "./acquire/common.js";
import { WAITING, renderDecision } from "./acquire/dialogs.js";
import { describeMessage } from "./acquire/log.js";
import { renderStandings } from "./acquire/standings.js";
import { renderTable } from "./acquire/table.js";

function isBot(ctx, seat) {
  return Boolean(ctx.players.find((p) => p.position === seat)?.bot);
}

/** (seat) -> a fresh node naming the player, with the robot marker for house bots. */
function whoFor(ctx) {
  return (seat) => playerTag(ctx.playerName(seat), { bot: isBot(ctx, seat), me: seat === ctx.position });
}

function lastPlayedTile(history) {
  for (let i = history.length - 1; i >= 0; i -= 1) {
    if (history[i].type === "PlayedTile") return history[i].params[0];
  }
  return null;
}

function finalScores(ctx) {
  const result = ctx.state.result;
  if (!result || ctx.state.status === "active" || !Array.isArray(result.players)) return null;
  const scores = [];
  for (const p of result.players) scores[p.seat] = p.score;
  return scores;
}

// The game page's decision panel (buying shares, mergers) is docked in the table, under the rack
// and beside the players: part of the layout rather than an overlay, so it never covers the board
// or the rack it is about, on a phone as on a desktop. ``home`` marks where the page put it, so a
// table drawn without a view (before the first Snapshot) gives it back.
let home = null;

function dockActions(dock) {
  const panel = document.querySelector(".action-panel");
  if (!panel) return;  // the replay page has none
  if (home === null) {
    home = document.createComment("the action panel is docked in the Acquire table");
    panel.before(home);
  }
  // Moving a node blurs what is focused inside it: give the focus back.
  const focused = panel.contains(document.activeElement) ? document.activeElement : null;
  if (dock) dock.append(panel);
  else home.after(panel);
  panel.classList.toggle("action-panel--docked", Boolean(dock));
  if (focused && focused.isConnected) focused.focus({ preventScroll: true });
}

function legalTiles(ctx) {
  const entry = ctx.state.legal.find((e) => e.type === "PlayTile");
  return new Set(entry && ctx.state.status === "active" ? entry.tiles : []);
}

export default {
  name: "acquire",
  // The rack's clickable tiles follow the legal moves, so the board is redrawn when they change.
  boardShowsActions: true,

  formatMessage(message, ctx) {
    return describeMessage(message, whoFor(ctx));
  },

  renderBoard(el, ctx) {
    const view = ctx.state.view;
    if (!view || !Array.isArray(view.board)) {
      dockActions(null);
      generic.renderBoard(el, ctx);
      return;
    }
    const table = renderTable(view, {
      who: whoFor(ctx),
      position: ctx.position,
      toAct: ctx.state.status === "active" ? ctx.state.toAct : [],
      legalTiles: legalTiles(ctx),
      onPlay: ctx.position === null || ctx.position === undefined ? null : (tile) => ctx.act("PlayTile", [tile]),
      busy: ctx.busy,
      clocks: ctx.state.status === "active" ? ctx.state.clocks || null : null,
      clocksAt: ctx.state.clocksAt || Date.now(),
      racks: Array.isArray(view.racks),
      lastTile: lastPlayedTile(ctx.state.history),
      final: finalScores(ctx),
    });
    const dock = table.querySelector(".acq-dock");
    dockActions(dock);
    el.replaceChildren(table);
  },

  /** What the seat deciding now is to do ("to buy shares"), for the page's "Waiting for …" line. */
  pendingDecision(ctx) {
    const pending = ctx.state.view?.pending;
    if (ctx.state.status !== "active" || !pending || pending.seat === ctx.position) return null;
    return WAITING[pending.type] || null;
  },

  renderActions(el, ctx) {
    const { state } = ctx;
    if (ctx.position === null || ctx.position === undefined || state.status !== "active" || !state.view) {
      generic.renderActions(el, ctx);
      return;
    }
    const nodes = renderDecision({
      view: state.view, legal: state.legal, position: ctx.position, toAct: state.toAct, busy: ctx.busy, v: state.v,
      act: ctx.act, who: whoFor(ctx),
    });
    if (nodes === null) generic.renderActions(el, ctx);
    else el.replaceChildren(...nodes);
  },

  renderResult(el, ctx) {
    const result = ctx.state.result;
    if (!result || !Array.isArray(result.players)) {
      generic.renderResult(el, ctx);
      return;
    }
    const ended = ctx.state.history.find((m) => m.type === "EndedGame");
    // Redrawn only when something in it changed, so a focused link keeps its focus.
    const sig = JSON.stringify([result, ctx.state.status, ended?.player ?? null, ctx.players]);
    if (el.dataset.acqSig === sig) return;
    el.dataset.acqSig = sig;
    const who = whoFor(ctx);
    el.replaceChildren(renderStandings(result, {
      who, gameId: ctx.config.game, links: ctx.state.status === "finished",
      endedBy: ended ? who(ended.player) : null,
    }));
  },
};

