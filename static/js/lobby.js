// The lobby page: tables being set up, games in progress, who is online, lobby chat.
//
// State lives here and is rebuilt from Greetings on every (re)connect, then kept current by the
// server's pushes. Rendering is a function of that state (render.js).

import { h, readJson, toast, scheduler, replaceKeepingFocus } from "./dom.js";
import { LobbySocket, describeStatus } from "./socket.js";
import { setupCard, activeGameRow, onlineRow, ARRANGEMENT, typeName } from "./render.js";
import { createChat } from "./chat.js";
import { createPlayNow } from "./play_now.js";

const config = readJson("lobby-config", {});
const gameTypes = new Map(readJson("game-types", []).map((gt) => [gt.key, gt]));
const arrangements = readJson("arrangements", []);
// Riichi's rule presets (games/riichi/engine/presets.py), by name: labels for the set-up cards.
const riichiPresets = new Map(readJson("riichi-presets", []).map((p) => [p.name, p]));

const SETUP_EVENTS = new Set(["UserJoinedGame", "UserLeftGame", "GameModeChanged", "ArrangementChanged", "SetupAccepted"]);

const state = {
  me: config.user,
  client: null,
  usernames: new Map(),
  // user id -> {user, username, clients: Map(client id -> {client, game})}
  users: new Map(),
  // game id -> setup_state, for tables being set up
  setups: new Map(),
  // game id -> {game, display_number, game_type, mode, users, host, players?, v, history_size}
  games: new Map(),
  // "game:version" pairs already accepted from this page, so a double click sends one request.
  acceptSent: new Set(),
  // The create form's arrangement, applied once our GameCreated comes back (CreateGame has none).
  pendingCreate: null,
  // A table we just created or joined, scrolled into view when it is drawn.
  focusTable: null,
  // game type -> the bot level the set-up cards' "Add bot" seats (absent: the house bot).
  botLevels: new Map(),
};

const els = {
  setups: document.getElementById("setup-list"),
  setupsEmpty: document.getElementById("setup-empty"),
  games: document.getElementById("game-list"),
  gamesEmpty: document.getElementById("game-empty"),
  online: document.getElementById("online-list"),
  onlineCount: document.getElementById("online-count"),
  status: document.getElementById("connection-status"),
  createForm: document.getElementById("create-form"),
  createType: document.getElementById("create-type"),
  createMode: document.getElementById("create-mode"),
  createArrangement: document.getElementById("create-arrangement"),
  createSubmit: document.getElementById("create-submit"),
};

// ---------------------------------------------------------------- requests

function send(message, label) {
  const ref = socket.send(message, label);
  if (ref === null) toast("Not connected to the server; wait a moment and try again.", { kind: "error" });
  return ref !== null;
}

const actions = {
  join: (game) => {
    state.focusTable = game;
    send({ type: "JoinGame", game }, "Join table");
  },
  leave: (game) => send({ type: "LeaveGame", game }, "Leave table"),
  accept: (game, version) => {
    if (send({ type: "AcceptSetup", game, version }, "Accept")) {
      state.acceptSent.add(`${game}:${version}`);
      repaint();
    }
  },
  changeMode: (game, mode) => send({ type: "ChangeMode", game, mode }, "Change mode"),
  changeArrangement: (game, arrangement, order) => {
    const message = { type: "ChangeArrangement", game, arrangement };
    if (order) message.order = order;
    send(message, "Change seating");
  },
  addBot: (game, bot) => send(bot ? { type: "AddBot", game, bot } : { type: "AddBot", game }, "Add bot"),
  chooseBotLevel: (gameType, level) => state.botLevels.set(gameType, level),
  kick: (game, user, name) => {
    if (window.confirm(`Remove ${name} from this table?`)) send({ type: "Kick", game, user }, "Kick");
  },
};

// ---------------------------------------------------------------- state updates

function knowUser(id, username) {
  if (username) state.usernames.set(id, username);
  let user = state.users.get(id);
  if (!user) {
    user = { user: id, username: username || state.usernames.get(id) || `user ${id}`, clients: new Map() };
    state.users.set(id, user);
  } else if (username) {
    user.username = username;
  }
  return user;
}

