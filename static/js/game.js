// The game page: one game's table, for its players and for spectators.
//
// It logs in on the lobby socket, sends EnterGame and draws the Snapshot it gets back; then
// GameMessages pushes extend the log. A push that does not continue the log exactly (a gap
// or an overlap) means something was missed, so the page asks for a fresh Snapshot (Resync).
// What the table looks like is up to the game type's renderer (games/registry.js).

import { h, readJson, toast, scheduler, replaceChildrenKeepingFocus } from "./dom.js";
import { LobbySocket, describeStatus } from "./socket.js";
import { createChat } from "./chat.js";
import { ratingBadge, teamName } from "./render.js";
import { loadRenderer } from "./games/registry.js";
import { createTurnSignal } from "./turn_signal.js";

const config = readJson("game-config", {});
const gameId = config.game;
const STARTED_KEY = `game-started:${gameId}`;

function takeStartedFlag() {
  try {
    const flag = sessionStorage.getItem(STARTED_KEY) === "1";
    sessionStorage.removeItem(STARTED_KEY);
    return flag;
  } catch {
    return false;
  }
}

const state = {
  status: config.status,
  v: null,
  history: [],
  position: null,
  view: null,
  toAct: [],
  legal: [],
  result: config.result,
  players: config.players || [],
  // Every seat's clock as the server last described it (null when untimed), and when that was.
  clocks: null,
  clocksAt: null,
  // Set by the lobby when it brought us here because the game just started; cleared by the
  // first move, after which the game is simply "in progress".
  justStarted: takeStartedFlag(),
  // The v of the last Snapshot: pushes at or below it are already in the snapshot's history.
  snapshotV: null,
  busy: false,
  resync: { inFlight: false, again: false, full: false },
  // Bumped when the whole history is replaced, so the log is redrawn instead of appended to.
  historyEpoch: 0,
};

const els = {
  status: document.getElementById("game-status"),
  conn: document.getElementById("connection-status"),
  seats: document.getElementById("table-seats"),
  board: document.getElementById("board"),
  players: document.getElementById("player-list"),
  turn: document.getElementById("turn-indicator"),
  actions: document.getElementById("legal-actions"),
  log: document.getElementById("game-log"),
  logEmpty: document.getElementById("game-log-empty"),
  result: document.getElementById("game-result"),
  actionsTitle: document.getElementById("actions-title"),
  leave: document.getElementById("leave-game"),
};

const renderer = await loadRenderer(config.game_type);

// ---------------------------------------------------------------- helpers

function playerAt(position) {
  return state.players.find((p) => p.position === position) || null;
}

function playerName(position) {
  const player = playerAt(position);
  return player ? player.username : `seat ${Number(position) + 1}`;
}

function rendererContext() {
  return {
    config,
    state,
    position: state.position,
    players: state.players,
    playerName,
    act,
    busy: state.busy,
  };
}

function send(message, label) {
  const ref = socket.send(message, label);
  if (ref === null) toast("Not connected to the server; wait a moment and try again.", { kind: "error" });
  return ref !== null;
}

function act(type, params) {
  if (state.busy) return;
  const message = { type: "DoGameAction", game: gameId, v: state.v, action: type, params };
  // Naming our seat lets the server refuse the action if it is not ours after all.
  if (state.position !== null && state.position !== undefined) message.seat = state.position;
  if (send(message, type)) {
    state.busy = true;
    repaint();
  }
}

// A Resync asks only for the history the page does not hold ("from"); `full` asks for all of it
// again (a finished game reveals what the page was shown hidden).
function requestResync(full = false) {
  if (full) state.resync.full = true;
  if (state.resync.inFlight) {
    state.resync.again = true;
    return;
  }
  const from = state.resync.full ? 0 : state.history.length;
  state.resync.full = false;
  if (socket.send({ type: "Resync", game: gameId, from }, "Resync") !== null) state.resync.inFlight = true;
}

// ---------------------------------------------------------------- messages

