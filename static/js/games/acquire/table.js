// The Acquire table, drawn from the engine's view: the 12 x 9 board, the players (cash, worth,
// clock, holdings), the viewer's rack and the stock market. Used by the game page (acquire.js)
// and the replay page (replay.js); it never talks to the server itself.
//
// ``renderTable(view, opts)`` returns a fresh element. opts:
//   who(position)       Node or text naming a player (with the bot marker)
//   position            the viewer's seat, or null (spectator, replay)
//   toAct               positions the game waits for
//   legalTiles          tiles the viewer may play right now (empty unless it is their PlayTile)
//   onPlay(tile)        called when a legal tile is clicked (rack or board); null for read-only
//   busy                an action is on its way: nothing is clickable
//   clocks, clocksAt    the seats' clocks ([{position, remaining_ms, running}] or null) and when they came
//   racks               show every player's rack (view.racks: a finished game, the replay)
//   showRack            draw the viewer's rack under the board and outline its tiles' cells
//                       (view.rack; default true)
//   lastTile            the tile played last, ringed on the board
//   final               final scores by seat (result.players[].score), when the game is over

import { h } from "../../dom.js";
import {
  COLUMNS, END_SIZE, NUM_TILES, ROWS, ROW_LETTERS, SAFE_SIZE, STATUS_SHORT,
  chainChip, chainName, clockText, describeStatus, money, teamName, tileColumn, tileName, tileRow, touchScreen, worthAtPrice,
} from "./common.js";

// ------------------------------------------------------------------ board

function cellLabel(tile, content) {
  const name = tileName(tile);
  if (typeof content === "number") return `${name}: ${chainName(content)}`;
  if (content === "lone") return `${name}: a lone tile`;
  if (content === "dead") return `${name}: a dead tile`;
  return `${name}: empty`;
}

// Short names for a chain's label when its longest row of hotels is narrow.
const SHORT = ["LUX", "TWR", "AMR", "FES", "WWD", "CON", "IMP"];

/**
 * Where each chain's name is written: along its longest horizontal run of hotels (the one
 * nearest the chain's middle among equals), spanning exactly that run, so a label never covers
 * another chain or an empty cell. Returns [{chain, row, column, span, text}].
 */
function chainLabels(board) {
  const cells = new Map();
  board.forEach((content, tile) => {
    if (typeof content !== "number") return;
    if (!cells.has(content)) cells.set(content, []);
    cells.get(content).push(tile);
  });
  const labels = [];
  for (const [chain, tiles] of cells) {
    const mc = tiles.reduce((s, t) => s + tileColumn(t), 0) / tiles.length;
    const mr = tiles.reduce((s, t) => s + tileRow(t), 0) / tiles.length;
    let best = null;
    for (const t of tiles) {
      const row = tileRow(t);
      const column = tileColumn(t);
      // Only the start of each run: the cell to its left is not this chain's.
      if (column > 0 && board[t - ROWS] === chain) continue;
      let span = 1;
      while (column + span < COLUMNS && board[t + span * ROWS] === chain) span += 1;
      const distance = (column + (span - 1) / 2 - mc) ** 2 + 1.5 * (row - mr) ** 2;
      if (!best || span > best.span || (span === best.span && distance < best.distance)) {
        best = { chain, row, column, span, distance };
      }
    }
    const name = chainName(chain);
    // About three capitals fit a cell: whole names need a run of three (two for Luxor, Tower).
    const text = best.span >= 3 || (best.span === 2 && name.length <= 6) ? name : SHORT[chain];
    labels.push({ ...best, text });
  }
  return labels;
}

