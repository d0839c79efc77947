// The replay page (/games/<id>/replay/): step through a finished game.
//
// It reads the review data where the game type has it (GET /api/games/<id>/review/: Acquire's
// players and action list) and, for each step shown, the state after that many actions
// (GET /api/games/<id>/replay/?step=N: {view, history}, everything revealed for a finished
// game). The table is drawn by the same modules as the live game page (Acquire with every rack
// showing; cribbage and riichi with every hand).
//
// A game type may also list the parts of its game (riichi's hands) from the last step's history
// and the replay API's ``message_steps`` (the step that brought each message): a select and the
// [ and ] keys jump from part to part, each opening at the step that begins it.
//
// The page steps by what a viewer sees: an action that changes nothing seen (riichi's passes,
// declining to call a discard) is folded into the step before it, by the server, which says where
// each visible step begins (``visible_starts``, asked once with step 0). "Step 37 of 220" counts
// visible steps; the address keeps the log's step (``?step=N``, the action count the API, the
// hand list and links from elsewhere use), and a folded N opens the visible step it is in.
//
// A finished riichi game's page also has the decision review (./games/riichi/review.js,
// docs/review.md): told the visible step at each step drawn, it shows the reviewed seat's
// decisions there, and its list of the costliest decisions jumps to their steps.

import { apiJson } from "./api.js";
import { h, readJson } from "./dom.js";

/**
 * What the page needs from a game type, loaded on demand: playerTag(name, {bot}), describe(message,
 * who), table(view, history, who, {chapter}) -> Node, quiet (message types the caption skips),
 * result(history, who) -> Node or null, and whether the game has review data to read. Optionally
 * chapters(history, messageSteps, nameOf) -> [{step, index (the message that begins it), label}]
 * with chapterName ([singular, plural]), and rules(view) -> Node (shown beside the log).
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
    const [{ playerTag, replayHands, replayScreen, endedRound }, { describeMessage, QUIET }, { renderStandings }, { renderTable }, { renderRules }] = await Promise.all([
      import("./games/riichi.js"), import("./games/riichi/log.js"),
      import("./games/riichi/result.js"), import("./games/riichi/table.js"), import("./games/riichi/rules.js")]);
    let lastHistory = [];
    let lastView = null;
    return {
      review: false,
      playerTag,
      // The log lines need the whole history (who dealt in, which hand): the step's, kept by table().
      describe: (message, who) => describeMessage(message, who, { history: lastHistory, rule: lastView?.rule }),
      // The deal that follows a hand's end in the same step does not hide the end in the caption.
      quiet: new Set([...QUIET, "qipai"]),
      table(view, history, who, { chapter = null } = {}) {
        lastHistory = history;
        lastView = view;
        // A player watching their own game sits in their seat; everyone else sees the first
        // dealer's seat at the bottom. Every hand is open: the view of a finished game is revealed.
        const bottom = typeof view.viewer === "number" ? view.viewer : view.qijia ?? 0;
        // Jumped to a hand: its deal, not the result of the hand before (ended by the same step).
        // Once over, the view names the next round; the centre shows the one the game ended in.
        return renderTable(view, { who, bottom, mine: typeof view.viewer === "number",
          ended: view.is_over ? endedRound(history, view) : null,
          screen: replayScreen(history, view, who, { deal: Boolean(chapter) }) });
      },
      // A finished game's decision review, beside the table (./games/riichi/review.js).
      decisions: () => import("./games/riichi/review.js"),
      chapterName: ["hand", "hands"],
      chapters: (history, messageSteps, nameOf) => replayHands(history, messageSteps, nameOf),
      rules: (view) => (view?.rule ? renderRules(view.rule, view.preset, config.riichi_presets) : null),
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
  rules: document.getElementById("replay-rules"),
  keys: document.getElementById("replay-keys"),
  review: document.getElementById("replay-review"), // only on a finished riichi game's page
  // The chapter controls (select, previous, next), built once the chapters are known.
  chapters: null,
  chapter: null,
  prevChapter: null,
  nextChapter: null,
};

const state = {
  steps: 0, // the last visible step
  logSteps: 0, // the number of actions in the log
  starts: [0], // visible step -> the log step that begins it
  step: null, // the visible step drawn
  wanted: null, // the visible step asked for last (responses for others are dropped)
  usernames: [],
  cache: new Map(), // log step -> {view, history, ...}
  historyLength: new Map(), // visible step -> history length, to mark what the last step added
  chapters: [], // the game type's parts (riichi's hands), in order, each with the log step that begins it
  review: null, // the decision review's panel ({showStep}), where the game type has one
};

const players = new Map((config.players || []).map((p) => [p.position, p]));
let game = null; // the game type's pieces (GAMES), once loaded

function nameOf(seat) {
  return players.get(seat)?.username ?? state.usernames[seat] ?? `seat ${seat + 1}`;
}

function who(seat) {
  return game.playerTag(nameOf(seat), { bot: Boolean(players.get(seat)?.bot) });
}

function say(text, { kind = "info", link = null } = {}) {
  els.message.replaceChildren(h("strong", {}, text), ...(link ? [" ", h("a", { href: link.href }, link.text)] : []));
  els.message.dataset.kind = kind;
  els.message.hidden = false;
}

const getJson = (url) => apiJson(url);

function fetchStep(step, { starts = false } = {}) {
  if (!state.cache.has(step)) {
    const promise = getJson(`/api/games/${gameId}/replay/?step=${step}${starts ? "&starts=true" : ""}`).catch((error) => {
      state.cache.delete(step);
      throw error;
    });
    state.cache.set(step, promise);
  }
  return state.cache.get(step);
}

/** The visible step a log step is in: the last one begun by then. */
function visibleOf(logStep) {
  let low = 0;
  let high = state.starts.length - 1;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (state.starts[middle] <= logStep) low = middle;
    else high = middle - 1;
  }
  return low;
}

