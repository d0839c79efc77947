// The cribbage table, drawn from an engine view (docs/cribbage-engine.md, "View") and the history:
// the other players round the top with their hands face down and the cards they have played, the
// deck with the starter, the play area with the running count, the crib by the dealer, the
// 121-hole peg board, the viewer's own hand at the bottom, and the show (each hand's itemised
// score). Used by the game page (cribbage.js) and the replay page; it never talks to the server.
//
// ``renderTable(view, opts)`` returns a fresh element. opts:
//   who(seat)        Node or text naming a player (with the bot marker)
//   position         the viewer's seat, or null (spectator, replay)
//   toAct            seats the game waits for
//   history          the messages so far (the show, the back pegs and the last play come from it)
//   hand             how the viewer's hand behaves now (null: not at all): {mode: "discard" |
//                    "play" | "manual" | null, legal: Set of playable cards, count (cards to lay
//                    away), pickKey, busy, onDiscard(cards), onPlay(card), onManualPlay(card, points)}
//   boardId          a name for the peg board's remembered peg positions
//   clocks, clocksAt the seats' clocks ([{position, remaining_ms, running}] or null) and when they came

import { h, replaceChildrenKeepingFocus } from "../../dom.js";
import { cardEl, isCard, longName, miniCards, shortName, sortCards } from "./cards.js";
import { pointsStepper, possessive, touchScreen } from "./controls.js";
import { itemName, sayItems } from "./log.js";
import { renderPegBoard } from "./pegboard.js";
import { clear, listen, picked, toggle } from "./selection.js";

// ------------------------------------------------------------------ the view, normalised

/** One card of the current play (the view's ``[seat, card]``) as {seat, card}. */
function playEntry(entry) {
  return Array.isArray(entry) ? { seat: entry[0], card: entry[1] } : { seat: null, card: entry };
}

/** The cards ``seat`` has played this hand. */
function playedBy(view, seat) {
  return Array.isArray(view.played) ? (view.played[seat] || []).filter(isCard) : [];
}

/** The seat count. */
function seatCount(view) {
  if (typeof view.seats === "number") return view.seats;
  for (const key of ["hand_sizes", "scores", "played"]) if (Array.isArray(view[key])) return view[key].length;
  return 2;
}

/** The 2 vs 2 mode: partners (seat % 2) score together. */
export function teamMode(view) {
  return Boolean(view.teams) || Array.isArray(view.team_scores);
}

/** The scoring sides: one per seat, or one per partnership in the 2 vs 2 mode. */
export function sides(view) {
  const seats = seatCount(view);
  if (teamMode(view)) {
    const scores = Array.isArray(view.team_scores) ? view.team_scores : [0, 1].map((t) => (view.scores || [])[t] ?? 0);
    return scores.map((score, team) => ({ key: `t${team}`, team, seats: [...Array(seats).keys()].filter((s) => s % 2 === team), score }));
  }
  return [...Array(seats).keys()].map((seat) => ({ key: `s${seat}`, team: null, seats: [seat], score: (view.scores || [])[seat] ?? 0 }));
}

export function sideOf(view, seat) {
  return teamMode(view) ? seat % 2 : seat;
}

/** The scores each side has had, oldest first, from the history (for the back pegs). */
export function scoreTrail(history, view) {
  const team = teamMode(view);
  const side = (seat) => (team ? seat % 2 : seat);
  const trails = new Map();
  let lastGain = null;
  const add = (seat, score) => {
    if (typeof seat !== "number" || typeof score !== "number") return;
    const key = side(seat);
    if (!trails.has(key)) trails.set(key, [0]);
    const trail = trails.get(key);
    if (trail[trail.length - 1] !== score) {
      lastGain = { side: key, points: score - trail[trail.length - 1] };
      trail.push(score);
    }
  };
  let claimer = null;
  for (const m of history || []) {
    const p = m.params || [];
    switch (m.type) {
      case "HisHeels": add(m.player, p[1]); break;
      case "Played": add(m.player, p[2]); break;
      case "GoPoint": add(m.player, p[1]); break;
      case "Counted": add(m.player, p[1]); break;
      case "Muggins": claimer = p[0]; break;
      case "MugginsResult": add(claimer, p[1]); add(m.player, p[2]); break;
      default: break;
    }
  }
  return { trails, lastGain };
}

