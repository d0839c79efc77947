// The replay page (/games/<id>/replay/): step through a finished game.
//
// It reads the review data where the game type has it (GET /api/games/<id>/review/: Acquire's
// players and action list) and, for each step shown, the state after that many actions
// (GET /api/games/<id>/replay/?step=N: {view, history}, everything revealed for a finished
// game). The table is drawn by the same modules as the live game page (Acquire with every rack
// showing; cribbage and riichi with every hand).

import { h, readJson } from "./dom.js";

/**
 * What the page needs from a game type, loaded on demand: playerTag(name, {bot}), describe(message,
 * who), table(view, history, who) -> Node, quiet (message types the caption skips),
 * result(history, who) -> Node or null, and whether the game has review data to read.
 */
const GAMES = {
  async acquire() {
    const [{ playerTag }, { describeMessage }, { renderStandings }, { renderTable }] = await Promise.all([
      import("./games/acquire/common.js"), import("./games/acquire/log.js"),
      import("./games/acquire/standings.js"), import("./games/acquire/table.js")]);
    const lastPlayedTile = (history) => {
      for (let i = history.length - 1; i >= 0; i -= 1) if (history[i].type === "PlayedTile") return history[i].params[0];
      return null;
    };
    return {
      review: true,
      playerTag,
      describe: describeMessage,
      quiet: new Set(["TurnBegan", "DrewTile", "DrewPositionTile", "DrewLastTile"]),
      table: (view, history, who) => renderTable(view, {
        who,
        toAct: view.is_over || !view.pending ? [] : [view.pending.seat],
        racks: Array.isArray(view.racks),
        showRack: false, // every rack is in its player's card
        lastTile: lastPlayedTile(history),
      }),
      result(history, who) {
        const result = config.result;
        if (!result || !Array.isArray(result.players)) return null;
        const ended = history.find((m) => m.type === "EndedGame");
        return [renderStandings(result, { who, gameId, links: false, endedBy: ended ? who(ended.player) : null }),
          h("p", { class: "acq-standings__links" },
            h("a", { class: "btn btn--ghost", href: `/api/games/${gameId}/review/`, download: `acquire-${gameId}-review.json`,
              dataset: { testid: "download-review" } }, "Download review data"))];
      },
    };
  },
  async cribbage() {
    const [{ playerTag }, { describeMessage, QUIET }, { outcome, renderResult }, { renderTable }] = await Promise.all([
      import("./games/cribbage.js"), import("./games/cribbage/log.js"),
      import("./games/cribbage/result.js"), import("./games/cribbage/table.js")]);
    let lastView = null;
    return {
      review: false,
      playerTag,
      describe: describeMessage,
      quiet: new Set([...QUIET, "Settled", "Agreed"]),
      table(view, history, who) {
        lastView = view;
        // A player watching their own game sits in their seat; every other hand is face up.
        const position = typeof view.viewer === "number" ? view.viewer : null;
        // One boardId for every step, so the pegs glide from step to step as in the live game.
        return renderTable(view, { who, position, toAct: view.to_act || [], history, boardId: `replay-${gameId}` });
      },
      result(history, who) {
        const out = outcome(history, config.result, lastView);
        return out ? renderResult(out, { who, position: null, gameId, links: false }) : null;
      },
    };
  },
  async riichi() {
    const [{ playerTag, replayScreen }, { describeMessage, QUIET }, { renderStandings }, { renderTable }] = await Promise.all([
      import("./games/riichi.js"), import("./games/riichi/log.js"),
      import("./games/riichi/result.js"), import("./games/riichi/table.js")]);
    let lastHistory = [];
    let lastView = null;
    return {
      review: false,
      playerTag,
      // The log lines need the whole history (who dealt in, which hand): the step's, kept by table().
      describe: (message, who) => describeMessage(message, who, { history: lastHistory, rule: lastView?.rule }),
      // The deal that follows a hand's end in the same step does not hide the end in the caption.
      quiet: new Set([...QUIET, "qipai"]),
      table(view, history, who) {
        lastHistory = history;
        lastView = view;
        // A player watching their own game sits in their seat; everyone else sees the first
        // dealer's seat at the bottom. Every hand is open: the view of a finished game is revealed.
        const bottom = typeof view.viewer === "number" ? view.viewer : view.qijia ?? 0;
        return renderTable(view, { who, bottom, mine: typeof view.viewer === "number", screen: replayScreen(history, view, who) });
      },
      result(history, who) {
        const jieju = [...history].reverse().find((m) => m.type === "jieju") || null;
        return renderStandings(config.result, jieju, { who, position: null, gameId, links: false });
      },
    };
  },
};