function putSetup(setup) {
  for (const u of setup.users) state.usernames.set(u.user, u.username);
  if (setup.status !== "setup" || setup.users.length === 0) state.setups.delete(setup.game);
  else state.setups.set(setup.game, setup);
}

function historySize(entry) {
  return entry.start + entry.messages.length;
}

function onGreetings(msg) {
  state.client = msg.client;
  state.me = msg.user;
  state.users.clear();
  for (const u of msg.users) {
    const user = knowUser(u.user, u.username);
    for (const c of u.clients || []) user.clients.set(c.client, c);
  }
  state.setups.clear();
  for (const setup of msg.games_being_set_up) putSetup(setup);
  const previous = state.games;
  state.games = new Map();
  for (const g of msg.games) {
    // A game we listed in Login comes back without its details: keep the ones we had.
    const entry = { ...(previous.get(g.game) || {}), ...g };
    delete entry.messages;
    entry.history_size = historySize(g);
    state.games.set(g.game, entry);
  }
  state.acceptSent.clear();
}

function onGameStarted(msg) {
  const setup = state.setups.get(msg.game);
  state.setups.delete(msg.game);
  for (const p of msg.players) state.usernames.set(p.user, p.username);
  state.games.set(msg.game, {
    game: msg.game,
    display_number: setup?.display_number ?? msg.game,
    game_type: setup?.game_type ?? "",
    mode: setup?.mode,
    host: setup?.host,
    status: "active",
    // The clock, as the table was set up with it (the lobby's row shows it).
    ...(setup ? { time_start: setup.time_start, time_increment: setup.time_increment, time_control: setup.time_control } : {}),
    users: msg.players.map((p) => p.user),
    players: msg.players,
    // GameStarted carries no ratings: the set-up table's, which the lobby had until now.
    ...(setup ? { ratings: setup.users.map((u) => ({ user: u.user, rating: u.rating, provisional: u.provisional })) } : {}),
    v: 0,
    history_size: 0,
  });
  if (msg.players.some((p) => p.user === state.me)) {
    toast(`${typeName(gameTypes, setup?.game_type ?? msg.game_type)} #${msg.game} is starting…`, { kind: "success" });
    goToGame(msg.game);
  }
}

// Our game has started (GameStarted, or Play now seated us): its page, once.
let leavingFor = null;
function goToGame(game) {
  if (leavingFor === game) return;
  leavingFor = game;
  // The game page shows "Game started" rather than "In progress" for a game we just sat down to.
  try {
    sessionStorage.setItem(`game-started:${game}`, "1");
  } catch {
    // Storage may be disabled; the banner then just says "In progress".
  }
  window.location.assign(`/games/${game}/`);
}