// ------------------------------------------------------------------ the show

function itemRow(item) {
  const [, points, cards] = item;
  return h("tr", { class: "crib-items__row", dataset: { testid: "show-item", item: item[0] } },
    h("th", { scope: "row" }, itemName(item)),
    h("td", {}, miniCards(cards || [])),
    h("td", { class: "num" }, String(points)));
}

/**
 * One hand or crib of the show. ``show``: {seat, what, cards, starter} and, once counted,
 * {points, items, claimed} (the true count and what was claimed: they differ only in manual
 * counting), or ``state``: "counting" (its owner is to count) or "claimed" (the table is to agree).
 */
function showHand(show, opts) {
  const crib = show.what === "crib";
  const cards = sortCards((show.cards || []).filter(isCard));
  const counted = typeof show.points === "number";
  const claimed = typeof show.claimed === "number" ? show.claimed : null;
  let badge;
  if (counted) badge = h("span", { class: "crib-show__points", dataset: { testid: "show-points" } }, String(claimed ?? show.points));
  else if (show.state === "claimed") badge = h("span", { class: "crib-show__pending" }, `claims ${claimed}`);
  else badge = h("span", { class: "crib-show__pending" }, "counting…");
  return h("article", { class: ["crib-show__hand", crib && "crib-show__hand--crib"], dataset: { testid: "show-hand", seat: show.seat, kind: show.what } },
    h("h4", { class: "crib-show__title" }, h("span", {}, possessive(opts.who(show.seat)), crib ? " crib" : " hand"), badge),
    h("div", { class: "crib-show__cards" }, cards.map((c) => cardEl(c, { size: "small" })),
      isCard(show.starter) ? h("span", { class: "crib-show__plus", "aria-hidden": "true" }, "+") : null,
      isCard(show.starter) ? cardEl(show.starter, { size: "small", extraClass: "crib-card--starter", title: "The starter" }) : null),
    counted && show.items && show.items.length
      ? h("table", { class: "crib-items", dataset: { testid: "show-items" } },
        h("caption", { class: "visually-hidden" }, "Itemised score"),
        h("tbody", {}, show.items.map(itemRow)),
        h("tfoot", {}, h("tr", {}, h("th", { scope: "row", colspan: "2" }, "Total"), h("td", { class: "num" }, String(show.points)))))
      : null,
    counted ? h("p", { class: "crib-show__said" }, `“${sayItems(show.items)}”`) : null,
    counted && claimed !== null && claimed !== show.points
      ? h("p", { class: "crib-show__muggins", dataset: { testid: "show-miscount" } }, `Pegged ${claimed}; the true count was ${show.points}.`)
      : null);
}

function renderShow(view, opts) {
  const shows = Array.isArray(view.shows) ? view.shows.map((s) => ({ ...s })) : [];
  const claim = view.claim && view.claim.kind !== "play" ? view.claim : null;
  if (claim) shows.push({ seat: claim.seat, what: claim.kind, cards: claim.cards, starter: claim.starter, claimed: claim.claimed, state: "claimed" });
  if (view.showing) shows.push({ ...view.showing, state: "counting" });
  if (!shows.length) return null;
  // Between hands the last show stays on the table until the next play begins.
  if (!["show", "over", "discard"].includes(view.phase)) return null;
  const history = opts.history || [];
  const lastIndex = (type) => history.map((m) => m.type).lastIndexOf(type);
  const now = view.phase === "show" || (view.phase === "over" && lastIndex("Show") > lastIndex("Deal"));
  const title = now ? "The show" : "Last hand’s show";
  return h("section", { class: "crib-show", dataset: { testid: "show", current: now ? "true" : "false" }, "aria-label": title },
    h("h3", { class: "crib-show__heading" }, title),
    h("div", { class: "crib-show__hands" }, shows.map((show) => showHand(show, opts))));
}

// ------------------------------------------------------------------ seats

function fanOfBacks(count, size = "small") {
  return h("div", { class: "crib-fan crib-fan--backs", dataset: { testid: "hand-backs", count } },
    Array.from({ length: count }, () => cardEl(null, { size })));
}

