// Playing cards, drawn as SVG: rank and suit in two corners, the real pip layout for A–10 and a
// framed letter for the court cards; hearts and diamonds red, clubs and spades black. Also the
// card back, and the rules knowledge the table needs (values, names). Mirrors
// games/cribbage/engine/cards.py: a card is "<rank><suit>", "0" being the ten.
//
// SVG rather than Unicode suit characters: headless and older systems may lack a font for them,
// and pips have to be laid out by position anyway.

import { h } from "../../dom.js";

export const RANKS = "A234567890JQK";
export const SUITS = "HDCS";
const RANK_TEXT = { A: "A", 0: "10", J: "J", Q: "Q", K: "K" };
const RANK_NAMES = { A: "ace", 0: "ten", J: "jack", Q: "queen", K: "king" };
const SUIT_NAMES = { H: "hearts", D: "diamonds", C: "clubs", S: "spades" };
const SUIT_SYMBOL = { H: "♥", D: "♦", C: "♣", S: "♠" };

export function isCard(card) {
  return typeof card === "string" && card.length === 2 && RANKS.includes(card[0]) && SUITS.includes(card[1]);
}

export const rankText = (card) => RANK_TEXT[card[0]] || card[0];
export const isRed = (card) => card[1] === "H" || card[1] === "D";
/** Value for fifteens and the count: ace 1, 2–9 face, tens and court cards 10. */
export const cardValue = (card) => Math.min(RANKS.indexOf(card[0]) + 1, 10);
/** "5♥", "10♠": short, for logs and buttons. */
export const shortName = (card) => (isCard(card) ? `${rankText(card)}${SUIT_SYMBOL[card[1]]}` : "?");
/** "five of hearts": for screen readers and titles. */
export function longName(card) {
  if (!isCard(card)) return "a face-down card";
  const rank = RANK_NAMES[card[0]] || ["", "", "two", "three", "four", "five", "six", "seven", "eight", "nine"][Number(card[0])];
  return `${rank} of ${SUIT_NAMES[card[1]]}`;
}
/** Sorted as a player holds them: by rank, then suit. */
export function sortCards(cards) {
  return [...cards].sort((a, b) => (isCard(a) && isCard(b)
    ? RANKS.indexOf(a[0]) - RANKS.indexOf(b[0]) || SUITS.indexOf(a[1]) - SUITS.indexOf(b[1])
    : 0));
}

// ------------------------------------------------------------------ SVG

const NS = "http://www.w3.org/2000/svg";

