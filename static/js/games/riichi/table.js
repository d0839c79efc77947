// The riichi table, drawn from an engine view (games/riichi/engine/table.py ``view``): a square of
// felt seen from one seat, play passing counter-clockwise as at a real table: the bottom seat's
// shimocha (who plays next) on the right, toimen across, kamicha on the left. Each seat's river
// (rows of six) lies in front of it and its hand along its edge, drawn in the seat's own frame and
// turned a quarter for each seat round, so melds and sideways tiles face the right way for free.
// The middle holds the round, honba, riichi sticks, tiles left, the dora indicators and each
// seat's wind and score. The bottom seat's hand is under the square, large, and is where a player
// discards. Used by the game page (riichi.js) and the replay page; it never talks to the server.
//
// ``renderTable(view, opts)`` returns a fresh element. opts:
//   who(seat)        Node or text naming a player (with the bot marker)
//   bottom           the position drawn at the bottom (the viewer, or the chosen seat)
//   mine             true when the bottom seat is the viewer's own (labels say "you")
//   toAct            positions the game waits for
//   hand             how the bottom hand behaves (null: not at all): {legal: Set of dapai params
//                    allowed now (riichi mode: without the "*"), mode: "dapai" | "lizhi", busy,
//                    onTile(param)}
//   help             the learner's help under the hand (a Node) or null
//   bar              the decision bar (a Node) laid over the bottom right of the table, or null
//   screen           the hand-end screen (a Node) laid over the whole table, hand included, or null
//   clocks, clocksAt the seats' clocks ([{position, remaining_ms, running, ...}] or null) and when they came
//   ended            after the game: {zhuangfeng, jushu, changbang} of the last hand played, which the
//                    middle shows (the view has moved on to a next round nobody plays), or null

import { h } from "../../dom.js";
import { roundName } from "./names.js";
import { WIND_KANJI, WIND_NAMES, doraOf, isTile, meldEl, parseDiscard, parseHand, tileEl, tileName } from "./tiles.js";
import { points, signed } from "./log.js";

const SIDES = ["bottom", "right", "top", "left"];
const DORA_SLOTS = 5;

// Scores as differences from the bottom seat's (as Mahjong Soul offers by a tap on the middle):
// the player's choice, kept for every table.
const DIFF_KEY = "riichi-score-diff";
function scoreDiff() {
  try {
    return localStorage.getItem(DIFF_KEY) === "1";
  } catch {
    return false;
  }
}
/** Flips the choice for this table at once (both texts are drawn; CSS shows one) and remembers it. */
function toggleScoreDiff(event) {
  const root = event.currentTarget.closest(".rii");
  const on = !root.classList.contains("rii--diff");
  root.classList.toggle("rii--diff", on);
  for (const b of root.querySelectorAll('[data-testid="score-mode"]')) b.setAttribute("aria-pressed", String(on));
  try {
    localStorage.setItem(DIFF_KEY, on ? "1" : "0");
  } catch {
    // private mode: the choice lasts for this page only
  }
}

// ------------------------------------------------------------------ clocks

/** "2:05", "0:09"; never negative. */
export function clockText(ms) {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const minutes = Math.floor(total / 60);
  return `${minutes}:${String(total % 60).padStart(2, "0")}`;
}

/**
 * What else a seat's clock says besides the time left: majiang-server's split ("3 + 20 s": this
 * decision's own seconds and the bank), else any other ``*_ms`` field by its name.
 */
function clockExtras(clock) {
  const s = (ms) => Math.ceil(Math.max(0, ms) / 1000);
  if (typeof clock.per_decision_ms === "number" && typeof clock.bank_ms === "number") {
    return [`${s(clock.per_decision_ms)} + ${s(clock.bank_ms)} s`];
  }
  return Object.entries(clock)
    .filter(([key, value]) => key.endsWith("_ms") && key !== "remaining_ms" && typeof value === "number")
    .map(([key, value]) => `${key.slice(0, -3).replace(/_/g, " ")} ${clockText(value)}`);
}

