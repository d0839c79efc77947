// The generic renderer: works for any game type from the engine's own data, with no knowledge
// of its rules. Game modules override any of these hooks (see registry.js and docs/browser.md).
//
// Hooks receive ``ctx``:
//   ctx.state       the page state {status, v, history, position, view, toAct, legal, result, players}
//   ctx.position    the viewer's seat, or null for a spectator
//   ctx.playerName(position)  the username at a seat
//   ctx.act(type, params)     send DoGameAction for the viewer (answers the current v)
//   ctx.busy        true while an action is waiting for the server

import { h } from "../dom.js";

function compact(value) {
  return JSON.stringify(value);
}

function isScalar(value) {
  return value === null || ["string", "number", "boolean"].includes(typeof value);
}

/** The field of a legal-action entry whose values are the choices, e.g. {"type": "PlayTile", "tiles": [3, 17]}. */
function choiceField(entry) {
  for (const [key, value] of Object.entries(entry)) {
    if (key === "type" || key === "params") continue;
    if (Array.isArray(value) && value.length > 0 && value.every(isScalar)) return key;
  }
  return null;
}

function actionCard(entry, ctx, index) {
  const type = entry.type || entry.action || "Action";
  const details = Object.entries(entry).filter(([key]) => !["type", "action", "params"].includes(key));
  const buttons = [];
  const choice = Array.isArray(entry.params) ? null : choiceField(entry);
  if (Array.isArray(entry.params)) {
    buttons.push(h("button", { type: "button", class: "btn btn--brass", disabled: ctx.busy,
      dataset: { key: `act-${index}`, testid: "action-button", action: type },
      onclick: () => ctx.act(type, entry.params) }, type));
  } else if (choice) {
    for (const value of entry[choice]) {
      buttons.push(h("button", { type: "button", class: "btn btn--brass btn--small", disabled: ctx.busy,
        dataset: { key: `act-${index}-${value}`, testid: "action-button", action: type },
        onclick: () => ctx.act(type, [value]) }, `${type} ${value}`));
    }
  } else {
    buttons.push(h("button", { type: "button", class: "btn btn--brass", disabled: ctx.busy,
      dataset: { key: `act-${index}`, testid: "action-button", action: type },
      onclick: () => ctx.act(type, []) }, type));
  }

  // Actions with structured parameters (a purchase, a disposal) have no obvious buttons
  // generically, so the raw parameter list can be typed in.
  const inputId = `params-${index}`;
  const input = h("input", { id: inputId, class: "mono", type: "text", value: "[]", spellcheck: "false",
    dataset: { key: `params-${index}` } });
  const custom = h("form", { class: "action-custom__form",
    onsubmit: (event) => {
      event.preventDefault();
      let params;
      try {
        params = JSON.parse(input.value);
      } catch {
        input.setCustomValidity("Parameters must be a JSON list, e.g. [3] or [[0, 1], 0]");
        input.reportValidity();
        return;
      }
      if (!Array.isArray(params)) {
        input.setCustomValidity("Parameters must be a JSON list");
        input.reportValidity();
        return;
      }
      input.setCustomValidity("");
      ctx.act(type, params);
    } },
  h("label", { for: inputId }, "Parameters (JSON list)"), input,
  h("button", { type: "submit", class: "btn btn--ghost btn--small", disabled: ctx.busy }, "Send"));

  return h("fieldset", { class: "action-card", dataset: { testid: "legal-action", action: type } },
    h("legend", {}, type),
    details.length
      ? h("dl", { class: "action-card__details" },
        details.map(([key, value]) => [h("dt", {}, key), h("dd", { class: "mono" }, isScalar(value) ? String(value) : compact(value))]))
      : null,
    h("div", { class: "action-card__buttons" }, buttons),
    h("details", { class: "action-custom" }, h("summary", {}, "Other parameters"), custom));
}

const generic = {
  name: "generic",

  // Fetch a fresh Snapshot after every GameMessages: history alone does not say who acts next
  // or what is legal, and the generic page cannot work that out from rules it does not know.
  resyncAfterMessages: true,

  /** One history message as a log line: "type player params". */
  formatMessage(message, ctx) {
    const parts = [message.type];
    if (message.player !== undefined && message.player !== null) parts.push(ctx.playerName(message.player));
    if (message.params && message.params.length) parts.push(compact(message.params));
    return parts.join(" ");
  },

  /** The game's own table. Generically: the engine's view, readable but raw. */
  renderBoard(el, ctx) {
    const view = ctx.state.view;
    if (view === null || view === undefined) {
      let note = "The game state appears here once the game has started.";
      if (ctx.config.user === null || ctx.config.user === undefined) note = "Log in to watch the game live.";
      else if (ctx.state.status === "active" && ctx.state.v === null) note = "Loading the table…";
      el.replaceChildren(h("p", { class: "board__note" }, note));
      return;
    }
    el.replaceChildren(
      h("p", { class: "muted small" }, "This game does not have its own table yet; here is the game state as the server describes it to you."),
      h("details", { class: "raw-state" }, h("summary", {}, "Game state"),
        h("pre", { class: "mono", dataset: { testid: "game-view" } }, JSON.stringify(view, null, 2))));
  },

  /**
   * What the game waits for the seats in to_act to do, as a phrase ("to buy shares"), or null.
   * The game page adds it to its one "Waiting for …" line (game.js, panelText); a module that
   * knows should say it here rather than print a waiting line of its own in the action panel.
   */
  pendingDecision() {
    return null;
  },

  /**
   * Controls for the viewer's legal actions. Only the controls: the panel's heading and turn
   * indicator (game.js) already say whether it is the viewer's turn, whether the game is over and
   * whether the viewer is watching, so none of that is repeated here.
   */
  renderActions(el, ctx) {
    const { state } = ctx;
    if (ctx.position === null || ctx.position === undefined || state.status !== "active") {
      el.replaceChildren();
      return;
    }
    if (!state.legal.length) {
      el.replaceChildren(h("p", { class: "muted" }, "Your options appear here when the game comes to you."));
      return;
    }
    el.replaceChildren(...state.legal.map((entry, i) => actionCard(entry, ctx, i)));
  },

  /** The final result. Generically: ranks and scores if the engine reports them per seat. */
  renderResult(el, ctx) {
    const result = ctx.state.result;
    if (!result) {
      el.replaceChildren();
      return;
    }
    const rows = Array.isArray(result.players) ? [...result.players] : null;
    if (rows && rows.every((r) => typeof r.seat === "number")) {
      rows.sort((a, b) => (a.rank ?? 0) - (b.rank ?? 0));
      el.replaceChildren(h("table", { class: "result-table", dataset: { testid: "game-result" } },
        h("caption", {}, "Final standings"),
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Rank"), h("th", { scope: "col" }, "Player"), h("th", { scope: "col" }, "Score"))),
        h("tbody", {}, rows.map((r) => h("tr", {},
          h("td", {}, r.rank ?? ""), h("th", { scope: "row" }, ctx.playerName(r.seat)), h("td", {}, r.score ?? ""))))));
      return;
    }
    el.replaceChildren(h("pre", { class: "mono", dataset: { testid: "game-result" } }, JSON.stringify(result, null, 2)));
  },
};

export default generic;
