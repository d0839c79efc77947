// The 121-hole peg board, as an SVG: a lane of holes per player (per team in the 2 vs 2 mode),
// out along the top street (1–60) and back along the bottom one (61–120) in groups of five, the
// start holes on the left and the game hole between the streets. Where that long board would be
// drawn too small to read (a phone: 805 units in 300 px put the numbers at 5 px and the holes
// under a pixel), the same 120 holes snake along four streets of 30 instead, half as wide. Each player has two pegs, front
// (the score) and back (the score before the last peg), as on a real board.
//
// The pegs glide to their new holes: the board remembers where each peg was last drawn and
// animates from there, so a redraw after every event still looks like pegging.

import { h } from "../../dom.js";
import { s } from "./cards.js";

export const GAME_HOLE = 121;
const STEP = 11; // between holes of a group
const GAP = 8; // extra between groups of five
const LANE = 12; // between lanes
const LEFT = 46; // x of hole 1 (start holes and the game hole sit to its left)
// The hole numbers are drawn at 14 units on the long board and 17 on the compact one
// (cribbage.css): the long board is used only where 14 units come out at 12 px or more.
const LONG_MARK = 14;
const MIN_MARK_PX = 12;

function holeX(i) {
  // i: 1..60 along a street, left to right.
  return LEFT + (i - 1) * STEP + Math.floor((i - 1) / 5) * GAP;
}

/**
 * Board geometry for ``lanes`` lanes: ``streets`` (2: 60 holes each, 4: 30 each) running left to
 * right and back by turns. Each street: {y (its first lane), reversed, mirrored (lanes in reverse
 * order, so that on the long board each lane is one loop)}.
 */
function geometry(lanes, streets) {
  const cols = 120 / streets;
  const street = (lanes - 1) * LANE;
  const width = holeX(cols) + 22;
  if (streets === 2) {
    const topY = 30;
    const bottomY = topY + street + 34;
    return {
      cols, street, width, height: bottomY + street + 30, compact: false,
      streets: [{ y: topY, reversed: false, mirrored: false }, { y: bottomY, reversed: true, mirrored: true }],
      game: { x: LEFT - 30, y: (topY + street + bottomY) / 2 }, gameLabelDy: 17,
    };
  }
  const pitch = street + 40; // a street and the band of numbers above the next
  const list = [0, 1, 2, 3].map((k) => ({ y: 34 + k * pitch, reversed: k % 2 === 1, mirrored: false }));
  const last = list[3];
  return {
    cols, street, width, height: last.y + street + 34, compact: true, streets: list,
    game: { x: LEFT - 30, y: last.y + street / 2 }, gameLabelDy: 26,
  };
}

/** Where hole ``n`` (0 start, 1..120, 121 game) of ``lane`` is. */
function holeAt(n, lane, g, lanes, back = false) {
  // Two start holes per lane: both pegs wait there until the lane first scores.
  if (n <= 0) return { x: LEFT - (back ? 34 : 24), y: g.streets[0].y + lane * LANE };
  if (n >= GAME_HOLE) return { x: g.game.x, y: g.game.y };
  const k = Math.floor((n - 1) / g.cols);
  const st = g.streets[k];
  const along = n - k * g.cols; // 1..cols from where the street starts
  const col = st.reversed ? g.cols + 1 - along : along;
  return { x: holeX(col), y: st.y + (st.mirrored ? lanes - 1 - lane : lane) * LANE };
}

// Where each peg was drawn last, so the next drawing can move it from there.
const lastDrawn = new Map();