function renderBoard(view, opts) {
  const board = view.board;
  const rackTiles = new Set(opts.showRack ? (view.rack || []).map((r) => r.tile) : []);
  const legal = opts.busy ? new Set() : opts.legalTiles;
  const pendingTile = view.pending && typeof view.pending.tile === "number" && view.pending.tile >= 0 ? view.pending.tile : null;
  const children = [h("span", { class: "acq-board__corner", "aria-hidden": "true" })];
  for (let c = 0; c < COLUMNS; c += 1) {
    children.push(h("span", { class: "acq-board__head", style: { gridColumn: c + 2, gridRow: 1 }, "aria-hidden": "true" }, String(c + 1)));
  }
  for (let r = 0; r < ROWS; r += 1) {
    children.push(h("span", { class: "acq-board__head", style: { gridColumn: 1, gridRow: r + 2 }, "aria-hidden": "true" }, ROW_LETTERS[r]));
  }
  const labels = chainLabels(board);
  // Cells under a chain's name show the name instead of their own (their title still has it).
  const labelled = new Set();
  for (const label of labels) {
    for (let i = 0; i < label.span; i += 1) labelled.add((label.column + i) * ROWS + label.row);
  }
  for (let tile = 0; tile < NUM_TILES; tile += 1) {
    const content = board[tile];
    const state = typeof content === "number" ? "chain" : content || "empty";
    const canPlay = legal.has(tile) && opts.onPlay;
    const classes = [
      "acq-cell",
      `acq-cell--${state}`,
      typeof content === "number" && `acq-c${content}`,
      rackTiles.has(tile) && "acq-cell--rack",
      canPlay && "acq-cell--legal",
      pendingTile === tile && "acq-cell--pending",
      opts.lastTile === tile && "acq-cell--last",
      labelled.has(tile) && "acq-cell--labelled",
    ];
    const attrs = {
      class: classes,
      style: { gridColumn: tileColumn(tile) + 2, gridRow: tileRow(tile) + 2 },
      title: cellLabel(tile, content),
      dataset: { testid: "board-cell", tile, state, chain: typeof content === "number" ? content : null },
    };
    const name = h("span", { class: "acq-cell__name" }, tileName(tile));
    if (canPlay) {
      // Named by its visible text first ("5C, play here"), so speech input can say what it reads.
      children.push(h("button", { ...attrs, type: "button", onclick: () => opts.onPlay(tile) },
        name, h("span", { class: "visually-hidden" }, ", play here")));
    } else {
      children.push(h("span", { ...attrs, "aria-label": cellLabel(tile, content), role: "img" }, name));
    }
  }
  for (const label of labels) {
    children.push(h("span", { class: ["acq-board__label", `acq-c${label.chain}`, label.text !== chainName(label.chain) && "acq-board__label--short"],
      "aria-hidden": "true", title: chainName(label.chain),
      dataset: { testid: "board-chain-label", chain: label.chain },
      style: { gridColumn: `${label.column + 2} / span ${label.span}`, gridRow: label.row + 2 } }, label.text));
  }
  return h("div", { class: "acq-board-frame" },
    h("div", { class: "acq-board", dataset: { testid: "acquire-board" }, role: "group",
      "aria-label": "Board: columns 1 to 12, rows A to I" }, children));
}

// ------------------------------------------------------------------ tiles

/** One tile in a rack; a button when it can be played now. */
export function rackTile(entry, view, opts, root) {
  const legal = !opts.busy && opts.legalTiles.has(entry.tile) && opts.onPlay;
  const what = describeStatus(entry.status, view.board, entry.tile);
  const attrs = {
    class: ["acq-tile", `acq-tile--${entry.status}`, legal && "acq-tile--legal", opts.small && "acq-tile--small"],
    title: `${entry.name}: ${what}`,
    dataset: { testid: "rack-tile", tile: entry.tile, status: entry.status, legal: legal ? "true" : "false" },
  };
  const body = [
    h("span", { class: "acq-tile__name" }, entry.name),
    // The badge repeats what the line under it says: heard once, from that line.
    opts.small ? null : h("span", { class: "acq-tile__status", "aria-hidden": "true" }, STATUS_SHORT[entry.status] || entry.status),
    opts.small ? null : h("span", { class: "acq-tile__what" }, what),
  ];
  // Hovering (or focusing) a rack tile lights up its cell on the board.
  const light = (on) => {
    const cell = root.querySelector(`[data-testid="board-cell"][data-tile="${entry.tile}"]`);
    if (cell) cell.classList.toggle("acq-cell--hover", on);
  };
  const events = { onmouseenter: () => light(true), onmouseleave: () => light(false), onfocus: () => light(true), onblur: () => light(false) };
  // Named by their text ("7A founds a chain"), not by an aria-label that would differ from what is seen.
  if (legal) {
    return h("button", { ...attrs, ...events, type: "button", onclick: () => opts.onPlay(entry.tile) },
      h("span", { class: "visually-hidden" }, "Play "), body);
  }
  return h("span", { ...attrs, ...events, tabindex: "0" }, body);
}