function playedRow(cards, size = "small") {
  if (!cards || !cards.length) return null;
  return h("div", { class: "crib-played", dataset: { testid: "played-cards" }, title: "Played this hand" },
    cards.map((card) => cardEl(card, { size, extraClass: "crib-card--played" })));
}

/** "2:05", "1:02:05"; never negative. */
function clockText(ms) {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = String(total % 60).padStart(2, "0");
  return hours ? `${hours}:${String(minutes).padStart(2, "0")}:${seconds}` : `${minutes}:${seconds}`;
}

function clockEl(seat, opts) {
  const clock = opts.clocks ? opts.clocks.find((c) => c.position === seat) : null;
  if (!clock) return null;
  return h("span", { class: ["crib-clock", clock.running && "crib-clock--running", clock.remaining_ms < 30000 && "crib-clock--low"],
    dataset: { testid: "clock", remaining: clock.remaining_ms, at: opts.clocksAt, running: clock.running ? "1" : "0" },
    title: clock.running ? "Time left (running)" : "Time left" }, clockText(clock.remaining_ms));
}

// Running clocks count down locally from what the server said and when it said it.
let ticker = null;
function startClockTicker() {
  if (ticker !== null) return;
  ticker = setInterval(() => {
    const now = Date.now();
    for (const el of document.querySelectorAll('.crib-clock[data-running="1"]')) {
      const left = Number(el.dataset.remaining) - (now - Number(el.dataset.at));
      const text = clockText(left);
      if (el.textContent !== text) el.textContent = text;
      el.classList.toggle("crib-clock--low", left < 30000);
    }
  }, 250);
}

function seatTags(view, seat, opts) {
  const toAct = opts.toAct.includes(seat);
  const dealer = view.dealer === seat;
  return [
    dealer ? h("span", { class: "crib-dealer", title: "Dealer: the crib is theirs", dataset: { testid: "dealer-chip" } }, "D") : null,
    toAct ? h("span", { class: "tag tag--turn" }, "to act") : null,
    view.active === seat && view.phase === "play" && !toAct ? h("span", { class: "tag" }, "next") : null,
    clockEl(seat, opts),
  ];
}

function sideScore(view, seat) {
  const side = sides(view)[sideOf(view, seat)];
  return side ? side.score : 0;
}

function playerArea(view, seat, opts) {
  const hands = Array.isArray(view.hands) ? view.hands : null;
  const known = hands && Array.isArray(hands[seat]) && hands[seat].some(isCard) ? hands[seat] : null;
  const size = Array.isArray(view.hand_sizes) ? view.hand_sizes[seat] ?? 0 : known ? known.length : 0;
  const played = playedBy(view, seat);
  const team = teamMode(view) ? seat % 2 : null;
  return h("section", { class: ["crib-seat", opts.toAct.includes(seat) && "crib-seat--to-act", `crib-lane--c${sideOf(view, seat)}`],
    dataset: { testid: "crib-seat", seat } },
  h("header", { class: "crib-seat__head" },
    h("span", { class: "crib-seat__peg", "aria-hidden": "true" }),
    h("span", { class: "crib-seat__name" }, opts.who(seat)),
    team !== null ? h("span", { class: "tag" }, team === sideOf(view, opts.position ?? -1) && opts.position !== seat ? "partner" : `team ${team + 1}`) : null,
    seatTags(view, seat, opts),
    h("span", { class: "crib-seat__score", title: "Score", dataset: { testid: "seat-score" } }, String(sideScore(view, seat)))),
  h("div", { class: "crib-seat__cards" },
    known ? h("div", { class: "crib-fan", dataset: { testid: "hand-revealed" } }, sortCards(known).map((c) => cardEl(c, { size: "small" })))
      : size ? fanOfBacks(size) : h("span", { class: "crib-seat__empty" }, "no cards in hand"),
    playedRow(played)));
}

// ------------------------------------------------------------------ the middle of the table

function deckAndStarter(view) {
  return h("div", { class: "crib-deck", dataset: { testid: "starter" } },
    h("div", { class: "crib-deck__stack" },
      cardEl(null, { size: "medium", extraClass: "crib-card--deck" }),
      isCard(view.starter) ? cardEl(view.starter, { size: "medium", extraClass: "crib-card--starter", testid: "starter-card" }) : null),
    h("span", { class: "crib-label" }, isCard(view.starter) ? "Starter" : "Deck"));
}