/**
 * What a step did, in words: the last telling message the visible step added (a riichi draw,
 * quiet elsewhere, when it added nothing else), so each step forward says something new; after a
 * jump to a chapter, the message that begins it (a hand's deal rather than the end of the hand
 * before); failing those, the last telling message so far.
 */
function tellingOf(data, chapter) {
  const { history } = data;
  if (chapter && history[chapter.index]) return history[chapter.index];
  const steps = data.message_steps;
  if (Array.isArray(steps) && steps.length === history.length && typeof data.visible_start === "number") {
    let first = history.length;
    while (first > 0 && steps[first - 1] >= data.visible_start) first -= 1;
    const added = history.slice(first);
    const loud = [...added].reverse().find((m) => !game.quiet.has(m.type));
    if (loud || added.length) return loud || added[0];
  }
  return [...history].reverse().find((m) => !game.quiet.has(m.type));
}

// ------------------------------------------------------------------ drawing

function draw(step, data, previousLength, chapter = null) {
  const { view, history } = data;
  els.board.replaceChildren(game.table(view, history, who, { chapter }));
  // The log's step drawn (as in the address) and the visible step it is.
  els.board.dataset.step = String(state.starts[step]);
  els.board.dataset.visibleStep = String(step);
  if (els.rules && els.rules.hidden && game.rules) {
    // The rules are the same at every step: drawn once, from the first step shown.
    const rules = game.rules(view);
    if (rules) {
      els.rules.replaceChildren(rules);
      els.rules.hidden = false;
    }
  }

  const added = previousLength !== null && previousLength < history.length ? previousLength : history.length;
  els.log.replaceChildren(...history.map((message, i) => h("li", {
    class: ["log-line", i >= added && "log-line--new"], dataset: { type: message.type } },
  h("span", { class: "log-line__n", "aria-hidden": "true" }, String(i + 1)),
  game.describe(message, who))));
  els.logEmpty.hidden = history.length > 0;
  const fresh = els.log.querySelector(".log-line--new");
  if (fresh) els.log.scrollTop = fresh.offsetTop - els.log.offsetTop - 8;
  else els.log.scrollTop = els.log.scrollHeight;

  const telling = tellingOf(data, chapter);
  els.step.textContent = `Step ${step} of ${state.steps}`;
  els.step.dataset.logStep = String(state.starts[step]);
  els.step.title = `Action ${state.starts[step]} of ${state.logSteps} in the game's log`;
  els.what.replaceChildren(step === 0 ? "Before the first move" : telling ? game.describe(telling, who) : "");

  if (state.review) state.review.showStep(step);

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
  if (els.chapter) {
    const at = chapterAt(step);
    els.chapter.value = at >= 0 ? String(at) : "";
    els.prevChapter.disabled = at <= 0;
    els.nextChapter.disabled = at >= state.chapters.length - 1;
  }
}

