// The viewer's decisions, built only from ``legal`` (the engine's legal actions for the viewer):
// laying away to the crib, playing a card (with the points claimed, in manual counting), counting
// a hand or crib, agreeing or calling muggins, voting on a muggins, and pausing.
//
// ``renderControls(opts)`` returns the nodes for the action panel. opts: {view, legal, position,
// toAct, busy, v, act(type, params), who(seat)}. Picking cards happens in the hand (table.js).

import { h } from "../../dom.js";
import { cardEl, isCard, sortCards } from "./cards.js";

const MAX_CLAIM = 29; // no hand, crib or single peg is worth more (games/cribbage/engine/rules.py)

function dialog(type, v, title, ...body) {
  const id = `crib-dialog-${type}`;
  return h("section", { class: ["crib-dialog", `crib-dialog--${type}`], role: "group", "aria-labelledby": id,
    dataset: { testid: "cribbage-dialog", action: type, v } },
  h("h3", { id, class: "crib-dialog__title" }, title), body);
}

function actionButton(type, label, onclick, { busy, primary = true, extra = {} } = {}) {
  return h("button", { type: "button", class: ["btn", primary ? "btn--brass" : "btn--ghost"], disabled: busy, onclick,
    dataset: { ...extra, testid: "action-button", action: type, key: `act-${type}-${extra.key || ""}` } }, label);
}

/** A points picker: − and + around the number, and the number itself typed in. */
export function pointsStepper({ testid, label, initial = 0, max = MAX_CLAIM, busy }) {
  let value = initial;
  const input = h("input", { type: "number", class: "crib-stepper__value", min: "0", max: String(max), value: String(value),
    inputmode: "numeric", "aria-label": label, disabled: busy, dataset: { testid: `${testid}-value`, key: `${testid}-value` } });
  const minus = h("button", { type: "button", class: "crib-stepper__btn", "aria-label": `${label}: one less`, disabled: busy,
    dataset: { testid: `${testid}-minus`, key: `${testid}-minus` } }, "−");
  const plus = h("button", { type: "button", class: "crib-stepper__btn", "aria-label": `${label}: one more`, disabled: busy,
    dataset: { testid: `${testid}-plus`, key: `${testid}-plus` } }, "+");
  const set = (n) => {
    value = Math.max(0, Math.min(max, Number.isFinite(n) ? Math.round(n) : 0));
    input.value = String(value);
    minus.disabled = busy || value <= 0;
    plus.disabled = busy || value >= max;
  };
  minus.addEventListener("click", () => set(value - 1));
  plus.addEventListener("click", () => set(value + 1));
  input.addEventListener("change", () => set(Number(input.value)));
  set(value);
  const el = h("span", { class: "crib-stepper", dataset: { testid } }, h("span", { class: "crib-stepper__label" }, label), minus, input, plus);
  el.value = () => {
    set(Number(input.value));
    return value;
  };
  return el;
}

/**
 * "bob’s" from a player's name tag (text, or the tag with a bot marker after the name): the "’s"
 * joins the name's own text, so a line can never break between the name and its possessive, nor
 * leave it stranded after the bot marker ("house-bot-1 [bot] ’s").
 */
export function possessive(who) {
  if (typeof who === "string") return `${who}’s`;
  const name = who && who.firstChild;
  if (name && name.nodeType === Node.TEXT_NODE) name.textContent = `${name.textContent}’s`;
  else if (who) who.append("’s");
  return who;
}

/** A touch screen (no hover, a finger): its prompts say "tap", not "click". */
export function touchScreen() {
  return typeof matchMedia === "function" && matchMedia("(hover: none), (pointer: coarse)").matches;
}

// ------------------------------------------------------------------ the decisions

// Laying away and playing are done in the hand on the table (table.js); the panel says so.
function handDecision(type, entry, o) {
  const count = typeof o.view.count === "number" ? o.view.count : 0;
  if (type === "discard") {
    const n = entry.count ?? 1;
    const mine = o.view.dealer === o.position;
    return dialog("discard", o.v, n === 1 ? "Lay one card away to the crib" : `Lay ${n} cards away to the crib`,
      h("p", { class: "crib-dialog__lead" }, mine ? "The crib is yours this hand. " : ["The crib is ", possessive(o.who(o.view.dealer)), " this hand. "],
        "Pick the cards in your hand, then choose “Lay away”."));
  }
  const manual = entry.claim === true || o.view.rules?.counting === "manual";
  return dialog("play", o.v, `Your play — the count is ${count}`,
    h("p", { class: "crib-dialog__lead" }, manual
      ? "Pick a card in your hand, set the points it pegs (go and last card are added for you) and choose “Play”."
      : `${touchScreen() ? "Tap" : "Click"} a highlighted card in your hand to play it.`));
}

function countDialog(entry, o) {
  const showing = o.view.showing || {};
  const shown = Array.isArray(entry.cards) ? entry.cards : showing.cards || [];
  const starter = entry.starter ?? showing.starter ?? o.view.starter;
  const crib = (entry.what || showing.what) === "crib";
  const stepper = pointsStepper({ testid: "count", label: "Points", busy: o.busy });
  return dialog("count", o.v, crib ? "Count your crib" : "Count your hand",
    h("p", { class: "crib-dialog__lead" }, "Add up fifteens, pairs, runs, flush and his nobs, with the starter. The others may call muggins on a wrong count."),
    h("div", { class: "crib-dialog__cards" }, sortCards(shown.filter(isCard)).map((c) => cardEl(c, { size: "small" })),
      isCard(starter) ? [h("span", { class: "crib-show__plus" }, "+"), cardEl(starter, { size: "small", extraClass: "crib-card--starter" })] : null),
    h("div", { class: "crib-dialog__row" }, stepper,
      actionButton("count", "Count", () => o.act("count", [stepper.value()]), { busy: o.busy, extra: { key: "count" } })));
}