function onSnapshot(msg) {
  state.resync.inFlight = false;
  if (state.v !== null && msg.v < state.v) {
    // Older than pushes we already applied (they crossed on the wire): ask again.
    requestResync();
    return;
  }
  state.status = msg.status;
  state.v = msg.v;
  state.snapshotV = msg.v;
  const from = msg.history_start || 0;
  if (from > state.history.length) {
    requestResync(true);  // cannot happen unless the page lost its log: start over
    return;
  }
  state.history = state.history.slice(0, from).concat(msg.history || []);
  state.historyEpoch += 1;
  state.position = msg.position ?? null;
  // The Snapshot's seats are the server's: a page opened during set-up that missed GameStarted
  // (it came while the page was reconnecting) would otherwise keep seats without positions, and
  // name the players "seat 2".
  if (Array.isArray(msg.players) && msg.players.length) {
    state.players = msg.players.map((p) => ({ ...p, bot: Boolean(p.bot), forfeited: Boolean(p.forfeited) }));
  }
  state.view = msg.view ?? null;
  state.toAct = msg.to_act || [];
  state.legal = msg.legal || [];
  if (msg.clocks !== undefined) setClocks(msg.clocks);
  if (msg.result !== undefined) state.result = msg.result;
  state.busy = false;
  if (state.resync.again) {
    state.resync.again = false;
    requestResync();
  }
}

function onGameMessages(msg) {
  if (msg.start !== state.history.length) {
    requestResync();
    return;
  }
  state.history.push(...msg.messages);
  state.v = Math.max(state.v ?? 0, msg.v);
  if (msg.clocks !== undefined) setClocks(msg.clocks);
  if (state.snapshotV !== null && msg.v > state.snapshotV) state.justStarted = false;
  state.busy = false;
  if (msg.view !== undefined) {
    // The push carries the view and legal actions after the change: nothing to ask for.
    state.view = msg.view;
    state.legal = msg.legal || [];
    state.toAct = msg.to_act || [];
    return;
  }
  // Until a Snapshot arrives the old legal actions answer an old v: do not offer them.
  state.legal = [];
  if (renderer.resyncAfterMessages) requestResync();
}

function setClocks(clocks) {
  state.clocks = clocks;
  state.clocksAt = Date.now();
}

// Each player's rating in this game type, by user id: from the page (config.players) and each set-up
// change (setup.users). Snapshots and GameStarted name the seats without it, so it is kept apart.
const ratings = new Map();
function learnRatings(seats) {
  for (const seat of seats || []) {
    if (seat.rating !== null && seat.rating !== undefined) ratings.set(seat.user, seat);
  }
}
learnRatings(config.players);

function onSetupChanged(setup) {
  if (state.status !== "setup") return;
  learnRatings(setup.users);
  state.players = setup.users.map((u) => ({ user: u.user, username: u.username, position: null, team: u.team, forfeited: false, bot: Boolean(u.bot) }));
}

function handle(msg) {
  const mine = msg.game === gameId;
  switch (msg.type) {
    case "Greetings":
      // Every (re)connect starts over from a Snapshot; Greetings' history is not enough, as it
      // has no legal actions or view.
      state.resync.inFlight = true;
      socket.send({ type: "EnterGame", game: gameId }, "Enter game");
      break;
    case "Snapshot":
      if (mine) {
        // The table's last messages, said before we came (or while we were away). Even a
        // Snapshot too old for the game state still has chat worth showing.
        chat.addEarlier(msg.chat);
        onSnapshot(msg);
      }
      break;
    case "GameMessages":
      if (mine) onGameMessages(msg);
      break;
    case "ActionApplied":
      if (mine) {
        state.v = Math.max(state.v ?? 0, msg.v);
        // The legal actions we showed answered the old v; the GameMessages push that follows
        // brings the new state.
        state.legal = [];
        state.busy = false;
      }
      break;
    case "GameStarted":
      if (mine) {
        // GameStarted does not say who is a house bot; the seat list we had does.
        const bots = new Set(state.players.filter((p) => p.bot).map((p) => p.user));
        state.players = msg.players.map((p) => ({ ...p, forfeited: false, bot: Boolean(p.bot) || bots.has(p.user) }));
        state.status = "active";
        state.justStarted = true;
        requestResync();
      }
      break;
    case "GameInactive":
      if (mine) {
        state.status = msg.status;
        if (msg.result !== undefined) state.result = msg.result;
        // Once over, everything is revealed: fetch the full history.
        requestResync(true);
      }
      break;
    case "GameAdjourned":
    case "GameResumed":
      if (mine) {
        state.status = msg.status;
        // Back in play: the legal actions the page holds may be stale; fetch the current picture.
        if (msg.status === "active") requestResync();
      }
      break;
    case "PlayerForfeited":
      if (mine) {
        const player = state.players.find((p) => p.user === msg.user);
        if (player) player.forfeited = true;
        toast(`${player ? player.username : "A player"} left the game; the server plays their seat.`);
      }
      break;
    case "UserJoinedGame":
    case "UserLeftGame":
    case "GameModeChanged":
    case "ArrangementChanged":
    case "SetupAccepted":
      if (mine) onSetupChanged(msg.setup);
      break;
    case "Chat":
      if (mine) chat.add(msg);
      return; // the chat box draws itself; the table is unchanged
    case "Error":
      state.busy = false;
      if (msg.request === "Resync" || msg.request === "Enter game") state.resync.inFlight = false;
      toast(msg.reason, { kind: "error", title: msg.request ? `${msg.request} refused` : msg.code });
      // The page's picture of the game was out of date: fetch the current one.
      if (["StaleAction", "DuplicateAction", "NotYourTurn", "IllegalAction", "GameNotActive", "GameAdjourned"].includes(msg.code)) {
        requestResync();
      }
      break;
    case "FatalError":
      toast(msg.reason, { kind: "error", title: "Disconnected", timeout: 0 });
      break;
    default:
      return;
  }
  repaint();
}

