// The viewer's decisions, one dialog per pending decision, offering only what ``legal`` allows:
// play a tile, found a chain, pick a merger's survivor, the order defunct chains are disposed of,
// trade / sell / keep defunct shares, and buy up to three shares (and perhaps end the game).
//
// ``renderDecision(opts)`` returns the nodes for the action panel. opts: {view, legal, position,
// toAct, busy, v, act(type, params), who(position)}.

import { h } from "../../dom.js";
import { chainChip, chainName, describeStatus, money, neighbours, sharePrice, tileName, touchScreen } from "./common.js";

function dialog(type, v, title, ...body) {
  const id = `acq-dialog-${type}`;
  return h("section", { class: ["acq-dialog", `acq-dialog--${type}`], role: "group", "aria-labelledby": id,
    dataset: { testid: "acquire-dialog", action: type, v } },
  h("h3", { id, class: "acq-dialog__title" }, title), body);
}

// Buttons that send an action carry the page-wide data-testid="action-button" (and data-action).
function choiceButton(type, chain, label, onclick, busy, extra = null) {
  return h("button", { type: "button", class: ["acq-choice", `acq-c${chain}`], disabled: busy, onclick,
    dataset: { testid: "action-button", action: type, chain, key: `choice-${chain}` } },
  h("span", { class: "acq-choice__name" }, label), extra ? h("span", { class: "acq-choice__extra" }, extra) : null);
}

/** A number with − and + buttons, kept within [min, max] by the caller's ``limits``. */
function stepper({ label, testid, step = 1, value, limits, onchange, busy, describe }) {
  const out = h("output", { class: "acq-stepper__value", dataset: { testid: `${testid}-value` } }, String(value()));
  const note = h("span", { class: "acq-stepper__note" });
  const minus = h("button", { type: "button", class: "acq-stepper__btn", "aria-label": `${label}: less`, dataset: { testid: `${testid}-minus`, key: `${testid}-minus` },
    onclick: () => onchange(value() - step) }, "−");
  const plus = h("button", { type: "button", class: "acq-stepper__btn", "aria-label": `${label}: more`, dataset: { testid: `${testid}-plus`, key: `${testid}-plus` },
    onclick: () => onchange(value() + step) }, "+");
  const el = h("div", { class: "acq-stepper", dataset: { testid } },
    h("span", { class: "acq-stepper__label" }, label),
    h("span", { class: "acq-stepper__controls" }, minus, out, plus),
    note);
  el.refresh = () => {
    const [min, max] = limits();
    out.textContent = String(value());
    minus.disabled = busy || value() - step < min;
    plus.disabled = busy || value() + step > max;
    note.replaceChildren(...[].concat(describe ? describe() : []));
  };
  el.refresh();
  return el;
}

// ------------------------------------------------------------------ the decisions

function playTile(entry, o) {
  const statuses = entry.status || {};
  const rack = (o.view.rack || []).filter((r) => entry.tiles.includes(r.tile));
  const tiles = rack.length ? rack.map((r) => r.tile) : entry.tiles;
  return dialog("PlayTile", o.v, "Play a tile",
    h("p", { class: "acq-dialog__lead" }, `${touchScreen() ? "Tap" : "Click"} a highlighted tile in your rack or on the board, or one of these:`),
    h("div", { class: "acq-dialog__buttons" }, tiles.map((tile) => {
      const status = statuses[tile] || statuses[String(tile)] || "";
      return h("button", { type: "button", class: ["btn", "btn--brass", "acq-play", `acq-play--${status}`], disabled: o.busy,
        dataset: { testid: "action-button", action: "PlayTile", tile, key: `play-${tile}` }, onclick: () => o.act("PlayTile", [tile]) },
      h("strong", {}, tileName(tile)), h("span", { class: "acq-play__what" }, describeStatus(status, o.view.board, tile)));
    })));
}