function clockEl(seat, opts) {
  const clock = opts.clocks ? opts.clocks.find((c) => c.position === seat) : null;
  if (!clock) return null;
  const extras = clockExtras(clock);
  return h("span", { class: ["rii-clock", clock.running && "rii-clock--running", clock.remaining_ms < 10000 && "rii-clock--low"],
    dataset: { testid: "clock", remaining: clock.remaining_ms, at: opts.clocksAt, running: clock.running ? "1" : "0" },
    title: `${clock.running ? "Time left (running)" : "Time left"}${extras.length ? `; ${extras.join(", ")}` : ""}` },
  h("span", { class: "rii-clock__main" }, clockText(clock.remaining_ms)),
  extras.length ? h("span", { class: "rii-clock__extra" }, extras.join(" · ")) : null);
}

// Running clocks count down locally from what the server said and when it said it.
let ticker = null;
function startClockTicker() {
  if (ticker !== null) return;
  ticker = setInterval(() => {
    const now = Date.now();
    for (const el of document.querySelectorAll('.rii-clock[data-running="1"]')) {
      const left = Number(el.dataset.remaining) - (now - Number(el.dataset.at));
      const main = el.querySelector(".rii-clock__main");
      const text = clockText(left);
      if (main && main.textContent !== text) main.textContent = text;
      el.classList.toggle("rii-clock--low", left < 10000);
    }
  }, 250);
}

// ------------------------------------------------------------------ pieces

/** The river: rows of six in discard order, riichi tile sideways, called tiles greyed. */
function river(seat, { last }) {
  const rows = [];
  let row = [];
  // When the riichi tile itself was called, the next discard lies sideways instead (as at a table).
  let sidewaysNext = false;
  seat.he.forEach((text, i) => {
    const d = parseDiscard(text);
    let sideways = false;
    if (d.lizhi && !d.called) sideways = true;
    else if (d.lizhi && d.called) sidewaysNext = true;
    else if (sidewaysNext && !d.called) {
      sideways = true;
      sidewaysNext = false;
    }
    const isLast = last && i === seat.he.length - 1;
    row.push(tileEl(d.code, {
      size: "river", sideways, dim: Boolean(d.called), testid: "river-tile",
      extraClass: [d.tsumogiri && "rii-tile--tsumogiri", isLast && "rii-tile--last"].filter(Boolean).join(" ") || null,
      title: `${tileName(d.code)}${d.lizhi ? " (riichi)" : ""}${d.tsumogiri ? " (tsumogiri)" : ""}${d.called ? " (called)" : ""}`,
      dataset: { tsumogiri: d.tsumogiri ? "true" : null, lizhi: d.lizhi ? "true" : null, called: d.called || null },
    }));
    // Rows of six, and the third row takes the rest (as at Tenhou): a long hand's river grows
    // sideways, past the middle's corner, instead of into the hand across the table.
    if (row.length === 6 && rows.length < 2) {
      rows.push(row);
      row = [];
    }
  });
  if (row.length) rows.push(row);
  return h("div", { class: "rii-river", dataset: { testid: "river", seat: seat.seat, count: seat.he.length } },
    rows.map((r) => h("div", { class: "rii-river__row" }, r)));
}

/** A hand along its edge: concealed tiles (backs unless shown), the drawn tile apart, then melds. */
function edgeHand(seat) {
  const hand = parseHand(seat.shoupai);
  const shown = hand.tiles.some(isTile) || isTile(hand.drawn);
  return h("div", { class: "rii-edge", dataset: { testid: shown ? "hand-revealed" : "hand-backs", count: hand.tiles.length + (hand.drawn ? 1 : 0) } },
    h("span", { class: "rii-edge__tiles" }, hand.tiles.map((t) => tileEl(t, { size: "edge" }))),
    hand.drawn ? h("span", { class: "rii-edge__drawn" }, tileEl(hand.drawn, { size: "edge" })) : null,
    // Melds larger than the backs: what others called is worth reading from across the table.
    h("span", { class: "rii-melds" }, hand.melds.map((m) => meldEl(m, { size: "edge-meld" }))));
}