function handle(msg) {
  switch (msg.type) {
    case "Greetings":
      onGreetings(msg);
      // The lobby's last messages, said before we came (or while we were away).
      chat.addEarlier(msg.chat);
      // Where Play now stands (waiting, or seated at a game still in progress), after a reload too.
      playNow.greet(msg.play_now, state.games);
      break;
    case "ClientConnected": {
      const user = knowUser(msg.user, msg.username);
      user.clients.set(msg.client, { client: msg.client });
      break;
    }
    case "ClientDisconnected":
      for (const user of state.users.values()) user.clients.delete(msg.client);
      break;
    case "ClientEnteredGame":
      for (const user of state.users.values()) {
        const client = user.clients.get(msg.client);
        if (client) client.game = msg.game ?? undefined;
      }
      break;
    case "GameCreated":
      putSetup(msg.setup);
      if (msg.host === state.me && state.pendingCreate) {
        const { arrangement } = state.pendingCreate;
        state.pendingCreate = null;
        state.focusTable = msg.game;
        if (arrangement !== ARRANGEMENT.RANDOM) actions.changeArrangement(msg.game, arrangement, null);
      }
      break;
    case "GameStarted":
      onGameStarted(msg);
      break;
    case "GameInactive":
      state.setups.delete(msg.game);
      state.games.delete(msg.game);
      break;
    case "GameAdjourned":
    case "GameResumed": {
      // Every player went away (or one came back): the row says so (docs/abandoned-games.md).
      const game = state.games.get(msg.game);
      if (game) game.status = msg.status;
      break;
    }
    case "PlayerForfeited": {
      const player = state.games.get(msg.game)?.players?.find((p) => p.user === msg.user);
      if (player) player.forfeited = true;
      break;
    }
    case "Chat":
      if (msg.game === null || msg.game === undefined) chat.add(msg);
      return; // the chat box draws itself
    case "Error":
      // Play now's own requests answer under its buttons, in words.
      if (playNow.error(msg)) break;
      toast(msg.reason, { kind: "error", title: msg.request ? `${msg.request} failed` : msg.code });
      if (msg.request === "Accept") state.acceptSent.clear();
      break;
    case "FatalError":
      toast(msg.reason, { kind: "error", title: "Disconnected", timeout: 0 });
      break;
    default:
      if (playNow.handle(msg)) return; // the panel draws itself
      if (SETUP_EVENTS.has(msg.type)) {
        putSetup(msg.setup);
        if (msg.type === "UserLeftGame" && msg.kicked && msg.user === state.me) {
          toast(`The host removed you from table #${msg.game}.`, { kind: "info" });
        }
      }
  }
  repaint();
}

// ---------------------------------------------------------------- rendering

const cards = new Map(); // game id -> {el, sig}

function renderSetups() {
  const ctx = { me: state.me, gameTypes, arrangements, acceptSent: state.acceptSent, actions, riichiPresets, mjaiBots: config.mjai_bots,
    botLevels: config.bot_levels, botLevel: (gameType) => state.botLevels.get(gameType) };
  // Our own tables first, then the rest oldest first (they are closest to starting).
  const setups = [...state.setups.values()].sort((a, b) => {
    const mineA = a.users.some((u) => u.user === state.me) ? 0 : 1;
    const mineB = b.users.some((u) => u.user === state.me) ? 0 : 1;
    return mineA - mineB || a.game - b.game;
  });
  const wanted = [];
  for (const setup of setups) {
    const sig = JSON.stringify([setup, state.me, state.acceptSent.has(`${setup.game}:${setup.version}`)]);
    let entry = cards.get(setup.game);
    if (!entry || entry.sig !== sig) {
      const el = setupCard(setup, ctx);
      // Only a table that just appeared slides in; redrawn ones must not flicker.
      if (!entry) el.classList.add("table-card--new");
      // Only the cards that changed are rebuilt, so focus elsewhere in the lobby stays put.
      if (entry && entry.el.isConnected) replaceKeepingFocus(entry.el, el);
      entry = { el, sig };
      cards.set(setup.game, entry);
    }
    wanted.push(entry.el);
  }
  for (const [game, entry] of cards) {
    if (!state.setups.has(game)) {
      entry.el.remove();
      cards.delete(game);
    }
  }
  wanted.forEach((el, i) => {
    if (els.setups.children[i] !== el) els.setups.insertBefore(el, els.setups.children[i] || null);
  });
  els.setupsEmpty.hidden = setups.length > 0;
  if (state.focusTable !== null && cards.has(state.focusTable)) {
    cards.get(state.focusTable).el.scrollIntoView({ block: "nearest", behavior: "smooth" });
    state.focusTable = null;
  }
}

let gamesSig = null;

function renderGames() {
  const ctx = { me: state.me, gameTypes, usernames: state.usernames };
  const games = [...state.games.values()].sort((a, b) => {
    const mineA = a.users?.includes(state.me) ? 0 : 1;
    const mineB = b.users?.includes(state.me) ? 0 : 1;
    return mineA - mineB || b.game - a.game;
  });
  // Rebuilt only when something shown changed, so a focused "Watch" link keeps its focus.
  const sig = JSON.stringify([state.me, games, games.map((g) => (g.users || []).map((u) => state.usernames.get(u)))]);
  if (sig !== gamesSig) {
    gamesSig = sig;
    els.games.replaceChildren(...games.map((g) => activeGameRow(g, ctx)));
  }
  els.gamesEmpty.hidden = games.length > 0;
}

