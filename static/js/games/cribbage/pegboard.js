// The 121-hole peg board, as an SVG: a lane of holes per player (per team in the 2 vs 2 mode),
// out along the top street (1–60) and back along the bottom one (61–120) in groups of five, the
// start holes on the left and the game hole between the streets. Each player has two pegs, front
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
const WIDTH = LEFT + 59 * STEP + 11 * GAP + 22;

function holeX(i) {
  // i: 1..60 along a street, left to right.
  return LEFT + (i - 1) * STEP + Math.floor((i - 1) / 5) * GAP;
}

/** Board geometry for ``lanes`` lanes. */
function geometry(lanes) {
  const topY = 26; // first lane of the top street
  const street = (lanes - 1) * LANE;
  const bottomY = topY + street + 30; // first lane of the bottom street
  const height = bottomY + street + 26;
  return { topY, bottomY, height, middle: (topY + street + bottomY) / 2 };
}

/** Where hole ``n`` (0 start, 1..120, 121 game) of ``lane`` is. */
function holeAt(n, lane, g, lanes, back = false) {
  // Two start holes per lane: both pegs wait there until the lane first scores.
  if (n <= 0) return { x: LEFT - (back ? 34 : 24), y: g.topY + lane * LANE };
  if (n >= GAME_HOLE) return { x: LEFT - 30, y: g.middle };
  if (n <= 60) return { x: holeX(n), y: g.topY + lane * LANE };
  // The bottom street runs right to left; its lanes are mirrored so each lane is one loop.
  return { x: holeX(121 - n), y: g.bottomY + (lanes - 1 - lane) * LANE };
}

// Where each peg was drawn last, so the next drawing can move it from there.
const lastDrawn = new Map();

/**
 * ``lanes``: [{key, label (Node or text), score, previous, colour index, toAct, me}].
 * opts: {id: a name for this board's pegs (remembered positions), animate: bool}
 */
export function renderPegBoard(lanes, opts = {}) {
  const n = Math.max(lanes.length, 2);
  const g = geometry(n);
  const board = [];
  board.push(s("rect", { class: "crib-board__wood", x: 2, y: 2, width: WIDTH - 4, height: g.height - 4, rx: 18 }));
  // The lanes' tinted tracks.
  lanes.forEach((lane, i) => {
    const colour = `crib-lane--c${lane.colour}`;
    const top = g.topY + i * LANE;
    const bottom = g.bottomY + (n - 1 - i) * LANE;
    board.push(s("rect", { class: ["crib-board__track", colour], x: holeX(1) - 6, y: top - 5, width: holeX(60) - holeX(1) + 12, height: 10, rx: 5 }));
    board.push(s("rect", { class: ["crib-board__track", colour], x: holeX(1) - 6, y: bottom - 5, width: holeX(60) - holeX(1) + 12, height: 10, rx: 5 }));
  });
  // Five-hole groups: a faint plate behind each, so the board reads in fives as a real one does.
  for (let group = 0; group < 12; group += 1) {
    const x = holeX(group * 5 + 1) - 5;
    const w = 4 * STEP + 10;
    board.push(s("rect", { class: "crib-board__plate", x, y: g.topY - 8, width: w, height: (n - 1) * LANE + 16, rx: 4 }));
    board.push(s("rect", { class: "crib-board__plate", x, y: g.bottomY - 8, width: w, height: (n - 1) * LANE + 16, rx: 4 }));
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
  const game = holeAt(GAME_HOLE, 0, g, n);
  board.push(s("circle", { class: "crib-board__game-hole", cx: game.x, cy: game.y, r: 4.2 }),
    s("text", { class: "crib-board__mark", x: game.x, y: game.y + 15, "text-anchor": "middle" }, "121"));
  // Every tenth hole numbered; the skunk line after 90 and the double-skunk line after 60.
  for (let ten = 10; ten <= 120; ten += 10) {
    const top = ten <= 60;
    const { x } = holeAt(ten, 0, g, n);
    const y = top ? g.topY - 12 : g.bottomY + (n - 1) * LANE + 18;
    board.push(s("text", { class: "crib-board__mark", x, y, "text-anchor": "middle" }, String(ten)));
  }
  const skunk = (holeX(30) + holeX(31)) / 2;
  board.push(s("line", { class: "crib-board__skunk", x1: skunk, x2: skunk, y1: g.bottomY - 9, y2: g.bottomY + (n - 1) * LANE + 9 }),
    s("text", { class: "crib-board__mark crib-board__mark--skunk", x: skunk, y: g.bottomY - 12, "text-anchor": "middle" }, "skunk"));

  // Pegs: back first, so the front peg is drawn over it when they share a hole.
  const pegs = [];
  lanes.forEach((lane, i) => {
    for (const front of [false, true]) {
      const score = front ? lane.score : lane.previous;
      if (score === null || score === undefined) continue;
      const hole = Math.max(0, Math.min(GAME_HOLE, score));
      const { x, y } = holeAt(hole, i, g, n, !front);
      const id = `${opts.id || "board"}:${lane.key}:${front ? "front" : "back"}`;
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

  const svg = s("svg", { class: "crib-board__svg", viewBox: `0 0 ${WIDTH} ${g.height}`, role: "img",
    "aria-label": `Peg board: ${lanes.map((l) => `${l.name} ${l.score}`).join(", ")}` }, board, pegs);

  const legend = h("ol", { class: "crib-board__legend", dataset: { testid: "score-list" } },
    lanes.map((lane) => h("li", { class: ["crib-score", `crib-lane--c${lane.colour}`, lane.toAct && "crib-score--to-act", lane.me && "crib-score--me"],
      dataset: { testid: "score", lane: lane.key, score: lane.score } },
    h("span", { class: "crib-score__peg", "aria-hidden": "true" }),
    h("span", { class: "crib-score__name" }, lane.label),
    h("strong", { class: "crib-score__points", dataset: { testid: "score-points" } }, String(lane.score)),
    lane.gained ? h("span", { class: "crib-score__gain", title: "Points pegged last" }, `+${lane.gained}`) : null)));

  return h("section", { class: "crib-board", dataset: { testid: "peg-board" }, "aria-label": "Peg board" }, legend,
    h("div", { class: "crib-board__frame" }, svg));
}

function circle(cx, cy, r) {
  return `M${cx - r} ${cy}a${r} ${r} 0 1 0 ${2 * r} 0a${r} ${r} 0 1 0 ${-2 * r} 0Z`;
}