const config = readJson("replay-config", {});
const gameId = config.game;

const els = {
  message: document.getElementById("replay-message"),
  controls: document.getElementById("replay-controls"),
  first: document.getElementById("replay-first"),
  back: document.getElementById("replay-back"),
  forward: document.getElementById("replay-forward"),
  last: document.getElementById("replay-last"),
  slider: document.getElementById("replay-slider"),
  step: document.getElementById("replay-step"),
  what: document.getElementById("replay-what"),
  board: document.getElementById("replay-board"),
  log: document.getElementById("replay-log"),
  logEmpty: document.getElementById("replay-log-empty"),
  result: document.getElementById("replay-result"),
};

const state = {
  steps: 0,
  step: null, // the step drawn
  wanted: null, // the step asked for last (responses for others are dropped)
  usernames: [],
  cache: new Map(), // step -> {view, history}
  historyLength: new Map(), // step -> history length, to mark what the last step added
};

const players = new Map((config.players || []).map((p) => [p.position, p]));
let game = null; // the game type's pieces (GAMES), once loaded

function who(seat) {
  const player = players.get(seat);
  const name = player?.username ?? state.usernames[seat] ?? `seat ${seat + 1}`;
  return game.playerTag(name, { bot: Boolean(player?.bot) });
}

function say(text, { kind = "info", link = null } = {}) {
  els.message.replaceChildren(h("strong", {}, text), ...(link ? [" ", h("a", { href: link.href }, link.text)] : []));
  els.message.dataset.kind = kind;
  els.message.hidden = false;
}

async function getJson(url) {
  const response = await fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } });
  let body = null;
  try {
    body = await response.json();
  } catch {
    // not JSON: the status says enough
  }
  if (!response.ok) {
    const error = new Error(body?.reason || `${response.status} ${response.statusText}`);
    error.code = body?.code;
    error.status = response.status;
    throw error;
  }
  return body;
}

function fetchStep(step) {
  if (!state.cache.has(step)) {
    const promise = getJson(`/api/games/${gameId}/replay/?step=${step}`).catch((error) => {
      state.cache.delete(step);
      throw error;
    });
    state.cache.set(step, promise);
  }
  return state.cache.get(step);
}

// ------------------------------------------------------------------ drawing

function draw(step, data, previousLength) {
  const { view, history } = data;
  els.board.replaceChildren(game.table(view, history, who));
  els.board.dataset.step = String(step);

  const added = previousLength !== null && previousLength < history.length ? previousLength : history.length;
  els.log.replaceChildren(...history.map((message, i) => h("li", {
    class: ["log-line", i >= added && "log-line--new"], dataset: { type: message.type } },
  h("span", { class: "log-line__n", "aria-hidden": "true" }, String(i + 1)),
  game.describe(message, who))));
  els.logEmpty.hidden = history.length > 0;
  const fresh = els.log.querySelector(".log-line--new");
  if (fresh) els.log.scrollTop = fresh.offsetTop - els.log.offsetTop - 8;
  else els.log.scrollTop = els.log.scrollHeight;

  // What this step did, in words: the last telling message so far.
  const telling = [...history].reverse().find((m) => !game.quiet.has(m.type));
  els.step.textContent = `Step ${step} of ${state.steps}`;
  els.what.replaceChildren(step === 0 ? "Before the first move" : telling ? game.describe(telling, who) : "");

  const result = step === state.steps ? game.result(history, who) : null;
  if (result) {
    els.result.replaceChildren(...[].concat(result));
    els.result.hidden = false;
  } else {
    els.result.hidden = true;
  }
}