/** The board's drawing: 2 or 4 streets. */
function drawBoard(lanes, opts, streets) {
  const n = Math.max(lanes.length, 2);
  const g = geometry(n, streets);
  const board = [];
  board.push(s("rect", { class: "crib-board__wood", x: 2, y: 2, width: g.width - 4, height: g.height - 4, rx: 18 }));
  // The lanes' tinted tracks, one per lane and street.
  lanes.forEach((lane, i) => {
    const colour = `crib-lane--c${lane.colour}`;
    for (const st of g.streets) {
      const y = st.y + (st.mirrored ? n - 1 - i : i) * LANE;
      board.push(s("rect", { class: ["crib-board__track", colour], x: holeX(1) - 6, y: y - 5, width: holeX(g.cols) - holeX(1) + 12, height: 10, rx: 5 }));
    }
  });
  // Five-hole groups: a faint plate behind each, so the board reads in fives as a real one does.
  for (const st of g.streets) {
    for (let group = 0; group < g.cols / 5; group += 1) {
      board.push(s("rect", { class: "crib-board__plate", x: holeX(group * 5 + 1) - 5, y: st.y - 8, width: 4 * STEP + 10, height: g.street + 16, rx: 4 }));
    }
  }
  const holes = [];
  for (let lane = 0; lane < n; lane += 1) {
    for (let hole = 0; hole <= 120; hole += 1) {
      const { x, y } = holeAt(hole, lane, g, n);
      holes.push(`${circle(x, y, hole === 0 ? 2.6 : 2.1)}`);
    }
    const spare = holeAt(0, lane, g, n, true);
    holes.push(circle(spare.x, spare.y, 2.6));
  }
  board.push(s("path", { class: "crib-board__holes", d: holes.join("") }));
  board.push(s("circle", { class: "crib-board__game-hole", cx: g.game.x, cy: g.game.y, r: 4.2 }),
    s("text", { class: "crib-board__mark", x: g.game.x, y: g.game.y + g.gameLabelDy, "text-anchor": "middle" }, "121"));
  // Every tenth hole numbered, on the outside of the long board's streets and above each of the
  // compact board's; the skunk line between 90 and 91.
  for (let ten = 10; ten <= 120; ten += 10) {
    const { x } = holeAt(ten, 0, g, n);
    const k = Math.floor((ten - 1) / g.cols);
    const below = !g.compact && k === 1;
    const y = below ? g.streets[1].y + g.street + 21 : g.streets[k].y - 13;
    board.push(s("text", { class: "crib-board__mark", x, y, "text-anchor": "middle" }, String(ten)));
  }
  if (g.compact) {
    // 90 ends the third street and 91 starts the fourth, under it at the right.
    const y = g.streets[2].y + g.street + 9;
    board.push(s("line", { class: "crib-board__skunk", x1: holeX(26) - 6, x2: holeX(30) + 8, y1: y, y2: y }),
      s("text", { class: "crib-board__mark crib-board__mark--skunk", x: holeX(28), y: g.streets[3].y - 13, "text-anchor": "middle" }, "skunk"));
  } else {
    const skunk = (holeX(30) + holeX(31)) / 2;
    const bottom = g.streets[1].y;
    board.push(s("line", { class: "crib-board__skunk", x1: skunk, x2: skunk, y1: bottom - 9, y2: bottom + g.street + 9 }),
      s("text", { class: "crib-board__mark crib-board__mark--skunk", x: skunk, y: bottom - 13, "text-anchor": "middle" }, "skunk"));
  }

  // Pegs: back first, so the front peg is drawn over it when they share a hole.
  const pegs = [];
  lanes.forEach((lane, i) => {
    for (const front of [false, true]) {
      const score = front ? lane.score : lane.previous;
      if (score === null || score === undefined) continue;
      const hole = Math.max(0, Math.min(GAME_HOLE, score));
      const { x, y } = holeAt(hole, i, g, n, !front);
      // Per layout: a peg redrawn on the other layout starts from its own hole there.
      const id = `${opts.id || "board"}:${streets}:${lane.key}:${front ? "front" : "back"}`;
      const last = lastDrawn.get(id);
      lastDrawn.set(id, { x, y });
      const from = last && opts.animate !== false ? last : { x, y };
      const peg = s("g", {
        class: ["crib-peg", `crib-lane--c${lane.colour}`, front ? "crib-peg--front" : "crib-peg--back"],
        dataset: { testid: "peg", lane: lane.key, hole, front: front ? "true" : "false" },
        style: { transform: `translate(${from.x}px, ${from.y}px)` },
      },
      s("title", {}, `${front ? "front" : "back"} peg at ${hole}`),
      s("circle", { class: "crib-peg__shadow", cx: 1.2, cy: 1.8, r: front ? 4.6 : 3.8 }),
      s("circle", { class: "crib-peg__head", cx: 0, cy: 0, r: front ? 4.6 : 3.8 }),
      s("circle", { class: "crib-peg__shine", cx: -1.4, cy: -1.5, r: 1.4 }));
      if (from.x !== x || from.y !== y) {
        // Set the target after the start position has been laid out, so the transition runs.
        requestAnimationFrame(() => requestAnimationFrame(() => { peg.style.transform = `translate(${x}px, ${y}px)`; }));
        // Frames stop in background tabs: make sure the peg ends up in place regardless.
        setTimeout(() => { peg.style.transform = `translate(${x}px, ${y}px)`; }, 700);
      }
      pegs.push(peg);
    }
  });

  return s("svg", { class: ["crib-board__svg", g.compact && "crib-board__svg--compact"], viewBox: `0 0 ${g.width} ${g.height}`, role: "img",
    dataset: { streets },
    "aria-label": `Peg board: ${lanes.map((l) => `${l.name} ${l.score}`).join(", ")}` }, board, pegs);
}