function renderRack(view, opts, root) {
  if (!Array.isArray(view.rack)) return null;
  const mine = opts.legalTiles.size > 0 && !opts.busy;
  return h("section", { class: ["acq-rack", mine && "acq-rack--turn"], dataset: { testid: "rack" }, "aria-labelledby": "acq-rack-title" },
    h("h3", { id: "acq-rack-title", class: "acq-rack__title" }, "Your tiles",
      h("span", { class: "acq-rack__hint" }, mine ? `${touchScreen() ? "Tap" : "Click"} a highlighted tile (or its cell) to play it` : "")),
    view.rack.length
      ? h("div", { class: "acq-rack__tiles" }, view.rack.map((entry) => rackTile(entry, view, opts, root)))
      : h("p", { class: "acq-rack__empty" }, "No tiles"));
}

// ------------------------------------------------------------------ players

function clockEl(clock, at) {
  if (!clock) return null;
  return h("span", { class: ["acq-clock", clock.running && "acq-clock--running", clock.remaining_ms < 30000 && "acq-clock--low"],
    dataset: { testid: "clock", position: clock.position, remaining: clock.remaining_ms, at, running: clock.running ? "1" : "0" },
    title: clock.running ? "Time left (running)" : "Time left" }, clockText(clock.remaining_ms));
}

function holdings(view, seat) {
  const shares = view.players[seat].shares;
  const chips = [];
  shares.forEach((count, chain) => {
    if (count > 0) chips.push(h("span", { class: ["acq-hold", `acq-c${chain}`], title: `${count} ${chainName(chain)}` },
      h("span", { class: "acq-hold__name" }, chainName(chain).charAt(0)), h("span", { class: "acq-hold__n" }, String(count))));
  });
  return chips.length ? h("div", { class: "acq-player__shares", "aria-label": "Shares held" }, chips)
    : h("div", { class: "acq-player__shares acq-player__shares--none" }, "no shares");
}

function playerCard(view, seat, opts, root, leader) {
  const p = view.players[seat];
  const toAct = opts.toAct.includes(seat);
  const me = opts.position === seat;
  const clock = opts.clocks ? opts.clocks.find((c) => c.position === seat) : null;
  const final = opts.final ? opts.final[seat] : null;
  const worth = worthAtPrice(view, seat);
  const rack = opts.racks && Array.isArray(view.racks) ? view.racks[seat] : null;
  return h("li", { class: ["acq-player", me && "acq-player--me", toAct && "acq-player--to-act",
    p.team !== null && p.team !== undefined && `acq-player--team team-${p.team}`, leader && "acq-player--leader"],
  dataset: { testid: "acquire-player", seat } },
  h("div", { class: "acq-player__head" },
    h("span", { class: "acq-player__seat", "aria-hidden": "true" }, String(seat + 1)),
    h("span", { class: "acq-player__name", dataset: { testid: "acquire-player-name" } }, opts.who(seat)),
    me ? h("span", { class: "tag tag--you" }, "you") : null,
    p.team !== null && p.team !== undefined ? h("span", { class: ["tag", "acq-team-tag", `team-${p.team}`] }, teamName(p.team)) : null,
    toAct ? h("span", { class: "tag tag--turn" }, "to act") : null,
    clockEl(clock, opts.clocksAt)),
  h("dl", { class: "acq-player__money" },
    h("div", { class: "acq-stat acq-stat--cash" }, h("dt", {}, "Cash"), h("dd", { dataset: { testid: "player-cash" } }, money(p.cash))),
    final !== null && final !== undefined
      ? h("div", { class: "acq-stat acq-stat--worth" }, h("dt", {}, "Final worth"), h("dd", { dataset: { testid: "player-worth" } }, money(final)))
      : h("div", { class: "acq-stat acq-stat--worth" }, h("dt", {}, "Worth ", h("span", { class: "acq-stat__note" }, "(shares at price)")),
        h("dd", { dataset: { testid: "player-worth" } }, money(worth)))),
  holdings(view, seat),
  rack
    ? h("div", { class: "acq-player__rack", dataset: { testid: "player-rack" } },
      rack.map((entry) => rackTile(entry, view, { ...opts, small: true, legalTiles: new Set() }, root)))
    : h("div", { class: "acq-player__tiles" }, p.rack_size === 1 ? "1 tile" : `${p.rack_size} tiles`));
}