function renderOnline() {
  const online = [...state.users.values()]
    .filter((u) => u.clients.size > 0)
    .map((u) => ({ ...u, clients: [...u.clients.values()] }))
    .sort((a, b) => (a.user === state.me ? -1 : b.user === state.me ? 1 : a.username.localeCompare(b.username)));
  els.online.replaceChildren(...online.map((u) => onlineRow(u, { me: state.me })));
  els.onlineCount.textContent = String(online.length);
}

const repaint = scheduler(() => {
  renderSetups();
  renderGames();
  renderOnline();
});

// ---------------------------------------------------------------- create form

function fillModes() {
  const type = gameTypes.get(els.createType.value);
  const modes = type ? type.modes : [];
  // Default to the first mode that seats company: a one-seat table is for testing bots.
  // (Mode numbers mean different things in different games, so none is carried over.)
  const preferred = modes.find((m) => m.seats >= 2)?.id;
  els.createMode.replaceChildren(...modes.map((m) =>
    h("option", { value: m.id, selected: m.id === preferred },
      `${m.name} (${m.seats} seat${m.seats === 1 ? "" : "s"})`)));
  fillArrangements();
  for (const fieldset of document.querySelectorAll(".create-rules")) {
    // data-game-type may name several games (the Fischer clock: "acquire cribbage").
    fieldset.hidden = !fieldset.dataset.gameType.split(" ").includes(els.createType.value);
    // A hidden game's inputs must not hold up the form with their own min/max checks.
    fieldset.disabled = fieldset.hidden;
  }
  const playable = Boolean(type?.playable);
  els.createSubmit.disabled = !playable;
  els.createSubmit.title = playable ? "" : `${type?.name || "This game"} cannot be played yet`;
}

function fillArrangements() {
  const type = gameTypes.get(els.createType.value);
  const mode = type?.modes.find((m) => m.id === Number(els.createMode.value));
  const previous = Number(els.createArrangement.value) || ARRANGEMENT.RANDOM;
  const options = arrangements.filter((a) => a.id !== ARRANGEMENT.TEAMS || mode?.teams);
  const keep = options.some((a) => a.id === previous) ? previous : ARRANGEMENT.RANDOM;
  els.createArrangement.replaceChildren(...options.map((a) => h("option", { value: a.id, selected: a.id === keep }, a.name)));
}

function chosenFieldset() {
  return document.querySelector(`.create-rules[data-game-type="${els.createType.value}"]`);
}

// Only options that differ from the game's defaults are sent, so the table's rules stay minimal.
// A select's data-omit names the server's default where the form starts elsewhere (riichi's
// recommended preset is not the engine's default, so it must be sent).
// Riichi's advanced overrides (JSON) go on top of its preset; null (with a toast) if unreadable.
function chosenRules() {
  const fieldset = chosenFieldset();
  const rules = {};
  for (const select of fieldset ? fieldset.querySelectorAll("select[data-rule]") : []) {
    const serverDefault = select.dataset.omit ?? [...select.options].find((o) => o.defaultSelected)?.value;
    if (select.value !== serverDefault) rules[select.dataset.rule] = select.value;
  }
  const overrides = fieldset?.querySelector("[data-overrides]")?.value.trim();
  if (overrides) {
    let parsed;
    try {
      parsed = JSON.parse(overrides);
    } catch (error) {
      toast(`The rule overrides are not JSON: ${error.message}`, { kind: "error", title: "Open table" });
      return null;
    }
    if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
      toast('The rule overrides must be a JSON object, e.g. {"場数": 1}.', { kind: "error", title: "Open table" });
      return null;
    }
    Object.assign(rules, parsed);
  }
  return rules;
}