function cribPile(view, opts) {
  const count = typeof view.crib_size === "number" ? view.crib_size : 0;
  const known = Array.isArray(view.crib) && view.crib.some(isCard) ? view.crib : null;
  return h("div", { class: "crib-crib", dataset: { testid: "crib", count } },
    h("div", { class: "crib-crib__pile" },
      known ? sortCards(known).map((c) => cardEl(c, { size: "small" }))
        : count ? Array.from({ length: count }, (_, i) => cardEl(null, { size: "small", extraClass: `crib-card--stack crib-card--stack${i}` }))
          : h("span", { class: "crib-crib__empty" }, "empty")),
    cribLabel(view, opts));
}

/** Whose crib: "Your crib" for the viewer (short enough for a phone's narrow column), else the name's. */
function cribLabel(view, opts) {
  if (typeof view.dealer !== "number") return h("span", { class: "crib-label" }, "The crib");
  if (view.dealer === opts.position) return h("span", { class: "crib-label" }, "Your crib");
  return h("span", { class: "crib-label crib-label--owner" }, possessive(opts.who(view.dealer)), " crib");
}

function playArea(view, opts) {
  const play = (Array.isArray(view.play) ? view.play : []).map(playEntry);
  const count = typeof view.count === "number" ? view.count : 0;
  const lastPlay = [...(opts.history || [])].reverse().find((m) => m.type === "Played" || m.type === "Deal" || m.type === "CountReset" || m.type === "Go" || m.type === "GoPoint");
  let note = null;
  if (lastPlay && lastPlay.type === "Played" && lastPlay.params[1] > 0) {
    const items = lastPlay.params[4];
    note = h("span", { class: "crib-play__note", dataset: { testid: "last-peg" } }, opts.who(lastPlay.player),
      Array.isArray(items) && items.length ? ` pegged ${lastPlay.params[1]}: ${sayItems(items)}` : ` claims ${lastPlay.params[1]}`);
  } else if (lastPlay && lastPlay.type === "GoPoint") {
    note = h("span", { class: "crib-play__note", dataset: { testid: "last-peg" } }, opts.who(lastPlay.player), ` pegged 1 for ${lastPlay.params[2] === "last card" ? "the last card" : "the go"}`);
  } else if (lastPlay && lastPlay.type === "Go") {
    note = h("span", { class: "crib-play__note" }, opts.who(lastPlay.player), " says go");
  }
  const inPlay = ["play", "pegging"].includes(view.phase) || play.length > 0;
  const pile = playPile(view, play, inPlay, opts);
  return h("div", { class: ["crib-play", inPlay && "crib-play--live"], dataset: { testid: "play-area" } },
    h("div", { class: "crib-count", dataset: { testid: "count", count }, title: "The running count" },
      h("span", { class: "crib-count__label" }, "Count"),
      h("strong", { class: "crib-count__value" }, String(count)),
      h("span", { class: "crib-count__max" }, "of 31")),
    pile,
    note);
}

function playPile(view, play, inPlay, opts) {
  const pile = h("div", { class: "crib-play__pile" },
    play.length
      ? play.map((e, i) => h("div", { class: ["crib-play__card", `crib-lane--c${typeof e.seat === "number" ? sideOf(view, e.seat) : 0}`],
        style: { zIndex: i + 1 }, dataset: { testid: "play-card", seat: e.seat ?? "" } },
      cardEl(e.card, { size: "medium" }),
      typeof e.seat === "number" ? h("span", { class: "crib-play__who" }, opts.who(e.seat)) : null))
      : h("p", { class: "crib-play__empty" }, inPlay ? "No cards in this count yet" : phaseNote(view)));
  // The cards in the count, for their overlap on a narrow table (cribbage.css).
  pile.style.setProperty("--n", String(Math.max(play.length, 1)));
  return pile;
}

function phaseNote(view) {
  switch (view.phase) {
    case "discard": return "Each player lays cards away to the crib";
    case "show": return "The show: hands are counted";
    case "over": return "Final";
    default: return "";
  }
}