// ---------------------------------------------------------------- rendering

const STATUS_TEXT = { setup: "Being set up", active: "In progress", adjourned: "Adjourned", finished: "Finished", aborted: "Aborted" };

function statusText() {
  if (state.status === "active" && state.justStarted) return "Game started";
  return STATUS_TEXT[state.status] || state.status;
}

function renderStatus() {
  els.status.textContent = statusText();
  els.status.dataset.status = state.status;
}

function seatPlaque(player, index, count) {
  const me = player.user === config.user;
  const toAct = player.position !== null && state.toAct.includes(player.position);
  // The viewer sits at the bottom of the oval and the others follow clockwise, as at a real table.
  const angle = Math.PI / 2 + (index / count) * 2 * Math.PI;
  const style = { left: `${50 + 44 * Math.cos(angle)}%`, top: `${50 + 40 * Math.sin(angle)}%` };
  const teamClass = player.team !== null && player.team !== undefined && config.teams ? `team-${player.team}` : null;
  return h("div", { class: ["seat", teamClass, me && "seat--me", toAct && "seat--to-act", player.forfeited && "seat--gone"], style },
    h("span", { class: "avatar avatar--large", "aria-hidden": "true" }, (player.username || "?").charAt(0).toUpperCase()),
    h("span", { class: "seat__name", title: player.username }, player.username),
    h("span", { class: "seat__meta" },
      player.position !== null && player.position !== undefined ? `Seat ${player.position + 1}` : "Seated",
      teamClass ? ` · ${teamName(player.team)}` : ""),
    toAct ? h("span", { class: "seat__flag" }, "to act") : null);
}

function orderedPlayers() {
  const players = [...state.players].sort((a, b) => (a.position ?? 99) - (b.position ?? 99));
  const mine = players.findIndex((p) => p.user === config.user);
  return mine > 0 ? players.slice(mine).concat(players.slice(0, mine)) : players;
}

function renderSeats() {
  // A renderer that seats the players itself (ownSeats: riichi's counter-clockwise table) gets
  // no generic plaques, which go round the other way.
  const around = renderer.ownSeats ? [] : orderedPlayers();
  els.seats.replaceChildren(...around.map((p, i) => seatPlaque(p, i, around.length)));
  const listed = [...state.players].sort((a, b) => (a.position ?? 99) - (b.position ?? 99));
  els.players.replaceChildren(...listed.map((p) => {
    const toAct = p.position !== null && state.toAct.includes(p.position);
    const hasTeam = p.team !== null && p.team !== undefined && config.teams;
    return h("li", { class: ["player-row", toAct && "player-row--to-act", p.forfeited && "player-row--gone"],
      dataset: { testid: "player", user: p.user, position: p.position ?? "" } },
    h("span", { class: "player-row__pos" }, p.position !== null && p.position !== undefined ? `${p.position + 1}` : "–"),
    h("span", { class: ["team-dot", hasTeam && `team-${p.team}`] }, hasTeam ? h("span", { class: "visually-hidden" }, `${teamName(p.team)} team`) : null),
    // The full name in a title: a name too long for the row is ellipsised (never below eight
    // characters: site.css wraps the badges onto a line of their own first).
    h("span", { class: "player-row__name", title: p.username, dataset: { testid: "player-name" } }, p.username),
    ratingBadge(ratings.get(p.user)),
    h("span", { class: "player-row__tags" },
      p.user === config.user ? h("span", { class: "tag tag--you" }, "you") : null,
      p.user === config.host ? h("span", { class: "tag" }, "host") : null,
      p.bot ? h("span", { class: "tag tag--bot", title: "House bot" }, "bot") : null,
      p.forfeited ? h("span", { class: "tag tag--warn" }, "left") : null,
      toAct ? h("span", { class: "tag tag--turn" }, "to act") : null));
  }));
}