/** One seat's quarter of the square, drawn as if it sat at the bottom and turned into place. */
function side(seat, rel, opts) {
  return h("div", { class: ["rii-side", `rii-side--${SIDES[rel]}`], dataset: { testid: "seat-side", seat: seat.seat, side: SIDES[rel] } },
    seat.lizhi ? h("span", { class: "rii-stick rii-stick--lizhi", title: "Riichi", dataset: { testid: "riichi-stick" } }) : null,
    river(seat, opts),
    rel === 0 ? null : edgeHand(seat));
}

function seatLabel(seat, rel, view, opts, base) {
  const dealer = seat.menfeng === 0;
  const turn = view.turn === seat.seat && !view.is_over;
  return h("div", { class: ["rii-wind", `rii-wind--${SIDES[rel]}`, dealer && "rii-wind--dealer", turn && "rii-wind--turn"],
    dataset: { testid: "seat-wind", seat: seat.seat } },
  h("span", { class: "rii-wind__en", title: `${WIND_NAMES[seat.menfeng]} (${WIND_KANJI[seat.menfeng]})` }, WIND_NAMES[seat.menfeng][0]),
  h("span", { class: "rii-wind__score rii-wind__score--abs", dataset: { testid: "seat-score" } }, points(seat.defen)),
  h("span", { class: "rii-wind__score rii-wind__score--rel", dataset: { testid: "seat-score-diff" } },
    rel === 0 ? points(seat.defen) : signed(seat.defen - base)),
  seat.lizhi ? h("span", { class: "rii-wind__lizhi", title: "Riichi" }, "R") : null,
  h("span", { class: "visually-hidden" }, `: ${WIND_NAMES[seat.menfeng]} wind${dealer ? " (dealer)" : ""}, ${textOf(opts.who(seat.seat))}`));
}

/** The dead wall's indicators (face down until turned) and, beside them, the dora each points at. */
function doraBox(view) {
  const baopai = view.baopai || [];
  const dora = [];
  for (let i = 0; i < Math.max(DORA_SLOTS, baopai.length); i += 1) {
    dora.push(i < baopai.length ? tileEl(baopai[i], { size: "dora", testid: "dora-indicator" }) : tileEl("_", { size: "dora", testid: "dead-wall" }));
  }
  const named = baopai.filter(isTile).map((t) => tileName(doraOf(t)));
  return h("div", { class: "rii-dora", title: "Dora indicators: the dora is the next tile after each", dataset: { testid: "dora" } },
    h("span", { class: "rii-dora__tiles" }, dora),
    h("span", { class: "rii-dora__names", dataset: { testid: "dora-names" } },
      h("span", { class: "rii-dora__label" }, "Dora"), " ", named.join(", ") || "–"));
}

