// Acquire basics shared by the game page and the replay page: tiles, chains, money, prices and
// scoring, all mirroring games/acquire/engine/ (board.py, chains.py, scoring.py).
//
// Nothing here touches the server; everything is a pure function of the engine's view.

import { h } from "../../dom.js";

export const COLUMNS = 12;
export const ROWS = 9;
export const NUM_TILES = COLUMNS * ROWS;
export const ROW_LETTERS = "ABCDEFGHI";
export const SAFE_SIZE = 11;
export const END_SIZE = 41;

// Chain numbers are the engine's: 0 Luxor … 6 Imperial. Each chain's initial is unique, so it
// doubles as a short label where a full name does not fit.
export const CHAINS = [
  { name: "Luxor", key: "luxor", tier: 0 },
  { name: "Tower", key: "tower", tier: 0 },
  { name: "American", key: "american", tier: 1 },
  { name: "Festival", key: "festival", tier: 1 },
  { name: "Worldwide", key: "worldwide", tier: 1 },
  { name: "Continental", key: "continental", tier: 2 },
  { name: "Imperial", key: "imperial", tier: 2 },
];

export const TEAM_NAMES = ["Red", "Blue", "Gold"];

export function chainName(chain) {
  return CHAINS[chain]?.name ?? `chain ${chain}`;
}

/** 0 -> "1A", 8 -> "1I", 9 -> "2A", 107 -> "12I" (column-major, as the engine and the review). */
export function tileName(tile) {
  if (tile === null || tile === undefined) return "?";
  return `${Math.floor(tile / ROWS) + 1}${ROW_LETTERS[tile % ROWS]}`;
}

export function tileColumn(tile) {
  return Math.floor(tile / ROWS);
}

export function tileRow(tile) {
  return tile % ROWS;
}

export function neighbours(tile) {
  const column = tileColumn(tile);
  const row = tileRow(tile);
  const found = [];
  if (column > 0) found.push(tile - ROWS);
  if (row > 0) found.push(tile - 1);
  if (row < ROWS - 1) found.push(tile + 1);
  if (column < COLUMNS - 1) found.push(tile + ROWS);
  return found;
}

/** The chains next to ``tile`` on ``board`` (the view's list of cells), in chain order. */
export function adjacentChains(board, tile) {
  const chains = new Set();
  for (const n of neighbours(tile)) if (typeof board[n] === "number") chains.add(board[n]);
  return [...chains].sort((a, b) => a - b);
}

const DOLLARS = new Intl.NumberFormat("en-US");

export function money(amount) {
  if (amount === null || amount === undefined) return "—";
  return `${amount < 0 ? "−" : ""}$${DOLLARS.format(Math.abs(amount))}`;
}

/** One share's price: chains.py's table (0 when the chain is not on the board). */
export function sharePrice(chain, size) {
  if (size <= 0) return 0;
  const base = size < SAFE_SIZE ? Math.min(size, 6) * 100 : Math.min(Math.floor((size - 1) / 10) + 6, 10) * 100;
  return base + 100 * CHAINS[chain].tier;
}

function roundUp100(amount, ways) {
  return Math.ceil(amount / (ways * 100)) * 100;
}

/** Majority and minority bonuses for one chain, as [seat, amount] pairs (chains.bonuses). */
export function bonuses(holdings, price) {
  const majority = 10 * price;
  const minority = 5 * price;
  const ranked = holdings.map((count, seat) => [count, seat]).filter(([count]) => count > 0)
    .sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  if (!ranked.length) return [];
  if (ranked.length === 1) return [[ranked[0][1], majority + minority]];
  const top = ranked[0][0];
  if (ranked[1][0] === top) {
    const tied = ranked.filter(([count]) => count === top).map(([, seat]) => seat);
    const each = roundUp100(majority + minority, tied.length);
    return tied.map((seat) => [seat, each]);
  }
  const second = ranked[1][0];
  const seconds = ranked.slice(1).filter(([count]) => count === second).map(([, seat]) => seat);
  const each = roundUp100(minority, seconds.length);
  return [[ranked[0][1], majority], ...seconds.map((seat) => [seat, each])];
}

/** Cash plus shares at today's prices: what the table shows during play. */
export function worthAtPrice(view, seat) {
  const player = view.players[seat];
  let worth = player.cash;
  player.shares.forEach((count, chain) => {
    worth += count * (view.chains[chain]?.price || 0);
  });
  return worth;
}

/** The final valuation (scoring.net_worths): shares at price plus the bonuses each chain pays. */
export function finalWorths(view) {
  const worth = view.players.map((p) => p.cash);
  view.chains.forEach((chain) => {
    if (!chain.size) return;
    const holdings = view.players.map((p) => p.shares[chain.chain]);
    holdings.forEach((count, seat) => {
      worth[seat] += count * chain.price;
    });
    for (const [seat, amount] of bonuses(holdings, chain.price)) worth[seat] += amount;
  });
  return worth;
}

/** 1 for the best score; equal scores share a rank (1, 1, 3). */
export function ranks(scores) {
  return scores.map((score) => 1 + scores.filter((other) => other > score).length);
}

export function teamName(team) {
  return TEAM_NAMES[team] || `Team ${team + 1}`;
}

/** A chain's name on its colour, for sentences, tables and buttons. */
export function chainChip(chain, extra = null) {
  return h("span", { class: ["acq-chip", `acq-c${chain}`], dataset: { chain } }, chainName(chain), extra);
}

/** "alice", with a robot marker for a house bot. */
export function playerTag(name, { bot = false, me = false } = {}) {
  return h("span", { class: ["acq-who", me && "acq-who--me"] }, name,
    bot ? h("span", { class: "bot-icon acq-bot", title: "House bot", "aria-label": "(bot)", role: "img" }) : null);
}

/** "2:05", "1:02:05"; never negative. */
export function clockText(ms) {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = String(total % 60).padStart(2, "0");
  return hours ? `${hours}:${String(minutes).padStart(2, "0")}:${seconds}` : `${minutes}:${seconds}`;
}

export function plural(count, one, many = `${one}s`) {
  return `${count} ${count === 1 ? one : many}`;
}

/** What a rack tile would do, in words: the status from the view plus the chains it touches. */
export function describeStatus(status, board, tile) {
  const chains = adjacentChains(board, tile).map(chainName);
  switch (status) {
    case "lone":
      return "plays alone";
    case "grows":
      return chains.length ? `grows ${chains[0]}` : "grows a chain";
    case "founds":
      return "founds a chain";
    case "merges":
      return chains.length ? `merges ${chains.join(" + ")}` : "merges chains";
    case "unplayable":
      return "no chain left to found";
    case "dead":
      return "dead: merges safe chains";
    default:
      return status || "";
  }
}

export const STATUS_SHORT = {
  lone: "Lone",
  grows: "Grows",
  founds: "Founds",
  merges: "Merges",
  unplayable: "Not now",
  dead: "Dead",
};

/** A touch screen (no hover, a finger): its prompts say "tap", not "click". */
export function touchScreen() {
  return typeof matchMedia === "function" && matchMedia("(hover: none), (pointer: coarse)").matches;
}