/** The chapter a visible step is in: the last one begun by then (-1 before the first). */
function chapterAt(step) {
  const logStep = state.starts[step] ?? 0;
  let at = -1;
  state.chapters.forEach((chapter, i) => {
    if (chapter.step <= logStep) at = i;
  });
  return at;
}

function jumpToChapter(i) {
  const chapter = state.chapters[i];
  if (chapter) show(visibleOf(chapter.step), { chapter });
}

/** The previous (-1) or next (+1) chapter from the step shown; nothing after the last. */
function stepChapter(delta) {
  const at = chapterAt(state.wanted ?? 0);
  const next = Math.max(0, Math.min(state.chapters.length - 1, at + delta));
  if (delta > 0 && next === at) return;
  jumpToChapter(next);
}

async function show(step, { chapter = null } = {}) {
  step = Math.max(0, Math.min(state.steps, Math.round(step)));
  const previous = state.step;
  state.wanted = step;
  syncControls();
  try {
    const data = await fetchStep(state.starts[step]);
    if (state.wanted !== step) return; // the user moved on meanwhile
    state.historyLength.set(step, data.history.length);
    // Stepping forward by one marks what that step added to the log.
    const previousLength = previous !== null && previous === step - 1 ? state.historyLength.get(previous) ?? null : null;
    draw(step, data, previousLength, chapter);
    state.step = step;
    const url = new URL(window.location.href);
    url.searchParams.set("step", String(state.starts[step]));
    window.history.replaceState(null, "", url);
    // The neighbours are the likeliest next requests.
    for (const next of [step + 1, step - 1]) if (next >= 0 && next <= state.steps) fetchStep(state.starts[next]).catch(() => {});
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
    const inside = (selector) => target instanceof HTMLElement && target.closest(selector);
    // [ and ] mean nothing to the slider or the chapter select, so they work there too (after
    // choosing a hand, focus stays on the select); never while typing.
    if ((event.key === "[" || event.key === "]") && state.chapters.length && !inside('textarea, [contenteditable], input:not([type="range"])')) {
      event.preventDefault();
      stepChapter(event.key === "[" ? -1 : 1);
      return;
    }
    // The slider and text fields handle their own keys.
    if (inside("input, textarea, select, [contenteditable]")) return;
    const step = state.wanted ?? 0;
    const moves = { ArrowLeft: step - 1, ArrowRight: step + 1, Home: 0, End: state.steps, PageUp: step - 10, PageDown: step + 10 };
    if (!(event.key in moves)) return;
    event.preventDefault();
    show(moves[event.key]);
  });
}

/**
 * The chapter list (riichi's hands), from the last step's history and its message_steps: one more
 * request at most (none when the page opens at the last step, as it does by default), never one
 * per step. A server without message_steps leaves the page without the list.
 */