function renderPlayers(view, opts, root) {
  const worths = opts.final || view.players.map((_, seat) => worthAtPrice(view, seat));
  const best = Math.max(...worths);
  const leaders = worths.filter((w) => w === best).length;
  const seats = view.players.map((_, seat) => seat);
  return h("section", { class: "acq-side", "aria-labelledby": "acq-players-title" },
    h("h3", { id: "acq-players-title", class: "acq-side__title" }, "Players"),
    h("ol", { class: "acq-players", dataset: { testid: "acquire-players" } },
      seats.map((seat) => playerCard(view, seat, opts, root, leaders === 1 && worths[seat] === best && best > 0))),
    h("p", { class: "acq-bag", dataset: { testid: "tiles-in-bag" } },
      h("span", { class: "acq-bag__icon", "aria-hidden": "true" }),
      view.tiles_in_bag === 1 ? "1 tile in the bag" : `${view.tiles_in_bag} tiles in the bag`));
}

// ------------------------------------------------------------------ stock market

function renderMarket(view, opts) {
  const seats = view.players.map((_, seat) => seat);
  const head = h("tr", {},
    h("th", { scope: "col", class: "acq-market__chain" }, "Chain"),
    h("th", { scope: "col" }, "Size"),
    h("th", { scope: "col" }, "Price"),
    h("th", { scope: "col", title: "Shares left in the bank" }, "Bank"),
    seats.map((seat) => h("th", { scope: "col", class: ["acq-market__player", opts.position === seat && "acq-market__player--me"] }, opts.who(seat))));
  const rows = view.chains.map((chain) => {
    const held = seats.map((seat) => view.players[seat].shares[chain.chain]);
    const most = Math.max(...held);
    const onBoard = chain.size > 0;
    return h("tr", { class: ["acq-market__row", !onBoard && "acq-market__row--off"], dataset: { testid: "chain-row", chain: chain.chain } },
      h("th", { scope: "row", class: "acq-market__chain" }, chainChip(chain.chain),
        chain.safe ? h("span", { class: "acq-badge acq-badge--safe", title: `Safe: ${SAFE_SIZE}+ tiles, cannot be taken over` }, "safe") : null,
        chain.size >= END_SIZE ? h("span", { class: "acq-badge acq-badge--end", title: `${END_SIZE}+ tiles: the game may be ended` }, "41+") : null),
      h("td", { dataset: { testid: "chain-size" } }, onBoard ? String(chain.size) : "—"),
      h("td", { class: "acq-market__price", dataset: { testid: "chain-price" } }, onBoard ? money(chain.price) : "—"),
      h("td", { dataset: { testid: "chain-available" } }, String(chain.available)),
      held.map((count, seat) => h("td", { class: ["acq-market__held", count > 0 && count === most && "acq-market__held--major",
        opts.position === seat && "acq-market__player--me"] }, count ? String(count) : "·")));
  });
  return h("section", { class: "acq-market-wrap", "aria-labelledby": "acq-market-title" },
    h("h3", { id: "acq-market-title", class: "acq-side__title" }, "Hotel chains",
      h("span", { class: "acq-market__legend" }, "bold: the majority holder")),
    h("div", { class: "acq-market-scroll" },
      h("table", { class: "acq-market", dataset: { testid: "chain-table" } }, h("thead", {}, head), h("tbody", {}, rows))));
}

// ------------------------------------------------------------------ the whole table

export function renderTable(view, opts) {
  const full = {
    position: null, toAct: [], legalTiles: new Set(), onPlay: null, busy: false, clocks: null, clocksAt: Date.now(),
    racks: false, showRack: true, lastTile: null, final: null, who: (seat) => `seat ${seat + 1}`, ...opts,
  };
  const root = h("div", { class: "acq", dataset: { testid: "acquire-table" } });
  root.append(
    h("div", { class: "acq-main" },
      h("div", { class: "acq-left" }, renderBoard(view, full), full.showRack ? renderRack(view, full, root) : null,
        // Where the game page docks its decision panel (games/acquire.js); empty on the replay page.
        h("div", { class: "acq-dock" })),
      renderPlayers(view, full, root)),
    renderMarket(view, full));
  if (full.clocks) startClockTicker();
  return root;
}

// ------------------------------------------------------------------ clocks

let ticker = null;

/** Count the running clocks down locally, from what the server said and when it said it. */
function tick() {
  const now = Date.now();
  for (const el of document.querySelectorAll('.acq-clock[data-running="1"]')) {
    const left = Number(el.dataset.remaining) - (now - Number(el.dataset.at));
    const text = clockText(left);
    if (el.textContent !== text) el.textContent = text;
    el.classList.toggle("acq-clock--low", left < 30000);
  }
}

function startClockTicker() {
  if (ticker === null) ticker = setInterval(tick, 250);
}