/** The middle: the round, honba and sticks, tiles left, and every wind with its score. */
function centre(view, seats, rel, opts, bottom) {
  // After the game the view has moved on to a round nobody plays: the last one played is shown.
  const round = view.is_over && opts.ended ? opts.ended : view;
  const [ja, en] = roundName(round.zhuangfeng, round.jushu);
  const diff = scoreDiff();
  return h("div", { class: "rii-centre", dataset: { testid: "centre" }, onclick: toggleScoreDiff,
    title: "Click: scores as they are, or as differences from yours" },
    seats.map((seat) => seatLabel(seat, rel(seat), view, opts, bottom.defen)),
    h("div", { class: "rii-centre__info" },
      h("div", { class: "rii-round", dataset: { testid: "round", zhuangfeng: round.zhuangfeng, jushu: round.jushu } },
        h("span", { class: "rii-round__ja", lang: "ja" }, ja), " ", h("span", { class: "rii-round__en" }, en)),
      h("div", { class: "rii-counters" },
        h("span", { class: "rii-counter", title: "Honba (repeat counters): +300 points per win", dataset: { testid: "honba", count: round.changbang } },
          h("span", { class: "rii-counter__icon rii-counter__icon--honba", "aria-hidden": "true" }), `×${round.changbang || 0}`,
          h("span", { class: "visually-hidden" }, " honba")),
        h("span", { class: "rii-counter", title: "Riichi sticks on the table (1,000 points each)", dataset: { testid: "riichi-sticks", count: view.lizhibang } },
          h("span", { class: "rii-counter__icon rii-counter__icon--lizhi", "aria-hidden": "true" }), `×${view.lizhibang || 0}`,
          h("span", { class: "visually-hidden" }, " riichi sticks"))),
      h("div", { class: "rii-left", title: "Tiles left in the wall", dataset: { testid: "tiles-left", count: view.paishu ?? "" } },
        h("span", { class: "rii-left__n" }, String(view.paishu ?? "–")), " left"),
      // A real button for the keyboard and screen readers; a click anywhere on the middle does the same.
      h("button", { type: "button", class: "rii-score-mode", "aria-pressed": String(diff), dataset: { testid: "score-mode" },
        title: "Scores as differences from yours", "aria-label": "Show scores as differences from yours",
        onclick: (event) => {
          event.stopPropagation(); // the middle's own click would flip it back
          toggleScoreDiff(event);
        } }, "±")));
}

function plaque(seat, rel, opts) {
  const toAct = opts.toAct.includes(seat.seat);
  return h("div", { class: ["rii-plate", `rii-plate--${SIDES[rel]}`, toAct && "rii-plate--to-act", seat.menfeng === 0 && "rii-plate--dealer"],
    dataset: { testid: "seat-plate", seat: seat.seat } },
  h("span", { class: "rii-plate__name" }, opts.who(seat.seat)),
  h("span", { class: "rii-plate__meta" },
    h("span", { class: "rii-plate__wind" }, h("span", { lang: "ja", "aria-hidden": "true" }, WIND_KANJI[seat.menfeng]), ` ${WIND_NAMES[seat.menfeng]}`),
    seat.menfeng === 0 ? h("span", { class: "rii-badge rii-badge--dealer", title: "Dealer (親)", dataset: { testid: "dealer" } }, "Dealer") : null,
    seat.lizhi ? h("span", { class: "rii-badge rii-badge--lizhi", dataset: { testid: "riichi-badge" } }, "Riichi") : null,
    toAct ? h("span", { class: "rii-badge rii-badge--turn" }, "to act") : null,
    clockEl(seat.seat, opts)));
}

/** The bottom seat's hand, large, under the square: the player's own tiles (clickable on turn). */
function bottomHand(seat, opts) {
  const hand = parseHand(seat.shoupai);
  const cfg = opts.hand;
  const tileButton = (code, param, i, drawn) => {
    if (!cfg || !isTile(code)) return tileEl(code, { size: "mine", testid: "hand-tile", extraClass: drawn ? "rii-tile--drawn" : null, dataset: { index: i } });
    const live = cfg.legal.has(param) && !cfg.busy;
    return tileEl(code, {
      size: "mine", testid: "hand-tile", key: `hand-${i}`, legal: live && cfg.mode === "lizhi", dim: !live,
      extraClass: [drawn && "rii-tile--drawn", live && "rii-tile--live"].filter(Boolean).join(" "),
      title: `${tileName(code)}${live ? (cfg.mode === "lizhi" ? ": discard for riichi" : ": discard") : ""}`,
      disabled: !live, onclick: live ? () => cfg.onTile(param) : null,
      dataset: { index: i, param, legal: live ? "true" : "false", drawn: drawn ? "true" : null },
    });
  };
  const tiles = hand.tiles.map((code, i) => tileButton(code, code, i, false));
  const drawn = hand.drawn ? tileButton(hand.drawn, `${hand.drawn}_`, hand.tiles.length, true) : null;
  return h("div", { class: ["rii-hand", cfg && !cfg.busy && "rii-hand--live", cfg?.mode === "lizhi" && "rii-hand--lizhi"],
    dataset: { testid: "my-hand", mode: cfg?.mode || "" } },
  h("div", { class: "rii-hand__tiles", dataset: { testid: "hand" } }, tiles,
    drawn ? h("span", { class: "rii-hand__drawn" }, drawn) : null),
  hand.melds.length ? h("div", { class: "rii-melds rii-melds--mine", dataset: { testid: "my-melds" } }, hand.melds.map((m) => meldEl(m, { size: "mine-meld" }))) : null);
}