// ------------------------------------------------------------------ the viewer's hand

/**
 * The viewer's hand, and the bar under it that sends what was picked: the cards laid away to the
 * crib, or (manual counting) the card played with the points claimed. Those controls sit by the
 * hand rather than in the action panel, so picking and sending never needs a scroll.
 */
function myHand(view, opts, root) {
  const cfg = opts.hand || {};
  const cards = sortCards(Array.isArray(view.hand) ? view.hand : []);
  const wrap = h("section", { class: ["crib-me", cfg.mode && "crib-me--turn", `crib-lane--c${sideOf(view, opts.position)}`],
    dataset: { testid: "my-hand" }, "aria-label": "Your hand" });
  // One stepper for the whole decision: picking another card must not reset the points.
  const stepper = cfg.mode === "manual" ? pointsStepper({ testid: "claim", label: "Points you peg", busy: cfg.busy }) : null;
  const played = playedBy(view, opts.position);
  const draw = () => {
    const picking = cfg.mode === "discard" || cfg.mode === "manual";
    const chosen = picking ? picked(cfg.pickKey).filter((c) => cards.includes(c)) : [];
    const max = cfg.mode === "discard" ? cfg.count : 1;
    let hint = "";
    if (cfg.mode === "discard") hint = `Pick ${max} ${max === 1 ? "card" : "cards"} to lay away to ${view.dealer === opts.position ? "your" : "the dealer’s"} crib`;
    else if (cfg.mode === "play") hint = `${touchScreen() ? "Tap" : "Click"} a highlighted card to play it (count ${view.count ?? 0})`;
    else if (cfg.mode === "manual") hint = `Pick a card, say what it pegs, and play it (count ${view.count ?? 0})`;
    const handCards = cards.map((card) => {
      const legal = cfg.mode === "discard" || (cfg.legal ? cfg.legal.has(card) : false);
      const selected = chosen.includes(card);
      let onclick = null;
      if (!cfg.busy && picking && legal) onclick = () => toggle(cfg.pickKey, card, max);
      else if (!cfg.busy && cfg.mode === "play" && legal) onclick = () => cfg.onPlay(card);
      return cardEl(card, { size: "large", onclick, legal: Boolean(onclick), selected, pressable: picking,
        testid: "hand-card", key: `hand-${card}`, dim: cfg.mode && cfg.mode !== "discard" && !legal,
        label: `${onclick ? (picking ? (selected ? "Unpick " : "Pick ") : "Play ") : ""}${longName(card)}` });
    });
    let bar = null;
    if (cfg.mode === "discard") {
      const ready = chosen.length === max;
      bar = h("div", { class: "crib-bar", dataset: { testid: "discard-bar" } },
        h("span", { class: "crib-bar__slots", dataset: { testid: "discard-picks" } },
          Array.from({ length: max }, (_, i) => (chosen[i] ? cardEl(chosen[i], { size: "tiny" }) : h("span", { class: "crib-slot", role: "img", "aria-label": "empty slot" })))),
        h("button", { type: "button", class: "btn btn--brass", disabled: cfg.busy || !ready,
          dataset: { testid: "discard-button", action: "discard", key: "discard" },
          onclick: () => {
            const now = picked(cfg.pickKey).filter((c) => cards.includes(c));
            if (now.length === max) cfg.onDiscard(now);
          } }, ready ? `Lay away ${chosen.map(shortName).join(" and ")}` : `Pick ${max - chosen.length} more`),
        chosen.length ? h("button", { type: "button", class: "btn btn--ghost btn--small", dataset: { key: "discard-clear", testid: "discard-clear" },
          onclick: () => clear() }, "Clear") : null);
    } else if (cfg.mode === "manual") {
      bar = h("div", { class: "crib-bar", dataset: { testid: "play-bar" } },
        stepper,
        h("button", { type: "button", class: "btn btn--brass", disabled: cfg.busy || !chosen[0],
          dataset: { testid: "play-button", action: "play", key: "play" },
          onclick: () => {
            const card = picked(cfg.pickKey).find((c) => cards.includes(c));
            if (card) cfg.onManualPlay(card, stepper.value());
          } }, chosen[0] ? `Play ${shortName(chosen[0])}` : "Pick a card"));
    }
    const handEl = h("div", { class: ["crib-hand", cfg.mode && !cfg.busy && "crib-hand--live"], dataset: { testid: "hand" } },
      handCards.length ? handCards : h("p", { class: "crib-hand__empty" }, played.length ? "All your cards are played" : "No cards in hand"));
    // The cards in hand, for the overlap that fits them all on a narrow screen (cribbage.css).
    handEl.style.setProperty("--n", String(Math.max(handCards.length, 1)));
    replaceChildrenKeepingFocus(wrap, [
      h("header", { class: "crib-seat__head crib-me__head" },
        h("span", { class: "crib-seat__peg", "aria-hidden": "true" }),
        h("span", { class: "crib-seat__name" }, opts.who(opts.position)),
        h("span", { class: "tag tag--you" }, "you"),
        seatTags(view, opts.position, opts),
        h("span", { class: "crib-seat__score", title: "Score", dataset: { testid: "seat-score" } }, String(sideScore(view, opts.position))),
        hint ? h("span", { class: "crib-me__hint", dataset: { testid: "hand-hint" } }, hint) : null),
      h("div", { class: "crib-me__row" },
        handEl,
        bar,
        played.length ? h("div", { class: "crib-me__played" }, h("span", { class: "crib-label" }, "Played"), playedRow(played)) : null),
    ]);
  };
  draw();
  listen("hand", cfg.mode === "discard" || cfg.mode === "manual" ? () => { if (root.isConnected) draw(); } : null);
  return wrap;
}