/** An SVG element (h() builds HTML elements only). */
export function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(NS, tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") el.setAttribute("class", Array.isArray(value) ? value.filter(Boolean).join(" ") : value);
    else if (key === "dataset") for (const [k, v] of Object.entries(value)) { if (v !== null && v !== undefined) el.dataset[k] = v; }
    else if (key === "style" && typeof value === "object") Object.assign(el.style, value);
    else el.setAttribute(key, String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.appendChild(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

const circle = (cx, cy, r) => `M${cx - r} ${cy}a${r} ${r} 0 1 0 ${2 * r} 0a${r} ${r} 0 1 0 ${-2 * r} 0Z`;

// Suit outlines in a 100 x 100 box.
const SUIT_PATHS = {
  H: "M50 92C22 68 3 50 3 29 3 14 14 4 28 4c10 0 18 6 22 15C54 10 62 4 72 4c14 0 25 10 25 25 0 21-19 39-47 63Z",
  D: "M50 2 88 50 50 98 12 50Z",
  S: "M50 3C62 25 97 40 97 63c0 13-10 22-22 22-9 0-16-4-20-11 1 10 4 17 12 23H33c8-6 11-13 12-23-4 7-11 11-20 11C13 85 3 76 3 63 3 40 38 25 50 3Z",
  C: `${circle(50, 27, 21)}${circle(26, 60, 21)}${circle(74, 60, 21)}M45 52h10c0 20 3 32 13 45H32c10-13 13-25 13-45Z`,
};

/** A suit symbol centred on (x, y), ``size`` wide, optionally upside down. */
function pip(suit, x, y, size, flip = false) {
  const scale = size / 100;
  const transform = `translate(${x} ${y})${flip ? " rotate(180)" : ""} scale(${scale}) translate(-50 -50)`;
  return s("path", { d: SUIT_PATHS[suit], transform });
}

// Pip centres on a 100 x 140 card, as printed on a standard deck.
const L = 31;
const M = 50;
const R = 69;
const ROWS4 = [30, 56.7, 83.3, 110];
const PIPS = {
  2: [[M, 30], [M, 110]],
  3: [[M, 30], [M, 70], [M, 110]],
  4: [[L, 30], [R, 30], [L, 110], [R, 110]],
  5: [[L, 30], [R, 30], [M, 70], [L, 110], [R, 110]],
  6: [[L, 30], [R, 30], [L, 70], [R, 70], [L, 110], [R, 110]],
  7: [[L, 30], [R, 30], [M, 50], [L, 70], [R, 70], [L, 110], [R, 110]],
  8: [[L, 30], [R, 30], [M, 50], [L, 70], [R, 70], [M, 90], [L, 110], [R, 110]],
  9: [...ROWS4.flatMap((y) => [[L, y], [R, y]]), [M, 70]],
  10: [...ROWS4.flatMap((y) => [[L, y], [R, y]]), [M, 43.3], [M, 96.7]],
};

// The corner index (rank over suit) for each drawn size, in the card's 100 x 140 units: the
// smaller the card, the larger the index, so the rank is never drawn under 12 px (11 px on a
// phone, where medium cards shrink to 52 px): 23 units of a 52 px card are 12 px.
const INDEX = {
  large: { x: 11, y: 22, font: 19, pip: 12 },
  medium: { x: 13, y: 24, font: 23, pip: 13 },
};

function face(card, size) {
  const suit = card[1];
  const rank = card[0];
  const parts = [s("rect", { class: "crib-svg__paper", x: 1, y: 1, width: 98, height: 138, rx: 8 })];
  if (size === "small" || size === "tiny") {
    // A small card (a played card, the crib, the show, the picked slots) is mostly read from a
    // distance or half covered: one big rank and one big suit, no pips. 42 units of a 30 px
    // card are 12.6 px.
    parts.push(s("text", { class: "crib-svg__rank crib-svg__rank--big", x: 8, y: 44 }, rankText(card)),
      pip(suit, 62, 100, 54));
    return parts;
  }
  const at = INDEX[size] || INDEX.large;
  const corner = (flip) => s("g", { transform: flip ? "rotate(180 50 70)" : null },
    s("text", { class: "crib-svg__rank", x: at.x, y: at.y, "text-anchor": "middle", style: { fontSize: `${at.font}px` } }, rankText(card)),
    pip(suit, at.x, at.y + 11, at.pip));
  parts.push(corner(false), corner(true));
  if (rank === "A") {
    parts.push(pip(suit, 50, 70, suit === "S" ? 46 : 36));
  } else if ("JQK".includes(rank)) {
    parts.push(s("rect", { class: "crib-svg__frame", x: 22, y: 20, width: 56, height: 100, rx: 4 }),
      s("text", { class: "crib-svg__court", x: 50, y: 73, "text-anchor": "middle" }, rank),
      pip(suit, 50, 96, 22));
  } else {
    const n = rank === "0" ? 10 : Number(rank);
    for (const [x, y] of PIPS[n]) parts.push(pip(suit, x, y, 19, y > 72));
  }
  return parts;
}

/**
 * A card as a node. ``card`` null or not a card code draws its back.
 * opts: {size: "tiny"|"small"|"medium"|"large", onclick, selected, legal, disabled, testid, key, label, dim, title}
 * Clickable cards are <button>s, so they work from the keyboard.
 */
export function cardEl(card, opts = {}) {
  const known = isCard(card);
  const svg = s("svg", { class: "crib-svg", viewBox: "0 0 100 140", "aria-hidden": "true", focusable: "false" },
    known ? face(card, opts.size || "medium") : [
      s("rect", { class: "crib-svg__back", x: 1, y: 1, width: 98, height: 138, rx: 8 }),
      s("rect", { class: "crib-svg__back-inner", x: 9, y: 9, width: 82, height: 122, rx: 5 }),
    ]);
  const classes = ["crib-card", `crib-card--${opts.size || "medium"}`, known ? (isRed(card) ? "crib-card--red" : "crib-card--black") : "crib-card--back",
    opts.selected && "crib-card--selected", opts.legal && "crib-card--legal", opts.dim && "crib-card--dim", opts.extraClass];
  const label = opts.label || (known ? longName(card) : "a face-down card");
  const attrs = {
    class: classes,
    title: opts.title || (known ? longName(card) : null),
    dataset: { testid: opts.testid || "card", card: known ? card : null, key: opts.key || null,
      selected: opts.selected ? "true" : null, legal: opts.legal ? "true" : null },
  };
  if (opts.onclick) {
    // Named by hidden text rather than aria-label: a name that replaced the drawn corners' "2"
    // would not contain what is seen, which speech input relies on (WCAG 2.5.3).
    return h("button", { ...attrs, type: "button", disabled: opts.disabled,
      "aria-pressed": opts.pressable ? (opts.selected ? "true" : "false") : null, onclick: opts.onclick },
    svg, h("span", { class: "visually-hidden" }, label));
  }
  return h("span", { ...attrs, role: "img", "aria-label": label }, svg);
}

/** A row of small face-up cards, for logs and the show. */
export function miniCards(cards) {
  return h("span", { class: "crib-mini" }, (cards || []).map((card) =>
    h("span", { class: ["crib-mini__card", isCard(card) && isRed(card) ? "crib-mini__card--red" : "crib-mini__card--black"],
      title: longName(card) }, rankText(card || "?"), suitIcon(card))));
}

/** A suit symbol as an inline SVG icon sized to the text. */
export function suitIcon(card) {
  if (!isCard(card)) return null;
  return s("svg", { class: "crib-suit", viewBox: "0 0 100 100", "aria-hidden": "true", focusable: "false" },
    s("path", { d: SUIT_PATHS[card[1]] }));
}