function bottomHead(seat, view, opts) {
  const toAct = opts.toAct.includes(seat.seat);
  return h("div", { class: ["rii-me__head", toAct && "rii-me__head--to-act"], dataset: { testid: "seat-plate", seat: seat.seat } },
    h("span", { class: "rii-plate__name" }, opts.who(seat.seat), opts.mine ? h("span", { class: "tag tag--you" }, "you") : null),
    h("span", { class: "rii-plate__wind" }, h("span", { lang: "ja", "aria-hidden": "true" }, WIND_KANJI[seat.menfeng]), ` ${WIND_NAMES[seat.menfeng]}`),
    seat.menfeng === 0 ? h("span", { class: "rii-badge rii-badge--dealer", dataset: { testid: "dealer" } }, "Dealer") : null,
    seat.lizhi ? h("span", { class: "rii-badge rii-badge--lizhi", dataset: { testid: "riichi-badge" } }, "Riichi") : null,
    toAct ? h("span", { class: "rii-badge rii-badge--turn" }, opts.mine ? "your move" : "to act") : null,
    clockEl(seat.seat, opts),
    opts.help || null);
}

function textOf(node) {
  return typeof node === "string" ? node : node && node.textContent ? node.textContent : "";
}

// ------------------------------------------------------------------ the whole table

export function renderTable(view, opts) {
  const o = { who: (seat) => `seat ${seat + 1}`, bottom: null, mine: false, toAct: [], hand: null, help: null, bar: null, screen: null,
    clocks: null, clocksAt: Date.now(), ended: null, ...opts };
  if (o.clocks) startClockTicker();
  const seats = Array.isArray(view.seats) ? view.seats : [];
  const root = h("div", { class: ["rii", view.is_over && "rii--over", scoreDiff() && "rii--diff"], dataset: { testid: "riichi-table", status: view.status || "" } });
  if (!seats.length) {
    root.append(h("div", { class: "rii-pond rii-pond--empty" }, h("p", { class: "board__note" }, "The tiles are about to be dealt…")));
    return root;
  }
  const bottom = seats.find((s) => s.seat === o.bottom) || seats[0];
  const rel = (seat) => (seat.menfeng - bottom.menfeng + 4) % 4;
  // The last discard glows while the others may still call it.
  const lastSeat = view.status === "dapai" ? view.turn : null;
  const pond = h("div", { class: "rii-pond", dataset: { testid: "pond" } },
    h("div", { class: "rii-pond__square" },
      seats.map((seat) => side(seat, rel(seat), { last: seat.seat === lastSeat })),
      centre(view, seats, rel, o, bottom),
      // The top left corner: the player across, and under their plate the dead wall.
      h("div", { class: "rii-corner" }, seats.filter((seat) => rel(seat) === 2).map((seat) => plaque(seat, 2, o)), doraBox(view)),
      seats.filter((seat) => seat !== bottom && rel(seat) !== 2).map((seat) => plaque(seat, rel(seat), o))));
  // The decision bar shares a slot with the player's name plate, between the table and the hand:
  // on a phone it lies over the plate there (never over the river or the hand); on a wide felt
  // riichi.css lifts it into the table's bottom right, beside the player's river. The hand's
  // result lies over the whole of it, table and hand.
  root.append(h("div", { class: "rii-stage" }, pond),
    h("div", { class: "rii-me", dataset: { testid: "bottom-seat", seat: bottom.seat } },
      h("div", { class: ["rii-me__top", o.bar && "rii-me__top--bar"] }, bottomHead(bottom, view, o), o.bar),
      bottomHand(bottom, o)),
    o.screen || "");
  return root;
}