function newChain(entry, o) {
  const pending = o.view.pending || {};
  const tile = typeof pending.tile === "number" ? pending.tile : null;
  // The new chain's size: the tile and the lone tiles joined to it (flood fill over lone cells).
  let size = 2;
  if (tile !== null) {
    const seen = new Set([tile]);
    const stack = [tile];
    while (stack.length) {
      const t = stack.pop();
      for (const n of neighbours(t)) {
        if (!seen.has(n) && o.view.board[n] === "lone") {
          seen.add(n);
          stack.push(n);
        }
      }
    }
    size = seen.size;
  }
  return dialog("SelectNewChain", o.v, "Found a new hotel chain",
    h("p", { class: "acq-dialog__lead" }, tile !== null ? `Your tile ${tileName(tile)} founds a chain of ${size} hotels. ` : "",
      "Choose which chain; you get one free share."),
    h("div", { class: "acq-dialog__choices" }, entry.chains.map((chain) =>
      choiceButton("SelectNewChain", chain, chainName(chain), () => o.act("SelectNewChain", [chain]), o.busy, `${money(sharePrice(chain, size))} a share`))));
}

function survivor(entry, o) {
  const pending = o.view.pending || {};
  const merging = pending.merging || entry.chains;
  const size = (chain) => o.view.chains[chain]?.size ?? 0;
  return dialog("SelectMergerSurvivor", o.v, "Choose the surviving chain",
    h("p", { class: "acq-dialog__lead" },
      typeof pending.tile === "number" ? `${tileName(pending.tile)} merges ` : "Merging: ",
      merging.map((c, i) => [i ? (i === merging.length - 1 ? " and " : ", ") : null, chainChip(c), ` (${size(c)})`]),
      ". The largest are tied: which one survives?"),
    h("div", { class: "acq-dialog__choices" }, entry.chains.map((chain) =>
      choiceButton("SelectMergerSurvivor", chain, chainName(chain), () => o.act("SelectMergerSurvivor", [chain]), o.busy, `${size(chain)} hotels`))));
}

function disposalOrder(entry, o) {
  const pending = o.view.pending || {};
  return dialog("SelectChainToDisposeOfNext", o.v, "Which defunct chain goes first?",
    h("p", { class: "acq-dialog__lead" }, "These defunct chains are the same size",
      typeof pending.survivor === "number" ? [" (merging into ", chainChip(pending.survivor), ")"] : "",
      ". Choose the one whose shares are paid out and disposed of next."),
    h("div", { class: "acq-dialog__choices" }, entry.chains.map((chain) =>
      choiceButton("SelectChainToDisposeOfNext", chain, chainName(chain), () => o.act("SelectChainToDisposeOfNext", [chain]), o.busy,
        `${o.view.chains[chain]?.size ?? 0} hotels`))));
}

