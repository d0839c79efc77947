// The viewer's decisions, built only from ``legal`` (through decisions.js): the bar laid over the
// table just above the hand (Riichi, Tsumo/Ron, Chi, Pon, Kan, Nine terminals, Tenpai/No-tenpai,
// Skip, and the choice among several melds), the learner's help under the hand (waits with how
// many are left, furiten, why a win is not offered), and the action panel (toggles, keys).
// Discarding itself is done by clicking a tile of the hand (table.js).

import { h } from "../../dom.js";
import { TOGGLES } from "./decisions.js";
import { ACTIONS } from "./names.js";
import { parseMeld, tileChip, tileEl } from "./tiles.js";

/** The keys, for the buttons' hints and the panel's list. */
export const KEYS = { lizhi: "r", hule: "t", chi: "c", pon: "p", kan: "k", pingju: "n", daopai: "d", pass: " ", cancel: "Escape" };
const KEY_LABEL = { " ": "Space", Escape: "Esc" };

function button(kind, words, onclick, { busy, primary = true, extra = {}, shortcut = null, testid = "action-button" } = {}) {
  const key = shortcut ?? KEYS[extra.action || kind] ?? null;
  return h("button", {
    type: "button", class: ["btn", primary ? "btn--brass" : "btn--ghost", "rii-btn", `rii-btn--${kind}`], disabled: busy, onclick,
    title: key ? `${words[1]} (${KEY_LABEL[key] || key.toUpperCase()})` : words[1],
    dataset: { testid, action: extra.action || kind, kind, key: `bar-${kind}-${extra.key || ""}`, shortcut: key || null, ...extra.data },
  },
  h("span", { class: "rii-btn__en" }, words[1]),
  h("span", { class: "rii-btn__ja", lang: "ja", "aria-hidden": "true" }, words[0]),
  key ? h("kbd", { class: "rii-btn__key", "aria-hidden": "true" }, KEY_LABEL[key] || key.toUpperCase()) : null);
}

/** One meld offered, drawn as tiles, as a choice button. */
function optionButton(type, param, index, o) {
  const meld = parseMeld(param);
  return h("button", {
    type: "button", class: "rii-option", disabled: o.busy, onclick: () => o.send(type, [param]),
    title: `Option ${index + 1}`, "aria-label": `Option ${index + 1}: ${param}`,
    dataset: { testid: "call-option", action: type, params: param, key: `option-${param}` },
  },
  h("kbd", { class: "rii-btn__key", "aria-hidden": "true" }, String(index + 1)),
  h("span", { class: "rii-option__tiles" }, meld.tiles.map((t) => t.added
    ? [tileEl(t.code, { size: "option" }), tileEl(t.added.code, { size: "option" })]
    : tileEl(t.code, { size: "option", sideways: Boolean(t.called) }))));
}

/** What the bar says above its buttons. */
function prompt(o, opts) {
  const view = o.view;
  if (o.mode === "lizhi") return "Riichi: pick the tile to discard (the glowing ones).";
  if (o.mode) return `${ACTIONS[o.mode][1]} with which tiles?`;
  if (opts.ownTurn) {
    const what = [opts.hule && "win", opts.lizhi.length && "declare riichi", opts.gang.length && "kan", opts.pingju && "call a draw"].filter(Boolean);
    return what.length ? `Your turn: discard, or ${what.join(" / ")}.` : "Your turn: discard a tile.";
  }
  const who = typeof view.turn === "number" ? o.who(view.turn) : "The last player";
  const names = [opts.hule && (view.status === "gang" ? "Ron (robbing the kan)" : "Ron"), opts.chi.length && "Chi", opts.pon.length && "Pon",
    opts.kan.length && "Kan"].filter(Boolean);
  if (view.status === "gang") return [who, " adds a kan", names.length ? `: ${names.join(" or ")}?` : "."];
  const tile = view.last_dapai ? tileChip(view.last_dapai) : "a tile";
  if (!names.length && opts.daopai) return ["The wall is empty: show your tenpai hand?"];
  return [who, " discards ", tile, names.length ? ` — ${names.join(" or ")}?` : "."];
}