function syncControls() {
  const step = state.wanted ?? 0;
  els.slider.max = String(state.steps);
  els.slider.value = String(step);
  els.slider.setAttribute("aria-valuetext", `Step ${step} of ${state.steps}`);
  els.first.disabled = step <= 0;
  els.back.disabled = step <= 0;
  els.forward.disabled = step >= state.steps;
  els.last.disabled = step >= state.steps;
}

async function show(step) {
  step = Math.max(0, Math.min(state.steps, Math.round(step)));
  const previous = state.step;
  state.wanted = step;
  syncControls();
  try {
    const data = await fetchStep(step);
    if (state.wanted !== step) return; // the user moved on meanwhile
    state.historyLength.set(step, data.history.length);
    // Stepping forward by one marks what that step added to the log.
    const previousLength = previous !== null && previous === step - 1 ? state.historyLength.get(previous) ?? null : null;
    draw(step, data, previousLength);
    state.step = step;
    const url = new URL(window.location.href);
    url.searchParams.set("step", String(step));
    window.history.replaceState(null, "", url);
    // The neighbours are the likeliest next requests.
    for (const next of [step + 1, step - 1]) if (next >= 0 && next <= state.steps) fetchStep(next).catch(() => {});
  } catch (error) {
    if (state.wanted === step) say(`Could not load step ${step}: ${error.message}`, { kind: "error" });
  }
}

// ------------------------------------------------------------------ controls

function wire() {
  els.first.addEventListener("click", () => show(0));
  els.back.addEventListener("click", () => show((state.wanted ?? 0) - 1));
  els.forward.addEventListener("click", () => show((state.wanted ?? 0) + 1));
  els.last.addEventListener("click", () => show(state.steps));
  let timer = null;
  els.slider.addEventListener("input", () => {
    clearTimeout(timer);
    const value = Number(els.slider.value);
    timer = setTimeout(() => show(value), 60);
  });
  document.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const target = event.target;
    // The slider and text fields handle their own keys.
    if (target instanceof HTMLElement && target.closest("input, textarea, select, [contenteditable]")) return;
    const step = state.wanted ?? 0;
    const moves = { ArrowLeft: step - 1, ArrowRight: step + 1, Home: 0, End: state.steps, PageUp: step - 10, PageDown: step + 10 };
    if (!(event.key in moves)) return;
    event.preventDefault();
    show(moves[event.key]);
  });
}

async function start() {
  if (!(config.game_type in GAMES)) {
    say(`Replays are available for Acquire, cribbage and riichi games; this is ${config.game_type_name || config.game_type}.`);
    els.board.replaceChildren();
    return;
  }
  game = await GAMES[config.game_type]();
  if (config.status === "setup" || config.status === "active") {
    say(config.status === "setup"
      ? "This game has not started yet, so there is nothing to replay."
      : "This game is still in progress. Its replay opens once it is over, when every tile can be shown.",
    { link: { href: `/games/${gameId}/`, text: "Go to the table" } });
    els.board.replaceChildren(h("p", { class: "board__note" }, "No replay yet."));
    return;
  }
  let review = null;
  if (game.review) {
    try {
      review = await getJson(`/api/games/${gameId}/review/`);
    } catch (error) {
      say(`This game cannot be replayed: ${error.message}`, { kind: "error" });
      els.board.replaceChildren(h("p", { class: "board__note" }, "No replay."));
      return;
    }
  }
  state.usernames = Array.isArray(review?.[5]) ? review[5] : [];
  const actions = Array.isArray(review?.[8]) ? review[8] : [];
  let first;
  try {
    first = await fetchStep(0);
  } catch (error) {
    say(`This game cannot be replayed: ${error.message}`, { kind: "error" });
    return;
  }
  // The replay API knows the number of steps; the review's action list should agree.
  state.steps = typeof first.steps === "number" ? first.steps : actions.length;
  els.controls.hidden = false;
  wire();
  const asked = Number(new URL(window.location.href).searchParams.get("step"));
  const initial = Number.isInteger(asked) && new URL(window.location.href).searchParams.has("step") ? asked : state.steps;
  await show(initial);
}

start();