function dispose(entry, o) {
  const held = entry.shares;
  const price = entry.price;
  const defunct = entry.chain;
  const surviving = entry.survivor;
  const maxTrade = entry.max_trade;
  const pick = { trade: 0, sell: 0 };
  const steppers = [];
  const refresh = () => {
    for (const s of steppers) s.refresh();
    keep.textContent = String(held - pick.trade - pick.sell);
    submit.replaceChildren(summary());
  };
  const summary = () => {
    const parts = [];
    if (pick.sell) parts.push(`sell ${pick.sell}`);
    if (pick.trade) parts.push(`trade ${pick.trade}`);
    const kept = held - pick.trade - pick.sell;
    if (kept) parts.push(`keep ${kept}`);
    const text = parts.join(", ");
    return text.charAt(0).toUpperCase() + text.slice(1);
  };
  const trade = stepper({ label: "Trade 2 for 1", testid: "trade", step: 2, value: () => pick.trade, busy: o.busy,
    limits: () => [0, Math.min(maxTrade, held - pick.sell - ((held - pick.sell) % 2))],
    onchange: (value) => { pick.trade = value; refresh(); },
    describe: () => (pick.trade ? [`→ ${pick.trade / 2} `, chainChip(surviving)] : [`max ${maxTrade}`]) });
  const sell = stepper({ label: "Sell", testid: "sell", value: () => pick.sell, busy: o.busy,
    limits: () => [0, held - pick.trade],
    onchange: (value) => { pick.sell = value; refresh(); },
    describe: () => [`× ${money(price)} = ${money(pick.sell * price)}`] });
  steppers.push(trade, sell);
  const keep = h("output", { class: "acq-stepper__value", dataset: { testid: "keep-value" } }, String(held));
  const submit = h("button", { type: "submit", class: "btn btn--brass", disabled: o.busy, dataset: { testid: "action-button", action: "DisposeOfShares", key: "dispose-submit" } }, summary());
  const quick = (label, testid, t, s) => h("button", { type: "button", class: "btn btn--ghost btn--small", disabled: o.busy,
    dataset: { testid, key: testid }, onclick: () => { pick.trade = t; pick.sell = s; refresh(); } }, label);
  const form = h("form", { class: "acq-dispose", onsubmit: (event) => { event.preventDefault(); o.act("DisposeOfShares", [pick.trade, pick.sell]); } },
    h("div", { class: "acq-dispose__rows" }, trade, sell,
      h("div", { class: "acq-stepper" }, h("span", { class: "acq-stepper__label" }, "Keep"),
        h("span", { class: "acq-stepper__controls" }, keep),
        h("span", { class: "acq-stepper__note" }, "worth something only if ", chainChip(defunct), " is founded again"))),
    h("div", { class: "acq-dialog__buttons" },
      quick("Keep all", "keep-all", 0, 0),
      quick("Sell all", "sell-all", 0, held),
      maxTrade ? quick("Trade most, sell rest", "trade-max", maxTrade, held - maxTrade) : null,
      submit));
  return dialog("DisposeOfShares", o.v, "Dispose of defunct shares",
    h("p", { class: "acq-dialog__lead" }, chainChip(defunct), " has merged into ", chainChip(surviving),
      `. You hold ${held} ${chainName(defunct)} share${held === 1 ? "" : "s"}, each selling for ${money(price)}.`),
    form);
}