// majiang-server's clock from the riichi fieldset: {per_decision, bank}, or null when untimed.
// The numbers go as typed; the server refuses bad ones with its reason (InvalidTimeControl).
function chosenTimeControl() {
  const fieldset = chosenFieldset();
  const perDecision = fieldset?.querySelector('[data-time="per_decision"]')?.value.trim();
  if (!perDecision) return null;
  const bank = fieldset.querySelector('[data-time="bank"]')?.value.trim();
  return { per_decision: Number(perDecision), bank: bank ? Number(bank) : 0 };
}

// The Fischer clock (Acquire, cribbage): {time_start, time_increment} in seconds, or null when the
// minutes are empty. An increment without minutes still goes, for the server to refuse with its
// reason, rather than being dropped unseen.
function chosenClock() {
  const fieldset = document.querySelector(`.create-clock[data-game-type~="${els.createType.value}"]`);
  if (!fieldset) return null;
  const minutes = fieldset.querySelector('[data-time="start_minutes"]').value.trim();
  const increment = fieldset.querySelector('[data-time="increment"]').value.trim();
  if (!minutes && !increment) return null;
  const clock = {};
  if (minutes) clock.time_start = Math.round(Number(minutes) * 60);
  if (increment) clock.time_increment = Number(increment);
  return clock;
}

// The line under riichi's preset list says what the chosen preset plays (its option's data-help).
function showPresetHelp() {
  const select = document.getElementById("create-preset");
  const help = document.getElementById("create-preset-help");
  if (!select || !help) return;
  help.textContent = select.options[select.selectedIndex]?.dataset.help || "";
}

function wireCreateForm() {
  els.createType.addEventListener("change", fillModes);
  document.getElementById("create-preset")?.addEventListener("change", showPresetHelp);
  // A browser restoring the form's state may bring back another preset than the page drew.
  showPresetHelp();
  els.createMode.addEventListener("change", fillArrangements);
  els.createForm.addEventListener("submit", (event) => {
    event.preventDefault();
    const message = { type: "CreateGame", game_type: els.createType.value, mode: Number(els.createMode.value) };
    const rules = chosenRules();
    if (rules === null) return;
    if (Object.keys(rules).length) message.rules = rules;
    const timeControl = chosenTimeControl();
    if (timeControl) message.time_control = timeControl;
    Object.assign(message, chosenClock());
    // Seconds the table's spectators see it late, so nobody watching can coach a player.
    const delay = chosenFieldset()?.querySelector("[data-spectator-delay]")?.value.trim();
    if (delay) message.spectator_delay = Number(delay);
    // Rated is the table's default; casual and people-only are the host's to choose (docs/ratings.md).
    const rating = document.getElementById("create-rated")?.value;
    if (rating === "casual") message.rated = false;
    if (rating === "people") message.rated_people_only = true;
    if (send(message, "Open table")) {
      state.pendingCreate = { arrangement: Number(els.createArrangement.value) || ARRANGEMENT.RANDOM };
    }
  });
  fillModes();
}

// ---------------------------------------------------------------- start

const chat = createChat(document.getElementById("lobby-chat"), {
  me: state.me,
  send: (text) => send({ type: "Chat", game: null, text }, "Chat"),
});

const playNow = createPlayNow(document.querySelector("[data-play-now]"), {
  choices: readJson("play-now-choices", {}),
  gameTypes,
  // Play now shows its own "not connected" under its buttons: no toast.
  send: (message, label) => socket.send(message, label) !== null,
  goToGame,
});

const socket = new LobbySocket({
  // Only history sizes matter to the lobby; the server then sends just what was missed.
  knownGames: () => [...state.games.values()].map((g) => ({ game: g.game, history_size: g.history_size || 0 })),
  // The lobby shows tables, not moves: no game's history with Greetings.
  withHistory: false,
  onMessage: handle,
  onStatus: (status, detail) => {
    els.status.textContent = describeStatus(status, detail);
    els.status.dataset.state = status;
    const live = status === "online";
    els.createSubmit.disabled = !live || !gameTypes.get(els.createType.value)?.playable;
    chat.setEnabled(live);
    playNow.setOnline(live);
  },
});

wireCreateForm();
socket.start();