/**
 * The decision bar, or null when there is nothing to decide. o: {opts (decisions.options), view,
 * v, busy, mode, setMode(mode), send(type, params), who(seat)}.
 */
export function renderBar(o) {
  const opts = o.opts;
  if (!opts.any) return null;
  const busy = o.busy;
  const buttons = [];
  const choose = (kind, type, params) => {
    if (params.length === 1) o.send(type, [params[0]]);
    else o.setMode(kind);
  };
  if (o.mode && o.mode !== "lizhi") {
    const params = o.mode === "kan" && opts.ownTurn ? opts.gang : opts[o.mode];
    const type = o.mode === "kan" && opts.ownTurn ? "gang" : "fulou";
    buttons.push(h("span", { class: "rii-options" }, params.map((p, i) => optionButton(type, p, i, { ...o, busy }))));
    buttons.push(button("cancel", ACTIONS.cancel, () => o.setMode(null), { busy, primary: false }));
  } else if (o.mode === "lizhi") {
    buttons.push(button("cancel", ACTIONS.cancel, () => o.setMode(null), { busy, primary: false }));
  } else if (opts.ownTurn) {
    if (opts.hule) buttons.push(button("hule", ACTIONS.tsumo, () => o.send("hule", []), { busy }));
    if (opts.lizhi.length) buttons.push(button("lizhi", ACTIONS.lizhi, () => o.setMode("lizhi"), { busy }));
    if (opts.gang.length) buttons.push(button("kan", ACTIONS.kan, () => choose("kan", "gang", opts.gang), { busy, extra: { action: "gang" }, shortcut: KEYS.kan }));
    if (opts.pingju) buttons.push(button("pingju", ACTIONS.pingju, () => o.send("pingju", []), { busy, primary: false }));
  } else {
    if (opts.hule) buttons.push(button("hule", ACTIONS.ron, () => o.send("hule", []), { busy }));
    for (const kind of ["chi", "pon", "kan"]) {
      if (opts[kind].length) buttons.push(button(kind, ACTIONS[kind], () => choose(kind, "fulou", opts[kind]), { busy, extra: { action: "fulou", data: { call: kind } }, shortcut: KEYS[kind] }));
    }
    if (opts.daopai) buttons.push(button("daopai", ACTIONS.daopai, () => o.send("daopai", []), { busy }));
    if (opts.pass) buttons.push(button("pass", opts.daopai && !opts.calls ? ACTIONS.notenpai : ACTIONS.skip, () => o.send("pass", []), { busy, primary: false }));
  }
  // On one's own turn with nothing but discards there is no bar: the hand is the decision.
  if (!buttons.length) return null;
  return h("div", { class: ["rii-bar", opts.calls && !o.mode && "rii-bar--call"], role: "group", "aria-label": "Your decision",
    dataset: { testid: "riichi-bar", v: o.v, mode: o.mode || "", own: opts.ownTurn ? "true" : "false" } },
  h("p", { class: "rii-bar__prompt", dataset: { testid: "call-prompt" } }, prompt(o, opts)),
  h("div", { class: "rii-bar__buttons" }, buttons));
}