/** 2 streets where the long board's numbers come out at 12 px or more in ``width`` px, else 4. */
function streetsFor(width) {
  const long = geometry(2, 2).width;
  return width * (LONG_MARK / long) >= MIN_MARK_PX ? 2 : 4;
}

/**
 * ``lanes``: [{key, label (Node or text), score, previous, colour index, toAct, me}].
 * opts: {id: a name for this board's pegs (remembered positions), animate: bool}
 */
export function renderPegBoard(lanes, opts = {}) {
  const legend = h("ol", { class: "crib-board__legend", dataset: { testid: "score-list" } },
    lanes.map((lane) => h("li", { class: ["crib-score", `crib-lane--c${lane.colour}`, lane.toAct && "crib-score--to-act", lane.me && "crib-score--me"],
      dataset: { testid: "score", lane: lane.key, score: lane.score } },
    h("span", { class: "crib-score__peg", "aria-hidden": "true" }),
    h("span", { class: "crib-score__name" }, lane.label),
    h("strong", { class: "crib-score__points", dataset: { testid: "score-points" } }, String(lane.score)),
    lane.gained ? h("span", { class: "crib-score__gain", title: "Points pegged last" }, `+${lane.gained}`) : null)));

  // Before it is in the page the board's width is unknown: a guess from the window, put right by
  // the observer below before the first paint (resize observations are delivered before it), and
  // again whenever the table changes width (a phone turned sideways).
  let streets = typeof window !== "undefined" && window.innerWidth >= 1000 ? 2 : 4;
  const frame = h("div", { class: ["crib-board__frame", streets === 4 && "crib-board__frame--compact"] }, drawBoard(lanes, opts, streets));
  const section = h("section", { class: "crib-board", dataset: { testid: "peg-board" }, "aria-label": "Peg board" }, legend, frame);
  if (typeof ResizeObserver === "function") {
    const observer = new ResizeObserver(() => {
      if (!section.isConnected) { observer.disconnect(); return; }
      const width = section.clientWidth - 12; // the frame's padding
      if (width <= 0) return;
      const wanted = streetsFor(width);
      if (wanted === streets) return;
      streets = wanted;
      frame.classList.toggle("crib-board__frame--compact", streets === 4);
      frame.replaceChildren(drawBoard(lanes, { ...opts, animate: false }, streets));
    });
    observer.observe(section);
  }
  return section;
}

function circle(cx, cy, r) {
  return `M${cx - r} ${cy}a${r} ${r} 0 1 0 ${2 * r} 0a${r} ${r} 0 1 0 ${-2 * r} 0Z`;
}