function claimText(entry, o) {
  const claim = o.view.claim || {};
  const seat = entry.claimer ?? claim.seat;
  const kind = entry.kind ?? claim.kind;
  const claimed = entry.claimed ?? claim.claimed;
  if (typeof seat !== "number") return "The table waits for everyone to agree.";
  const what = kind === "crib" ? "the crib" : kind === "hand" ? "the hand" : "that card";
  return [o.who(seat), ` claims ${claimed ?? "?"} for ${what}.`];
}

function agreeDialog(entries, o) {
  const agree = entries.find((e) => e.type === "agree");
  const muggins = entries.find((e) => e.type === "muggins");
  const claim = o.view.claim || {};
  const stepper = muggins ? pointsStepper({ testid: "muggins", label: "Correct count", initial: muggins.claimed ?? claim.claimed ?? 0, max: muggins.max ?? MAX_CLAIM, busy: o.busy }) : null;
  return dialog(agree ? "agree" : "muggins", o.v, agree ? "Agree with the count?" : "Call muggins?",
    h("p", { class: "crib-dialog__lead" }, claimText(agree || muggins, o)),
    claim.cards && claim.cards.length
      ? h("div", { class: "crib-dialog__cards" }, claim.cards.filter(isCard).map((c) => cardEl(c, { size: "small" })),
        isCard(claim.starter) && claim.kind !== "play" ? [h("span", { class: "crib-show__plus" }, "+"), cardEl(claim.starter, { size: "small", extraClass: "crib-card--starter" })] : null)
      : null,
    h("div", { class: "crib-dialog__row" },
      agree ? actionButton("agree", "Agree", () => o.act("agree", []), { busy: o.busy, extra: { key: "agree" } }) : null,
      muggins ? h("span", { class: "crib-dialog__or" }, agree ? "or" : "") : null,
      stepper,
      muggins ? actionButton("muggins", "Muggins!", () => o.act("muggins", [stepper.value()]), { busy: o.busy, primary: false, extra: { key: "muggins" } }) : null));
}

function voteDialog(entry, o) {
  const m = o.view.muggins || {};
  const claim = o.view.claim || {};
  const caller = entry.caller ?? m.caller;
  const claimer = entry.claimer ?? claim.seat;
  const mine = claimer === o.position;
  return dialog("vote", o.v, "Muggins: vote",
    h("p", { class: "crib-dialog__lead" },
      typeof caller === "number" ? o.who(caller) : "A player", " says ",
      mine ? "your " : typeof claimer === "number" ? [o.who(claimer), "’s "] : "the ",
      `claim of ${entry.claimed ?? claim.claimed ?? "?"} should be ${entry.stated ?? m.stated ?? "?"}. Is the caller right?`),
    h("div", { class: "crib-dialog__row" },
      actionButton("vote", "The caller is right", () => o.act("vote", [true]), { busy: o.busy, extra: { key: "vote-yes", vote: "true" } }),
      actionButton("vote", "The caller is wrong", () => o.act("vote", [false]), { busy: o.busy, primary: false, extra: { key: "vote-no", vote: "false" } })));
}

const PHASE_WAIT = {
  discard: "to lay away to the crib",
  play: "to play",
  show: "to count",
};

/**
 * What the seats to act are to do ("to vote on the muggins"), for the game page's one
 * "Waiting for …" line (cribbage.js, pendingDecision), or null.
 */
export function pendingPhrase(view) {
  if (!view || typeof view !== "object") return null;
  if (view.muggins) return "to vote on the muggins";
  if (view.claim && Array.isArray(view.claim.awaiting) && view.claim.awaiting.length) return "to agree with the count";
  return PHASE_WAIT[view.phase] || null;
}

/** The nodes for the action panel. */
export function renderControls(o) {
  const legal = o.legal || [];
  const type = (e) => e.type || e.action;
  const has = (t) => legal.find((e) => type(e) === t);
  const nodes = [];
  if (has("vote")) nodes.push(voteDialog(has("vote"), o));
  else if (has("agree") || has("muggins")) nodes.push(agreeDialog(legal.filter((e) => ["agree", "muggins"].includes(type(e))), o));
  if (has("discard")) nodes.push(handDecision("discard", has("discard"), o));
  if (has("play")) nodes.push(handDecision("play", has("play"), o));
  if (has("count")) nodes.push(countDialog(has("count"), o));
  if (has("deal")) {
    nodes.push(dialog("deal", o.v, "Deal the first hand",
      h("div", { class: "crib-dialog__row" }, actionButton("deal", "Deal", () => o.act("deal", []), { busy: o.busy, extra: { key: "deal" } }))));
  }
  // Nothing to decide: whom the table waits for, and for what, is the turn indicator's line
  // (game.js, panelText, with pendingDecision), so the panel says nothing of it.
  const pause = has("pause");
  const unpause = has("unpause");
  if (unpause) {
    nodes.unshift(h("p", { class: "crib-paused-note", dataset: { testid: "paused-note" } }, "The game is paused",
      typeof unpause.paused_by === "number" ? [" by ", unpause.paused_by === o.position ? "you" : o.who(unpause.paused_by)] : null, "."));
  }
  if (pause || unpause) {
    nodes.push(h("div", { class: "crib-tools" },
      unpause
        ? actionButton("unpause", "Resume the game", () => o.act("unpause", []), { busy: o.busy, extra: { key: "unpause" } })
        : actionButton("pause", "Pause", () => o.act("pause", []), { busy: o.busy, primary: false, extra: { key: "pause" } })));
  }
  return nodes;
}
