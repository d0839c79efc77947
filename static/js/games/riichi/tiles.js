// Mahjong tiles: Majiang's notation read (hands, melds, river entries) and every tile drawn as SVG.
//
// A tile is a suit letter and a digit: m (characters), p (circles), s (bamboo) 1-9, 0 for the red
// five; z1-z4 the winds East South West North, z5-z7 the white, green and red dragons; "_" a tile
// face down. Nothing here depends on a font for the faces: circles, sticks, the numerals, the
// wind letters and the dragons are all paths, so a machine without CJK fonts (or with odd Latin
// ones) shows the same tiles as every other. Faces are built once per code and cloned.

import { h } from "../../dom.js";

export const SUITS = "mpsz";
const HONOUR_NAMES = ["", "East", "South", "West", "North", "White", "Green", "Red"];
const HONOUR_LONG = ["", "East wind", "South wind", "West wind", "North wind", "White dragon", "Green dragon", "Red dragon"];
const SUIT_NAMES = { m: "characters", p: "circles", s: "bamboo" };
const NUMBER_NAMES = ["five", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"];
/** The wind characters by index (0 East .. 3 North): the round and seat winds. */
export const WIND_KANJI = ["東", "南", "西", "北"];
export const WIND_NAMES = ["East", "South", "West", "North"];

export function isTile(code) {
  return typeof code === "string" && /^[mps][0-9]$|^z[1-7]$/.test(code.slice(0, 2)) && code.length >= 2;
}

/** The tile itself without Majiang's marks (``_`` tsumogiri, ``*`` riichi, ``+=-`` call). */
export const bare = (code) => (typeof code === "string" ? code.slice(0, 2) : code);
/** The kind for comparison: the red five counts as a five. */
export const kind = (code) => (code && code[1] === "0" ? `${code[0]}5` : bare(code));
export const isRed = (code) => typeof code === "string" && code[1] === "0" && code[0] !== "z";

/** "5p", "red 5p", "East", "White": short names for logs, buttons and titles. */
export function tileName(code) {
  if (!isTile(code)) return "?";
  const s = code[0];
  const n = Number(code[1]);
  if (s === "z") return HONOUR_NAMES[n];
  return `${isRed(code) ? "red " : ""}${n || 5}${s}`;
}

/**
 * The dora an indicator points at: the next tile of its suit, 9 wrapping to 1, the winds
 * East → South → West → North → East, the dragons white → green → red → white (a red five
 * indicates the six like any five).
 */
export function doraOf(code) {
  if (!isTile(code)) return null;
  const s = code[0];
  const n = Number(code[1]) || 5;
  if (s !== "z") return `${s}${(n % 9) + 1}`;
  return n <= 4 ? `z${(n % 4) + 1}` : `z${((n - 5 + 1) % 3) + 5}`;
}

/** "five of circles (red)", "East wind": for screen readers. */
export function longName(code) {
  if (!isTile(code)) return "a face-down tile";
  const s = code[0];
  const n = Number(code[1]);
  if (s === "z") return HONOUR_LONG[n];
  return `${NUMBER_NAMES[n]} of ${SUIT_NAMES[s]}${isRed(code) ? " (red)" : ""}`;
}

// ------------------------------------------------------------------ notation

/**
 * A hand string of Majiang's (``m123p456s789z11,m1-23,z111=``; masked ``_____*,m1-23``) as
 * {tiles: concealed codes in order ("_" when hidden), drawn: the drawn tile or null (the last
 * concealed tile, set apart, when the hand holds 3n+2 and did not just call), lizhi, melds}.
 */
export function parseHand(text) {
  const out = { tiles: [], drawn: null, lizhi: false, melds: [] };
  if (typeof text !== "string" || !text) return out;
  const [concealed, ...melds] = text.split(",");
  let suit = "";
  for (const ch of concealed) {
    if (SUITS.includes(ch)) suit = ch;
    else if (ch === "_") out.tiles.push("_");
    else if (ch === "*") out.lizhi = true;
    else if (/[0-9]/.test(ch) && suit) out.tiles.push(suit + ch);
  }
  out.melds = melds.filter(Boolean);
  // Majiang writes a trailing "," just after a call: the hand holds 3n+2 tiles but drew none.
  const justCalled = text.endsWith(",");
  if (out.tiles.length % 3 === 2 && !justCalled) out.drawn = out.tiles.pop();
  return out;
}

/** The mark on a river or meld tile: who took it or gave it, as Majiang writes it. */
export const DIRECTION = { "-": "kamicha", "=": "toimen", "+": "shimocha" };

/**
 * A meld string as {kind: chi|pon|daiminkan|ankan|kakan, tiles: [{code, called, added}]} in the
 * order it lies on the table from its owner's seat: the called tile turned and placed toward the
 * seat it came from (left for kamicha, middle for toimen, right for shimocha), a kakan's added
 * tile stacked on it, an ankan's outer two face down.
 */
export function parseMeld(text) {
  const suit = text[0];
  const tiles = [];
  let mark = null;
  let markAt = -1;
  for (const ch of text.slice(1)) {
    if (/[0-9]/.test(ch)) tiles.push(suit + ch);
    else if ("+=-".includes(ch)) {
      mark = ch;
      markAt = tiles.length - 1;
    }
  }
  const kinds = new Set(tiles.map(kind));
  if (!mark) {
    return { kind: "ankan", mark: null, tiles: tiles.map((code, i) => ({ code, faceDown: i === 0 || i === tiles.length - 1 })) };
  }
  const called = tiles[markAt];
  const added = tiles.length === 4 && markAt < 3 ? tiles[3] : null;
  const rest = tiles.filter((_, i) => i !== markAt && !(added && i === 3));
  const kindName = added ? "kakan" : tiles.length === 4 ? "daiminkan" : kinds.size === 1 ? "pon" : "chi";
  const turned = { code: called, called: mark, added: added ? { code: added } : null };
  const at = mark === "-" ? 0 : mark === "=" ? 1 : rest.length;
  const laid = rest.map((code) => ({ code }));
  laid.splice(at, 0, turned);
  return { kind: kindName, mark, tiles: laid, called };
}

/** A river entry (``m3``, ``m3_``, ``m3*``, ``m3_-``) as {code, tsumogiri, lizhi, called}. */
export function parseDiscard(text) {
  const called = /[+=-]$/.test(text) ? text.slice(-1) : null;
  return { code: text.slice(0, 2), tsumogiri: text.includes("_"), lizhi: text.includes("*"), called };
}

// ------------------------------------------------------------------ drawing

const NS = "http://www.w3.org/2000/svg";

/** An SVG element (h() builds HTML elements only). */
export function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(NS, tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    el.setAttribute(key, String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.appendChild(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

const BLUE = "#1f4e9c";
const GREEN = "#17703a";
const RED = "#c8232c";
const INK = "#1d1f29";

// Glyphs as single strokes in a 10 x 16 box, so digits and wind letters look the same everywhere.
const GLYPHS = {
  1: "M3 3.6 6.2 1V15",
  2: "M1.6 4.4C1.6 2.2 3.3 1 5.2 1S8.8 2.2 8.8 4.3C8.8 7.6 1.4 10.8 1.4 15H9",
  3: "M1.6 2.6C2.5 1.5 3.7 1 5 1 7.3 1 8.7 2.3 8.7 4.2 8.7 6.2 7 7.5 4.5 7.5 7.3 7.5 9.1 9.1 9.1 11.4 9.1 13.7 7.4 15 5 15 3.4 15 2.2 14.4 1.2 13.2",
  4: "M7.2 15V1L1 10.8H9.6",
  5: "M8.6 1H2.6L1.9 7.4C2.9 6.7 4 6.4 5 6.4 7.5 6.4 9 8.1 9 10.7S7.3 15 4.9 15C3.4 15 2.2 14.5 1.3 13.4",
  6: "M8.1 2C7.2 1.3 6.2 1 5.1 1 2.6 1 1.2 3.8 1.2 8.4 1.2 12.8 2.7 15 5.1 15 7.4 15 9 13.3 9 10.8S7.4 6.8 5.2 6.8C3.4 6.8 1.9 7.8 1.3 9.5",
  7: "M1 1H9L3.9 15",
  8: "M5 7.6C2.9 7.6 1.6 6.4 1.6 4.3S3 1 5 1 8.4 2.2 8.4 4.3 7.1 7.6 5 7.6ZM5 7.6C7.6 7.6 9 9 9 11.3S7.4 15 5 15 1 13.6 1 11.3 2.4 7.6 5 7.6Z",
  9: "M8.7 6.6C8.1 8.3 6.6 9.2 4.8 9.2 2.6 9.2 1 7.7 1 5.2S2.6 1 4.9 1C7.4 1 8.8 3.2 8.8 7.6 8.8 12.2 7.4 15 5 15 3.9 15 2.9 14.7 2 14",
  E: "M8.6 1H1.6V15H8.6M1.6 8H7.4",
  S: "M8.5 3C7.7 1.7 6.4 1 5 1 2.9 1 1.5 2.2 1.5 4 1.5 8.2 8.8 7.2 8.8 11.6 8.8 13.7 7.2 15 5 15 3.3 15 2 14.3 1.2 12.8",
  W: "M.4 1 2.8 15 5 5 7.2 15 9.6 1",
  N: "M1.6 15V1L8.4 15V1",
};

function glyph(key, x, y, scale, colour, width = 2) {
  return s("path", { d: GLYPHS[key], transform: `translate(${x} ${y}) scale(${scale})`, fill: "none", stroke: colour,
    "stroke-width": width, "stroke-linecap": "round", "stroke-linejoin": "round" });
}

/** 萬 (wan, "ten thousand": the characters suit), drawn in strokes in a 30 x 28 box. */
function wan(x, y, colour) {
  return s("path", { transform: `translate(${x} ${y})`, fill: "none", stroke: colour, "stroke-width": 2.3,
    "stroke-linecap": "round", "stroke-linejoin": "round",
    d: "M3 4H27M10 1V8M20 1V8M7 10.5H23V17.5H7ZM7 14H23M15 10.5V17.5M4 27.5V20.5H26V26.5Q26 28 24 28M15 17.5V25M10.5 26 15 22.5 19.5 26" });
}

/** A circle pip: a coloured disc with a paper ring and a dot, as printed on the circles suit. */
function pin(cx, cy, r, colour) {
  return [
    s("circle", { cx, cy, r, fill: colour }),
    s("circle", { cx, cy, r: r * 0.68, fill: "#fbf7ec" }),
    s("circle", { cx, cy, r: r * 0.45, fill: colour }),
    s("circle", { cx, cy, r: r * 0.16, fill: "#fbf7ec" }),
  ];
}

const B = BLUE;
const G = GREEN;
const R = RED;
// Circle layouts on a 60 x 80 face: [x, y, r, colour].
const PINS = {
  2: [[30, 22, 12, G], [30, 58, 12, B]],
  3: [[15, 16, 10, B], [30, 40, 10, R], [45, 64, 10, G]],
  4: [[17, 22, 11, B], [43, 22, 11, G], [17, 58, 11, G], [43, 58, 11, B]],
  5: [[15, 17, 10, B], [45, 17, 10, G], [30, 40, 10, R], [15, 63, 10, G], [45, 63, 10, B]],
  6: [[18, 15, 9, G], [42, 15, 9, G], [18, 44, 9, R], [42, 44, 9, R], [18, 65, 9, R], [42, 65, 9, R]],
  7: [[13, 11, 7.5, G], [30, 19, 7.5, G], [47, 27, 7.5, G], [18, 48, 8, R], [42, 48, 8, R], [18, 68, 8, R], [42, 68, 8, R]],
  8: [[18, 12, 8, B], [42, 12, 8, B], [18, 31, 8, B], [42, 31, 8, B], [18, 50, 8, B], [42, 50, 8, B], [18, 69, 8, B], [42, 69, 8, B]],
  9: [[13, 15, 8, B], [30, 15, 8, B], [47, 15, 8, B], [13, 40, 8, R], [30, 40, 8, R], [47, 40, 8, R], [13, 65, 8, G], [30, 65, 8, G], [47, 65, 8, G]],
};

function pinFace(n, red) {
  if (n === 1) {
    return [
      s("circle", { cx: 30, cy: 40, r: 23, fill: G }),
      s("circle", { cx: 30, cy: 40, r: 19, fill: "#fbf7ec" }),
      ...Array.from({ length: 12 }, (_, i) => {
        const a = (i / 12) * 2 * Math.PI;
        return s("circle", { cx: (30 + 16 * Math.cos(a)).toFixed(2), cy: (40 + 16 * Math.sin(a)).toFixed(2), r: 2.2, fill: B });
      }),
      s("circle", { cx: 30, cy: 40, r: 11, fill: R }),
      s("circle", { cx: 30, cy: 40, r: 6.5, fill: "#fbf7ec" }),
      s("circle", { cx: 30, cy: 40, r: 3.5, fill: G }),
    ];
  }
  return PINS[n].map(([x, y, r, c]) => pin(x, y, r, red ? R : c));
}

/** A bamboo stick centred on (x, y), ``len`` long, turned ``angle`` degrees. */
function stick(x, y, len, colour, angle = 0, width = 7.6) {
  const top = y - len / 2;
  const half = width / 2;
  // A stalk with a node at each end and one in the middle, lit down its left side.
  return s("g", { transform: angle ? `rotate(${angle} ${x} ${y})` : null },
    s("rect", { x: x - half, y: top, width, height: len, rx: 2.4, fill: colour }),
    s("path", { d: `M${x - half - 0.6} ${top + 2.2}H${x + half + 0.6}M${x - half - 0.6} ${y}H${x + half + 0.6}M${x - half - 0.6} ${top + len - 2.2}H${x + half + 0.6}`,
      stroke: colour, "stroke-width": 2.4, "stroke-linecap": "round" }),
    s("path", { d: `M${x - half} ${top + 2.2}H${x + half}M${x - half} ${y}H${x + half}M${x - half} ${top + len - 2.2}H${x + half}`,
      stroke: "rgb(0 0 0 / 0.35)", "stroke-width": 0.9 }),
    s("path", { d: `M${x - half * 0.35} ${top + 3.6}V${y - 1.4}M${x - half * 0.35} ${y + 1.4}V${top + len - 3.6}`,
      stroke: "rgb(255 255 255 / 0.45)", "stroke-width": 1.3, "stroke-linecap": "round" }));
}

// Stick layouts on a 60 x 80 face: [x, y, length, colour, angle].
const SOUS = {
  2: [[30, 22, 26, G], [30, 58, 26, B]],
  3: [[30, 22, 26, B], [18, 58, 26, G], [42, 58, 26, G]],
  4: [[18, 22, 26, B], [42, 22, 26, G], [18, 58, 26, G], [42, 58, 26, B]],
  5: [[14, 22, 26, G], [46, 22, 26, B], [30, 40, 26, R], [14, 58, 26, B], [46, 58, 26, G]],
  6: [[14, 22, 26, G], [30, 22, 26, G], [46, 22, 26, G], [14, 58, 26, B], [30, 58, 26, B], [46, 58, 26, B]],
  7: [[30, 13, 19, R], [14, 40, 19, G], [30, 40, 19, G], [46, 40, 19, G], [14, 66, 19, B], [30, 66, 19, B], [46, 66, 19, B]],
  8: [[11, 22, 26, G], [23, 22, 26, G, 22], [37, 22, 26, G, -22], [49, 22, 26, G],
    [11, 58, 26, B], [23, 58, 26, B, -22], [37, 58, 26, B, 22], [49, 58, 26, B]],
  9: [[14, 14, 20, G], [30, 14, 20, R], [46, 14, 20, B], [14, 40, 20, G], [30, 40, 20, R], [46, 40, 20, B],
    [14, 66, 20, G], [30, 66, 20, R], [46, 66, 20, B]],
};

/** The one of bamboo: a bird (the suit's traditional sparrow), drawn in a few shapes. */
function bird() {
  return [
    // tail feathers fanning up behind
    s("path", { d: "M30 44 14 14M30 44 22 10M30 44 30 8M30 44 38 10M30 44 46 14", stroke: G, "stroke-width": 3, "stroke-linecap": "round" }),
    s("circle", { cx: 14, cy: 14, r: 3, fill: R }), s("circle", { cx: 22, cy: 10, r: 3, fill: B }),
    s("circle", { cx: 30, cy: 8, r: 3, fill: R }), s("circle", { cx: 38, cy: 10, r: 3, fill: B }), s("circle", { cx: 46, cy: 14, r: 3, fill: R }),
    // body, wing, head and beak
    s("ellipse", { cx: 30, cy: 52, rx: 11, ry: 13, fill: G }),
    s("path", { d: "M24 50Q30 60 38 52Q33 64 24 58Z", fill: B }),
    s("circle", { cx: 36, cy: 38, r: 6, fill: R }),
    s("path", { d: "M41 37 48 39 41 41Z", fill: "#d99a20" }),
    s("circle", { cx: 37.5, cy: 37, r: 1.3, fill: "#fbf7ec" }),
    // legs
    s("path", { d: "M27 64 25 74M33 64 35 74M22 74H28M32 74H38", stroke: INK, "stroke-width": 1.8, "stroke-linecap": "round" }),
  ];
}

function souFace(n, red) {
  if (n === 1) return bird();
  return SOUS[n].map(([x, y, len, c, angle]) => stick(x, y, len, red ? R : c, angle || 0));
}

function manFace(n, red) {
  return [glyph(String(n), 19.5, 5, 2.1, red ? R : INK, 2), wan(15, 45, R)];
}

function honourFace(n) {
  if (n <= 4) return glyph("ESWN"[n - 1], 16, 17.6, 2.8, INK, 2.1);
  if (n === 5) {
    return [s("rect", { x: 12, y: 13, width: 36, height: 54, rx: 3, fill: "none", stroke: BLUE, "stroke-width": 3.4 }),
      s("rect", { x: 17.5, y: 18.5, width: 25, height: 43, rx: 1.5, fill: "none", stroke: BLUE, "stroke-width": 1.4 })];
  }
  if (n === 6) {
    // 發, in broad strokes: the two halves of its head, the bow and the weapon below.
    return s("path", { transform: "translate(10 13)", fill: "none", stroke: GREEN, "stroke-width": 3, "stroke-linecap": "round", "stroke-linejoin": "round",
      d: "M4 3H15L8 11M9 6 16 12M36 3H25L32 11M31 6 24 12M3 17H37M5 23H16V29H5V35H17V44Q17 48 13 47M26 21V27Q26 31 22 33M26 21H33V27Q33 29 36 29M22 36H36L25 52M26 41 37 52" });
  }
  return [s("rect", { x: 14, y: 28, width: 32, height: 22, rx: 1.5, fill: "none", stroke: RED, "stroke-width": 4.6, "stroke-linejoin": "round" }),
    s("path", { d: "M30 12V70", stroke: RED, "stroke-width": 5, "stroke-linecap": "round" })];
}

function faceParts(code) {
  const suit = code[0];
  const n = Number(code[1]);
  const red = n === 0 && suit !== "z";
  const number = n || 5;
  const paper = s("rect", { class: "rii-svg__paper", x: 0.75, y: 0.75, width: 58.5, height: 78.5, rx: 6 });
  let art;
  if (suit === "m") art = manFace(number, red);
  else if (suit === "p") art = pinFace(number, red);
  else if (suit === "s") art = souFace(number, red);
  else art = honourFace(n);
  // The red five also gets a corner mark, so it stands out even to eyes that miss the colour.
  const mark = red ? s("path", { d: "M47 2.5H54.5Q57.5 2.5 57.5 5.5V13Z", fill: RED }) : null;
  return [paper, art, mark];
}

function backParts() {
  return [s("rect", { class: "rii-svg__back", x: 0.75, y: 0.75, width: 58.5, height: 78.5, rx: 6 }),
    s("rect", { class: "rii-svg__back-inner", x: 6, y: 6, width: 48, height: 68, rx: 4 })];
}

const cache = new Map();

/** The tile's picture, upright (60 x 80) or turned a quarter to the left (80 x 60), from the cache. */
function picture(code, sideways) {
  const key = `${code}:${sideways ? 1 : 0}`;
  let svg = cache.get(key);
  if (!svg) {
    const parts = code === "_" ? backParts() : faceParts(code);
    svg = s("svg", { class: "rii-svg", viewBox: sideways ? "0 0 80 60" : "0 0 60 80", "aria-hidden": "true", focusable: "false" },
      sideways ? s("g", { transform: "translate(0 60) rotate(-90)" }, parts) : parts);
    cache.set(key, svg);
  }
  return svg.cloneNode(true);
}

/**
 * A tile as a node. ``code`` "_" (or anything not a tile) is a face-down tile.
 * opts: {size: a CSS size class suffix (river, hand, meld, mine, dora, mini), sideways, dim (greyed),
 *   legal, testid, key, title, extraClass, onclick, disabled, dataset (extra data-*)}
 * Clickable tiles are <button>s, so they work from the keyboard.
 */
export function tileEl(code, opts = {}) {
  const known = isTile(code);
  const face = known ? bare(code) : "_";
  const classes = ["rii-tile", `rii-tile--${opts.size || "river"}`, !known && "rii-tile--back", opts.sideways && "rii-tile--side",
    opts.dim && "rii-tile--dim", opts.legal && "rii-tile--legal", known && isRed(face) && "rii-tile--red", opts.extraClass];
  const label = opts.label || (known ? longName(face) : "a face-down tile");
  const attrs = {
    class: classes,
    title: opts.title === undefined ? (known ? tileName(face) : null) : opts.title,
    dataset: { testid: opts.testid || "tile", tile: known ? face : null, key: opts.key || null, ...(opts.dataset || {}) },
  };
  if (opts.onclick) {
    return h("button", { ...attrs, type: "button", disabled: opts.disabled, "aria-label": label, onclick: opts.onclick }, picture(face, opts.sideways));
  }
  return h("span", { ...attrs, role: "img", "aria-label": label }, picture(face, opts.sideways));
}

/** A meld laid out as on the table (see parseMeld). */
export function meldEl(text, opts = {}) {
  const meld = parseMeld(text);
  const size = opts.size || "meld";
  const from = meld.mark ? ` from ${DIRECTION[meld.mark]}` : "";
  return h("span", { class: ["rii-meld", `rii-meld--${meld.kind}`], dataset: { testid: "meld", meld: text, kind: meld.kind },
    role: "group", "aria-label": `${meld.kind}${from}: ${meld.tiles.map((t) => tileName(t.code)).join(" ")}` },
  meld.tiles.map((t) => {
    if (t.added) {
      return h("span", { class: "rii-meld__stack" }, tileEl(t.added.code, { size, sideways: true }), tileEl(t.code, { size, sideways: true }));
    }
    return tileEl(t.faceDown ? "_" : t.code, { size, sideways: Boolean(t.called), extraClass: t.called ? "rii-tile--called" : null });
  }));
}

/** A small tile chip in text (logs, prompts, buttons): "5p" in the suit's colour. */
export function tileChip(code) {
  const face = bare(code);
  return h("span", { class: ["rii-chip", isTile(face) && `rii-chip--${face[0]}`, isRed(face) && "rii-chip--red"],
    title: longName(face), dataset: { tile: isTile(face) ? face : null } }, tileName(face));
}