// The action panel's heading and the turn indicator beside it are decided here and nowhere
// else, from the state the server reported (status, to_act, legal) and the renderer's optional
// pendingDecision hook: game modules draw the panel's body only. Each says something the other
// does not, so nothing is said twice, and "Your move" / "Your turn" appear only while the viewer
// has a decision in hand (legal actions, or one being sent): a seat still listed in to_act after
// answering (riichi's kept calls) has nothing left to decide.
function listNames(names) {
  return names.join(", ");
}

// Whether the viewer has a decision in hand: listed in to_act, with a legal action the server
// allows (riichi lists a furiten win as allowed: false), and not one the page is answering by
// itself (autoAction: riichi's lone pass), though one the player sent is still theirs until the
// server answers.
function viewerDecides() {
  if (state.position === null || state.position === undefined || !state.toAct.includes(state.position)) return false;
  if (state.busy) return autoV !== state.v;
  return state.legal.some((entry) => entry.allowed !== false);
}

function panelText(seated) {
  const gone = state.players.some((p) => p.user === config.user && p.forfeited);
  const loggedIn = config.user !== null && config.user !== undefined;
  switch (state.status) {
    case "setup": return { heading: "Waiting for players", indicator: "", mine: false };
    case "adjourned":
      return { heading: "Adjourned", indicator: "Paused: every player went away. It goes on when one of them comes back.", mine: false };
    case "finished": return { heading: "Game over", indicator: "", mine: false };
    case "aborted": return { heading: "Game aborted", indicator: "", mine: false };
    case "active": break;
    default: return { heading: statusText(), indicator: "", mine: false };
  }
  // An anonymous visitor gets no Snapshot (no socket): only the server-rendered seats.
  if (!loggedIn) return { heading: "Spectating", indicator: "", mine: false };
  if (state.v === null) return { heading: "Loading the table…", indicator: "", mine: false };
  const mySeat = seated && state.position !== null && state.position !== undefined;
  const deciding = mySeat && viewerDecides();
  const others = state.toAct.filter((p) => p !== state.position);
  if (deciding) {
    return { heading: "Your move", indicator: others.length ? `Your turn (with ${listNames(others.map(playerName))})` : "Your turn", mine: true };
  }
  let waiting = "";
  if (others.length) {
    // What the game waits for ("to buy shares"), if the game module says: one line, here.
    const what = renderer.pendingDecision ? renderer.pendingDecision(rendererContext()) : null;
    waiting = `Waiting for ${listNames(others.map(playerName))}${what ? ` ${what}` : ""}`;
  }
  if (gone) return { heading: "You left this game", indicator: waiting, mine: false };
  if (!mySeat) return { heading: "Spectating", indicator: waiting, mine: false };
  if (others.length) return { heading: "Not your turn", indicator: waiting, mine: false };
  // The viewer's seat is listed but holds no legal actions yet (its answer was just applied, or
  // the connection dropped): the next Snapshot or push settles it.
  if (state.toAct.length) return { heading: "Updating the table…", indicator: "", mine: false };
  return { heading: "Nobody to act", indicator: "", mine: false };
}

function renderPanelHead(seated) {
  const { heading, indicator, mine } = panelText(seated);
  els.actionsTitle.textContent = heading;
  // Emptied, never hidden: a live region taken out of the page and put back is not reliably
  // announced, and an empty one takes no room.
  els.turn.textContent = indicator;
  els.turn.classList.toggle("turn--mine", mine);
}

const drawn = { board: null, actions: null };
let renderedEpoch = -1;
let renderedCount = 0;

function logLine(message, index) {
  const text = renderer.formatMessage(message, rendererContext());
  return h("li", { class: "log-line", dataset: { type: message.type } },
    h("span", { class: "log-line__n", "aria-hidden": "true" }, String(index + 1)),
    text instanceof Node ? text : h("span", { class: "log-line__text" }, text));
}

function renderLog() {
  const list = els.log;
  const atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
  if (renderedEpoch !== state.historyEpoch || renderedCount > state.history.length) {
    list.replaceChildren(...state.history.map(logLine));
    renderedEpoch = state.historyEpoch;
  } else {
    for (let i = renderedCount; i < state.history.length; i += 1) list.appendChild(logLine(state.history[i], i));
  }
  renderedCount = state.history.length;
  els.logEmpty.hidden = state.history.length > 0;
  if (atBottom) list.scrollTop = list.scrollHeight;
}