function purchase(entry, o) {
  const cash = entry.cash;
  const most = entry.max;
  const affordable = entry.affordable || {};
  const counts = new Map(entry.chains.map((c) => [c.chain, 0]));
  const endBox = entry.can_end ? h("input", { type: "checkbox", id: "acq-end-game", dataset: { testid: "end-game", key: "end-game" }, disabled: o.busy }) : null;
  const total = () => [...counts.values()].reduce((a, b) => a + b, 0);
  const cost = () => entry.chains.reduce((sum, c) => sum + counts.get(c.chain) * c.price, 0);
  const steppers = [];
  const costEl = h("strong", { dataset: { testid: "purchase-cost" } });
  const leftEl = h("strong", { dataset: { testid: "purchase-cash-left" } });
  const submit = h("button", { type: "submit", class: "btn btn--brass", disabled: o.busy, dataset: { testid: "action-button", action: "PurchaseShares", key: "purchase-submit" } });
  const refresh = () => {
    for (const s of steppers) s.refresh();
    costEl.textContent = money(cost());
    leftEl.textContent = money(cash - cost());
    const n = total();
    const ending = endBox && endBox.checked;
    submit.textContent = `${n ? `Buy ${n} share${n === 1 ? "" : "s"} for ${money(cost())}` : "Buy nothing"}${ending ? " and end the game" : ""}`;
  };
  const rows = entry.chains.map((c) => {
    const canBuy = Number(affordable[c.chain] ?? affordable[String(c.chain)] ?? 0) > 0;
    if (!canBuy) {
      return h("div", { class: "acq-buy acq-buy--off", dataset: { testid: "buy-row", chain: c.chain } },
        chainChip(c.chain), h("span", { class: "acq-buy__price" }, money(c.price)),
        h("span", { class: "acq-buy__why" }, c.available ? "can’t afford" : "none left"));
    }
    const s = stepper({ label: chainName(c.chain), testid: `buy-${c.chain}`, value: () => counts.get(c.chain), busy: o.busy,
      limits: () => {
        const room = Math.min(most - total() + counts.get(c.chain), c.available);
        const money_ = Math.floor((cash - cost() + counts.get(c.chain) * c.price) / c.price);
        return [0, Math.min(room, money_)];
      },
      onchange: (value) => { counts.set(c.chain, value); refresh(); },
      describe: () => [`${money(c.price)} each · ${c.available} left`] });
    s.classList.add("acq-buy", `acq-buy--${c.chain}`);
    s.dataset.chain = c.chain;
    s.querySelector(".acq-stepper__label").replaceChildren(chainChip(c.chain));
    steppers.push(s);
    return s;
  });
  if (endBox) endBox.addEventListener("change", refresh);
  const form = h("form", { class: "acq-purchase", onsubmit: (event) => {
    event.preventDefault();
    const wanted = [];
    for (const [chain, n] of counts) for (let i = 0; i < n; i += 1) wanted.push(chain);
    o.act("PurchaseShares", [wanted, endBox && endBox.checked ? 1 : 0]);
  } },
  rows.length ? h("div", { class: "acq-purchase__rows" }, rows) : h("p", {}, "No chain on the board has shares you can buy."),
  endBox ? h("label", { class: "acq-end", for: "acq-end-game" }, endBox,
    h("span", {}, "End the game after this turn ", h("span", { class: "muted" }, "(a chain has 41+ hotels, or every chain is safe)"))) : null,
  h("div", { class: "acq-dialog__footer" },
    h("p", { class: "acq-purchase__sum" }, "Cash ", h("strong", {}, money(cash)), " · cost ", costEl, " · left ", leftEl,
      h("span", { class: "acq-purchase__max" }, ` · at most ${most} shares a turn`)),
    h("div", { class: "acq-dialog__buttons" }, submit)));
  refresh();
  return dialog("PurchaseShares", o.v, "Buy shares", form);
}

/** What the game waits for a seat to do, by the pending decision: the game page's turn indicator
 * reads "Waiting for bob to buy shares" (acquire.js, pendingDecision). */
export const WAITING = {
  StartGame: "to start the game",
  PlayTile: "to play a tile",
  SelectNewChain: "to choose a new chain",
  SelectMergerSurvivor: "to choose the merger’s survivor",
  SelectChainToDisposeOfNext: "to choose which defunct chain goes next",
  DisposeOfShares: "to dispose of defunct shares",
  PurchaseShares: "to buy shares",
};

export function renderDecision(o) {
  const entry = o.legal[0];
  if (!entry) {
    // Whose turn it is and what they are deciding is the turn indicator's to say (game.js,
    // panelText, with pendingDecision): here only what the panel alone knows.
    return o.busy ? [h("p", { class: "muted" }, "Sending…")] : [];
  }
  switch (entry.type) {
    case "StartGame":
      return [dialog("StartGame", o.v, "Start the game",
        h("button", { type: "button", class: "btn btn--brass", disabled: o.busy, dataset: { testid: "action-button", action: "StartGame", key: "start-game" },
          onclick: () => o.act("StartGame", []) }, "Start"))];
    case "PlayTile":
      return [playTile(entry, o)];
    case "SelectNewChain":
      return [newChain(entry, o)];
    case "SelectMergerSurvivor":
      return [survivor(entry, o)];
    case "SelectChainToDisposeOfNext":
      return [disposalOrder(entry, o)];
    case "DisposeOfShares":
      return [dispose(entry, o)];
    case "PurchaseShares":
      return [purchase(entry, o)];
    default:
      return null; // unknown: let the generic cards handle it
  }
}