async function loadChapters() {
  if (!game.chapters) return;
  let data;
  try {
    data = await fetchStep(state.starts[state.steps]);
  } catch {
    return; // the step-by-step controls still work; show() reports its own failures
  }
  if (!Array.isArray(data.message_steps) || data.message_steps.length !== data.history.length) return;
  const chapters = game.chapters(data.history, data.message_steps, nameOf);
  if (!chapters.length) return;
  state.chapters = chapters;
  const [one, many] = game.chapterName || ["part", "parts"];
  const title = one[0].toUpperCase() + one.slice(1);
  els.chapter = h("select", { class: "replay-chapters__select", dataset: { testid: "replay-hands" }, "aria-label": `Jump to a ${one}`,
    onchange: () => {
      if (els.chapter.value !== "") jumpToChapter(Number(els.chapter.value));
    } },
  h("option", { value: "", disabled: true, hidden: true }, `Before the first ${one}`),
  chapters.map((c, i) => h("option", { value: String(i), dataset: { testid: "replay-hand", step: c.step } }, `${i + 1}. ${c.label}`)));
  els.prevChapter = h("button", { type: "button", class: "btn btn--ghost btn--small", dataset: { testid: "replay-prev-hand" },
    title: `Previous ${one} ([)`, onclick: () => stepChapter(-1) }, `‹ ${title}`);
  els.nextChapter = h("button", { type: "button", class: "btn btn--ghost btn--small", dataset: { testid: "replay-next-hand" },
    title: `Next ${one} (])`, onclick: () => stepChapter(1) }, `${title} ›`);
  els.chapters = h("div", { class: "replay-chapters", dataset: { testid: "replay-chapters", count: chapters.length } },
    h("span", { class: "replay-chapters__label" }, `${chapters.length} ${chapters.length === 1 ? one : many}`),
    els.prevChapter, els.chapter, els.nextChapter);
  els.controls.insertBefore(els.chapters, els.controls.querySelector(".replay-controls__step"));
  if (els.keys) els.keys.textContent = `Keys: ← → step, Home / End jump, [ ] previous / next ${one}.`;
  syncControls();
}

async function start() {
  if (!(config.game_type in GAMES)) {
    say(`Replays are available for Acquire, cribbage and riichi games; this is ${config.game_type_name || config.game_type}.`);
    els.board.replaceChildren();
    return;
  }
  game = await GAMES[config.game_type]();
  if (config.status === "setup" || config.status === "active" || config.status === "adjourned") {
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
    first = await fetchStep(0, { starts: true });
  } catch (error) {
    say(`This game cannot be replayed: ${error.message}`, { kind: "error" });
    return;
  }
  // The replay API knows the number of steps; the review's action list should agree.
  state.logSteps = typeof first.steps === "number" ? first.steps : actions.length;
  // Where each visible step begins; without it (an older server), every action is a step.
  const starts = first.visible_starts;
  state.starts = Array.isArray(starts) && starts.length && starts[0] === 0
    ? starts : Array.from({ length: state.logSteps + 1 }, (_, i) => i);
  state.steps = state.starts.length - 1;
  els.controls.hidden = false;
  wire();
  // ?step=N is the log's step: a folded one opens the visible step it is in.
  const asked = Number(new URL(window.location.href).searchParams.get("step"));
  const initial = Number.isInteger(asked) && new URL(window.location.href).searchParams.has("step")
    ? visibleOf(Math.max(0, Math.min(state.logSteps, asked))) : state.steps;
  const shown = show(initial);
  // After the first step asked for: opened at the last step, both wait on the same request.
  loadChapters();
  loadReview();
  await shown;
}

/** The decision review's panel, where the page has one (a finished riichi game). */
async function loadReview() {
  if (!els.review || !game.decisions) return;
  const { mountReview } = await game.decisions();
  state.review = mountReview(els.review, {
    gameId, players: config.players || [], user: config.user ?? null, reviewed: config.reviewed_seats || [], nameOf, visibleOf,
    jump: (logStep) => show(visibleOf(logStep)),
  });
  if (state.step !== null) state.review.showStep(state.step);
}

start();