const repaint = scheduler(() => {
  const ctx = rendererContext();
  renderStatus();
  renderSeats();
  // Seated-ness from the seat list, which is known before the first Snapshot brings a position.
  const seated = state.players.some((p) => p.user === config.user && !p.forfeited);
  if (els.leave) els.leave.hidden = !(seated && state.status === "active");
  // The board and the actions are redrawn only when what they show changed, so an open
  // <details> or half-typed parameters survive unrelated updates (a forfeit, a reconnect).
  // A renderer whose board also offers moves (boardShowsActions) redraws it when they change.
  // Who left is part of the board too (a table that names its seats marks them).
  const boardSig = JSON.stringify([state.status, state.v, state.view, state.position, state.clocks,
    state.players.map((p) => p.forfeited),
    renderer.boardShowsActions ? [state.legal, state.toAct, state.busy] : null]);
  if (boardSig !== drawn.board) {
    drawn.board = boardSig;
    renderer.renderBoard(els.board, ctx);
  }
  const actionsSig = JSON.stringify([state.status, state.v, state.legal, state.toAct, state.position, state.busy]);
  if (actionsSig !== drawn.actions) {
    drawn.actions = actionsSig;
    const actions = h("div", { class: "actions-inner" });
    renderer.renderActions(actions, ctx);
    replaceChildrenKeepingFocus(els.actions, [...actions.childNodes]);
  }
  renderer.renderResult(els.result, ctx);
  els.result.hidden = !state.result || state.status === "active";
  renderLog();
  runAutoAction(ctx);
  // After the auto action: a decision the page answered by itself is no turn to call anyone to,
  // neither in the panel's heading nor in the tab. A player who left is not waited for: the
  // server plays their seat. The signal is the heading's "Your move" less a decision already
  // being sent, so the tab never says "Your turn" while the panel has nothing to decide.
  renderPanelHead(seated);
  turnSignal.update(seated && state.status === "active" && viewerDecides() && !state.busy);
});

// A renderer may answer a decision itself (autoAction(ctx) -> [type, params] or null): a move that
// is no decision at all (riichi's lone pass) or one the player's own settings ask for. It is sent
// at most once per v, never while another request is in flight.
let autoV = null;
function runAutoAction(ctx) {
  if (!renderer.autoAction || state.busy || state.status !== "active" || state.position === null || !state.legal.length) return;
  if (state.v === autoV) return;
  const move = renderer.autoAction(ctx);
  if (!move) return;
  act(move[0], move[1] || []);
  // Only a move that went out counts: offline, the next Snapshot (same v) may try again.
  if (state.busy) autoV = state.v;
}

// ---------------------------------------------------------------- start

if (els.leave) {
  els.leave.addEventListener("click", () => {
    // Leaving a game in progress is a forfeit, not a pause: make sure that is meant.
    if (window.confirm("Leave this game? The server will play your seat until the end.")) {
      send({ type: "LeaveGame", game: gameId }, "Leave game");
    }
  });
}

// Tells a player whose tab is in the background that the game waits for them (turn_signal.js).
const turnSignal = createTurnSignal({
  label: `${config.game_type_name} #${config.display_number}`,
  menu: document.getElementById("turn-signals"),
  preferences: readJson("turn-signal-preferences", null),
});

// Anonymous visitors get no chat box (and no socket, below): the page just draws what the server rendered.
const chatRoot = document.getElementById("game-chat");
const chat = chatRoot
  ? createChat(chatRoot, { me: config.user, send: (text) => send({ type: "Chat", game: gameId, text }, "Chat") })
  : { add() {}, addEarlier() {}, setEnabled() {} };

const socket = new LobbySocket({
  knownGames: () => (state.history.length ? [{ game: gameId, history_size: state.history.length }] : []),
  // The page's Snapshot brings the history; Greetings need not.
  withHistory: false,
  // A table page follows its table, not the lobby: what concerns it still comes (its game's
  // start, end and forfeits, its set-up, its chat), every other table's news does not.
  lobby: false,
  onMessage: handle,
  onStatus: (status, detail) => {
    els.conn.textContent = describeStatus(status, detail);
    els.conn.dataset.state = status;
    chat.setEnabled(status === "online");
    if (status !== "online") {
      // Nothing can be sent until we are back; the Snapshot after reconnecting re-enables play.
      state.legal = [];
      state.resync.inFlight = false;
      repaint();
    }
  },
});

repaint();
// The lobby socket needs a login; an anonymous visitor sees the server-rendered seats only.
if (config.user !== null && config.user !== undefined) socket.start();