// ------------------------------------------------------------------ the whole table

export function renderTable(view, opts) {
  const full = { position: null, toAct: [], history: [], hand: null, boardId: "live", clocks: null, clocksAt: Date.now(),
    who: (seat) => `seat ${seat + 1}`, ...opts };
  if (full.clocks) startClockTicker();
  const n = seatCount(view);
  const me = typeof full.position === "number" ? full.position : null;
  // The others clockwise from the viewer's left; a spectator sees every seat across the top.
  const others = [];
  for (let i = 1; i <= n; i += 1) {
    const seat = ((me ?? -1) + i + n) % n;
    if (seat !== me) others.push(seat);
  }
  if (me === null) others.sort((a, b) => a - b);

  const { trails, lastGain } = scoreTrail(full.history, view);
  const lanes = sides(view).map((side, i) => {
    const trail = trails.get(i) || [0];
    const last = trail[trail.length - 1];
    const previous = last === side.score ? trail[trail.length - 2] ?? 0 : last;
    return {
      key: side.key,
      colour: i,
      score: side.score,
      previous: Math.min(previous, side.score),
      gained: lastGain && lastGain.side === i ? lastGain.points : null,
      toAct: side.seats.some((seat) => full.toAct.includes(seat)),
      me: me !== null && side.seats.includes(me),
      name: side.seats.map((seat) => textOf(full.who(seat))).join(" & "),
      label: side.seats.map((seat, j) => [j ? " & " : null, full.who(seat)]),
    };
  });

  const root = h("div", { class: ["crib", `crib--${n}`, view.paused && "crib--paused"], dataset: { testid: "cribbage-table", phase: view.phase || "" } });
  // The hand comes straight after the middle of the table, so picking cards and pressing
  // "Lay away" fit on one screen; the peg board follows.
  const parts = [
    h("div", { class: "crib-others" }, others.map((seat) => playerArea(view, seat, full))),
    h("div", { class: "crib-middle" }, deckAndStarter(view), playArea(view, full), cribPile(view, full)),
    me !== null ? myHand(view, full, root) : null,
    renderPegBoard(lanes, { id: full.boardId }),
    renderShow(view, full),
    view.paused ? h("div", { class: "crib-paused", dataset: { testid: "paused" }, role: "status" },
      h("strong", {}, "Paused"), typeof view.paused_by === "number" ? h("span", {}, "by ", full.who(view.paused_by)) : null) : null,
  ];
  root.append(...parts.filter(Boolean));
  return root;
}

function textOf(node) {
  return typeof node === "string" ? node : node && node.textContent ? node.textContent : "";
}