/** The learner's help, for the player only: shanten, waits and how many of each are unseen, furiten. */
export function renderHelp(me, opts) {
  if (!me) return null;
  const parts = [];
  const tingpai = Array.isArray(me.tingpai) ? me.tingpai : Array.isArray(me.waits) ? me.waits.map((p) => ({ p, left: null })) : null;
  if (tingpai && tingpai.length) {
    const total = tingpai.reduce((n, w) => n + (w.left ?? 0), 0);
    parts.push(h("span", { class: "rii-help__waits", dataset: { testid: "waits", total } },
      h("span", { class: "rii-help__label" }, "Waits ", h("span", { lang: "ja", "aria-hidden": "true" }, "待ち")),
      tingpai.map((w) => h("span", { class: ["rii-wait", w.left === 0 && "rii-wait--dead"], dataset: { testid: "wait", tile: w.p, left: w.left ?? "" },
        title: w.left === null ? null : `${w.left} left unseen` },
      tileEl(w.p, { size: "mini" }), w.left === null ? null : h("span", { class: "rii-wait__left" }, `×${w.left}`)))));
  } else if (typeof me.xiangting === "number" && me.xiangting > 0) {
    parts.push(h("span", { class: "rii-help__shanten", dataset: { testid: "shanten", n: me.xiangting } },
      `${me.xiangting} ${me.xiangting === 1 ? "tile" : "tiles"} from tenpai (${me.xiangting}-shanten)`));
  } else if (me.xiangting === 0) {
    parts.push(h("span", { class: "rii-help__shanten", dataset: { testid: "shanten", n: 0 } }, "Tenpai after this discard"));
  }
  if (me.furiten) {
    parts.push(h("span", { class: "rii-badge rii-badge--furiten", dataset: { testid: "furiten" },
      title: "A winning tile is in your own discards, or passed since your last discard (or your riichi): you cannot win by ron, only by tsumo." },
    "Furiten: no ron ", h("span", { lang: "ja", "aria-hidden": "true" }, "振聴")));
  }
  for (const r of opts?.refused || []) {
    if (r.type !== "hule") continue;
    parts.push(h("span", { class: "rii-help__refused", dataset: { testid: "win-refused" } }, `No win: ${r.reason}`));
  }
  return parts.length ? h("span", { class: "rii-help", dataset: { testid: "help" } }, parts) : null;
}

/**
 * The action panel's nodes: a note, the toggles, the rules in force (a node kept by the caller, so
 * an open "All rules" stays open across redraws) and the keys. o: {toggles, onToggle(key, on),
 * note, rules}
 */
export function renderPanel(o) {
  return [
    o.note ? h("p", { class: "rii-panel__note", dataset: { testid: "riichi-note" } }, o.note) : null,
    h("fieldset", { class: "rii-toggles", dataset: { testid: "toggles" } },
      h("legend", {}, "Play for me"),
      TOGGLES.map((t) => h("label", { class: "rii-toggle", title: t.help },
        h("input", { type: "checkbox", checked: Boolean(o.toggles[t.key]), dataset: { testid: `toggle-${t.key}`, key: `toggle-${t.key}` },
          onchange: (event) => o.onToggle(t.key, event.target.checked) }),
        h("span", {}, t.label[1]), " ", h("span", { lang: "ja", class: "rii-toggle__ja", "aria-hidden": "true" }, t.label[0]),
        h("span", { class: "rii-toggle__help" }, t.help)))),
    o.rules || null,
    h("details", { class: "rii-keys" },
      h("summary", {}, "Keyboard"),
      h("dl", {},
        h("dt", {}, "1–9, 0, -, ="), h("dd", {}, "pick the 1st–12th tile of your hand; the same key again discards it"),
        h("dt", {}, "← →, ↑ or Enter"), h("dd", {}, "move along your hand; discard the picked tile"),
        h("dt", {}, "R"), h("dd", {}, "riichi (then pick the tile)"),
        h("dt", {}, "T"), h("dd", {}, "tsumo / ron"),
        h("dt", {}, "C, P, K"), h("dd", {}, "chi, pon, kan (1, 2… choose among several)"),
        h("dt", {}, "N, D"), h("dd", {}, "nine terminals draw; show tenpai"),
        h("dt", {}, "Space"), h("dd", {}, "skip"),
        h("dt", {}, "Esc"), h("dd", {}, "back (riichi or a choice), close the hand’s result, or skip"))),
  ];
}

