// The lobby's "Play now" panel (docs/play-now.md): choose a game and its common settings, press
// Play now, and the server seats you with players of a similar rating, or with house bots once the
// wait you chose is over.
//
// The panel is a small state machine drawn into the markup of templates/games/lobby.html:
//   form    — the choices and the two buttons (an error or a note under them);
//   waiting — "Looking for players…": time waited, the skill window, who else waits, the bots;
//   seated  — a table is ready: we go there (or, after a reload, offer to).
// lobby.js owns the socket and hands over the messages that concern Play now (``handle``, ``greet``,
// ``error``); this module never opens a connection of its own.

import { h } from "./dom.js";

// What games/core/play_now.py ``read`` takes when a choice is left out.
const DEFAULTS = {
  game_type: "riichi", preset: "tenhou", length: "east-south", bot_level: "intermediate", clock: "untimed", bots_after: 15,
  players: { acquire: 4, cribbage: 2 },
};
// The labels requests are sent with: an Error answering one of them is the panel's to show.
const LABEL = { join: "Play now", bots: "Play against bots now", leave: "Leave queue" };
const REQUESTS = new Set(Object.values(LABEL));
const STORE = "play-now:choices";

// Errors in words (the server's reason follows where it says more than the code).
const ERRORS = {
  AtTable: () => "You have a seat at a table being set up. Leave that table first, then press Play now.",
  InvalidPlayNow: (reason) => `Those choices do not make a table this site seats (${reason}). Pick again.`,
  NotQueued: () => "You were no longer waiting in the queue.",
  RateLimited: () => "Too many requests at once: wait a moment and try again.",
};
const LEFT = {
  left: "You left the queue.",
  seated: "You took a seat at another table, so you left the queue.",
  gone: "You were taken out of the queue.",
};

export function formatWait(ms) {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

/**
 * @param {HTMLElement} root the panel (``[data-play-now]``).
 * @param {object} options
 * @param {object} options.choices games.core.play_now.choices(), with ``window`` {base, growth}.
 * @param {Map<string, {name: string}>} options.gameTypes the lobby's game types, for their names.
 * @param {(message: object, label: string) => boolean} options.send false when not connected.
 * @param {(game: number) => void} options.goToGame open a game's page.
 */
export function createPlayNow(root, { choices, gameTypes, send, goToGame }) {
  const els = {
    form: root.querySelector("[data-pn-form]"),
    games: root.querySelector("[data-pn-games]"),
    settings: root.querySelector("[data-pn-settings]"),
    join: root.querySelector("[data-pn-join]"),
    bots: root.querySelector("[data-pn-bots-now]"),
    error: root.querySelector("[data-pn-error]"),
    note: root.querySelector("[data-pn-note]"),
    waiting: root.querySelector("[data-pn-waiting]"),
    seated: root.querySelector("[data-pn-seated]"),
    live: root.querySelector("[data-pn-live]"),
  };
  const gameNames = Object.keys(choices.clock);
  const windowRule = choices.window || { base: 2, growth: 0.2 };
  let mode = "form";
  let online = false;
  let pending = false;
  let waiting = null; // the last PlayNowWaiting (or Greetings' play_now), and when it came
  let timer = null;
  // The person acted in the panel and waits for the answer: the face that answers takes the focus
  // (the button pressed is disabled meanwhile, and gone with its face afterwards).
  let focusFollows = false;
  // Tables offered after a reload that the person set aside ("Play another"): not offered again.
  const dismissed = new Set();
  const remembered = recall();

  // ------------------------------------------------------------ the form

  function typeLabel(key) {
    return gameTypes.get(key)?.name || key;
  }

  /** One group of choices drawn as a row of pills (radio buttons under the pills' faces). */
  function choiceGroup({ name, legend, options, selected, wide = false, testid }) {
    return h("fieldset", { class: ["pn-group", wide && "pn-group--wide"], dataset: { testid } },
      h("legend", { class: "pn-group__legend" }, legend),
      h("div", { class: "pn-pills" },
        options.map(({ value, label, detail }) => h("label", { class: "pn-pill" },
          h("input", { type: "radio", name, value: String(value), checked: String(value) === String(selected),
            dataset: { testid: `${testid}-${value}` } }),
          h("span", { class: "pn-pill__face" },
            h("span", { class: "pn-pill__label" }, label),
            detail ? h("span", { class: "pn-pill__detail" }, detail) : null)))));
  }

  function entries(object) {
    return Object.entries(object || {}).map(([value, label]) => ({ value, label }));
  }

  // A clock's label is "Fast: 5 s a decision + 10 s bank": the pill shows "Fast" over the rest.
  function clockOptions(type) {
    return entries(choices.clock[type]).map(({ value, label }) => {
      const [head, ...rest] = label.split(":");
      return { value, label: head.trim(), detail: rest.join(":").trim() || "No clock" };
    });
  }

  function botOptions() {
    return (choices.bots_after || []).filter((value) => value !== 0).map((value) => ({
      value: value === null ? "never" : value,
      label: value === null ? "Never" : `After ${value} s`,
      detail: value === null ? "People only" : null,
    }));
  }

  function drawGames() {
    els.games.replaceChildren(choiceGroup({
      name: "pn-game", legend: "Game", testid: "pn-game", wide: true, selected: remembered.game_type,
      options: gameNames.map((key) => ({ value: key, label: typeLabel(key) })),
    }));
  }

  function drawSettings() {
    const type = chosen("pn-game") || DEFAULTS.game_type;
    const groups = [];
    if (type === "riichi") {
      groups.push(choiceGroup({ name: "pn-preset", legend: "Rules", testid: "pn-preset",
        options: entries(choices.riichi.preset), selected: remembered.preset }));
      groups.push(choiceGroup({ name: "pn-length", legend: "Length", testid: "pn-length",
        options: entries(choices.riichi.length), selected: remembered.length }));
      // The level of the house bots that fill empty seats (the table's first player's choice decides).
      groups.push(choiceGroup({ name: "pn-bot_level", legend: "Bot level", testid: "pn-level",
        options: entries(choices.riichi.bot_level), selected: remembered.bot_level }));
    } else {
      groups.push(choiceGroup({ name: "pn-players", legend: "Players", testid: "pn-players",
        options: entries(choices[type]?.players), selected: remembered.players[type] ?? DEFAULTS.players[type] }));
    }
    groups.push(choiceGroup({ name: "pn-clock", legend: "Clock", testid: "pn-clock",
      options: clockOptions(type), selected: remembered.clock }));
    groups.push(choiceGroup({ name: "pn-bots", legend: "Fill empty seats with bots", testid: "pn-bots",
      options: botOptions(), selected: remembered.bots_after === null ? "never" : remembered.bots_after }));
    els.settings.replaceChildren(...groups);
    // A remembered choice the new type lacks (a clock name is shared, players are not): the first.
    for (const group of els.settings.querySelectorAll(".pn-group")) {
      const radios = [...group.querySelectorAll("input[type=radio]")];
      if (radios.length && !radios.some((r) => r.checked)) radios[0].checked = true;
    }
  }

  function chosen(name) {
    return root.querySelector(`input[name="${name}"]:checked`)?.value ?? null;
  }

  /** The PlayNow message the form says (bots at once for "Play against bots now"). */
  function request(botsNow) {
    const type = chosen("pn-game") || DEFAULTS.game_type;
    const message = { type: "PlayNow", game_type: type, clock: chosen("pn-clock") || DEFAULTS.clock };
    if (type === "riichi") {
      message.preset = chosen("pn-preset") || DEFAULTS.preset;
      message.length = chosen("pn-length") || DEFAULTS.length;
      message.bot_level = chosen("pn-bot_level") || DEFAULTS.bot_level;
    } else {
      message.players = Number(chosen("pn-players")) || DEFAULTS.players[type];
    }
    const bots = chosen("pn-bots");
    message.bots_after = botsNow ? 0 : bots === "never" ? null : Number(bots ?? DEFAULTS.bots_after);
    return message;
  }

  function recall() {
    let stored = {};
    try {
      stored = JSON.parse(localStorage.getItem(STORE) || "{}") || {};
    } catch {
      stored = {};
    }
    return { ...DEFAULTS, ...stored, players: { ...DEFAULTS.players, ...(stored.players || {}) } };
  }

  function remember(message) {
    remembered.game_type = message.game_type;
    remembered.clock = message.clock;
    if (message.preset) remembered.preset = message.preset;
    if (message.length) remembered.length = message.length;
    if (message.bot_level) remembered.bot_level = message.bot_level;
    if (message.players) remembered.players[message.game_type] = message.players;
    // "Play against bots now" is a button, not a wait to remember.
    if (message.bots_after !== 0) remembered.bots_after = message.bots_after;
    try {
      localStorage.setItem(STORE, JSON.stringify(remembered));
    } catch {
      // Storage may be disabled: the form then starts on the defaults next time.
    }
  }

  function submit(botsNow) {
    const message = request(botsNow);
    showError(null);
    showNote(null);
    remember(message);
    if (!send(message, botsNow ? LABEL.bots : LABEL.join)) {
      showError("Not connected to the server: wait a moment and try again.");
      return;
    }
    pending = true;
    focusFollows = root.contains(document.activeElement);
    drawButtons();
  }

  function drawButtons() {
    const blocked = !online || pending;
    els.join.disabled = blocked;
    els.bots.disabled = blocked;
    els.form.setAttribute("aria-busy", pending ? "true" : "false");
    const leave = els.waiting.querySelector("[data-pn-leave]");
    if (leave) leave.disabled = blocked;
  }

  // Under the form's buttons, or under the waiting card's Leave queue.
  function showError(text) {
    for (const el of [els.error, els.waiting.querySelector("[data-pn-card-error]")]) {
      if (!el) continue;
      const here = Boolean(text) && (el === els.error) === (mode !== "waiting");
      el.textContent = here ? text : "";
      el.hidden = !here;
    }
  }

  function showNote(text) {
    els.note.textContent = text || "";
    els.note.hidden = !text;
  }

  function announce(text) {
    els.live.textContent = text;
  }

  // ------------------------------------------------------------ the states

  /** Show one of the panel's faces; focus follows if it was inside the panel (the button pressed
   * is gone), so a keyboard user stays where the action is. */
  function show(next, focusTarget) {
    const focusInside = focusFollows || root.contains(document.activeElement);
    focusFollows = false;
    mode = next;
    root.dataset.state = next;
    els.form.hidden = next !== "form";
    els.waiting.hidden = next !== "waiting";
    els.seated.hidden = next !== "seated";
    if (next !== "waiting") stopTimer();
    if (focusInside && focusTarget) focusTarget.focus();
  }

  function toForm(note = null) {
    waiting = null;
    pending = false;
    drawButtons();
    // The button pressed last is gone with the card: focus goes to Play now (or the game chosen).
    show("form", els.join.disabled ? root.querySelector('input[name="pn-game"]:checked') : els.join);
    showError(null);
    showNote(note);
    if (note) announce(note);
  }

  function describeChoice(data) {
    const type = data.game_type;
    const parts = [typeLabel(type)];
    if (type === "riichi") {
      parts.push(choices.riichi.preset[data.preset] || data.preset, choices.riichi.length[data.length] || data.length);
      if (data.bot_level) parts.push(`${choices.riichi.bot_level?.[data.bot_level] || data.bot_level} bots`);
    } else if (data.players !== undefined) {
      parts.push(choices[type]?.players?.[data.players] || `${data.players} players`);
    }
    const clock = choices.clock[type]?.[data.clock];
    if (clock) parts.push(clock);
    return parts.join(" · ");
  }

  function fact(label, testid) {
    return h("div", { class: "pn-fact" }, h("dt", {}, label), h("dd", { dataset: { testid } }));
  }

  function toWaiting(data) {
    const arriving = mode !== "waiting";
    waiting = { ...data, received: performance.now() };
    pending = false;
    showError(null);
    if (arriving) {
      const title = h("h3", { class: "pn-card__title", tabindex: "-1", dataset: { testid: "play-now-status" } },
        "Looking for players…");
      els.waiting.replaceChildren(
        h("div", { class: "pn-card__head" },
          h("span", { class: "pn-chips", "aria-hidden": "true" }, h("span"), h("span"), h("span")),
          title),
        h("p", { class: "pn-card__what", dataset: { testid: "play-now-what" } }),
        h("dl", { class: "pn-facts" },
          fact("Waiting", "play-now-elapsed"),
          fact("Skill window", "play-now-window"),
          fact("Others waiting", "play-now-others"),
          fact("Bots", "play-now-bots-in")),
        h("p", { class: "pn-card__help" },
          "You are seated with players whose skill is within the window of yours; it widens the longer you wait."),
        h("div", { class: "pn-card__actions" },
          h("button", { type: "button", class: "btn btn--ghost", dataset: { testid: "play-now-leave", pnLeave: "" },
            onclick: leave }, "Leave queue")),
        h("p", { class: "pn-error", role: "alert", hidden: true, dataset: { testid: "play-now-leave-error", pnCardError: "" } }));
      show("waiting", title);
      showNote(null);
      announce(`Looking for players: ${describeChoice(data)}.`);
    }
    els.waiting.querySelector('[data-testid="play-now-what"]').textContent = describeChoice(data);
    els.waiting.querySelector('[data-testid="play-now-others"]').textContent = String(data.others ?? 0);
    drawButtons();
    tick();
    if (!timer) timer = window.setInterval(tick, 1000);
  }

  /** The card's clock: time waited, the window as the server widens it, the bots' countdown. */
  function tick() {
    if (!waiting) return;
    const waited = (waiting.waited_ms || 0) + (performance.now() - waiting.received);
    const width = windowRule.base + windowRule.growth * (waited / 1000);
    const set = (testid, text) => {
      const el = els.waiting.querySelector(`[data-testid="${testid}"]`);
      if (el && el.textContent !== text) el.textContent = text;
    };
    set("play-now-elapsed", formatWait(waited));
    set("play-now-window", `± ${width.toFixed(1)}`);
    if (waiting.bots_after === null || waiting.bots_after === undefined) {
      set("play-now-bots-in", "waiting for people only");
    } else {
      const left = waiting.bots_after * 1000 - waited;
      set("play-now-bots-in", left > 0 ? `join in ${formatWait(left + 999)}` : "joining now…");
    }
  }

  function stopTimer() {
    if (timer) window.clearInterval(timer);
    timer = null;
  }

  /** A table is ready: ``go`` takes us there (we were waiting for it); otherwise it is offered. */
  function toSeated(game, gameType, { go }) {
    pending = false;
    waiting = null;
    const title = h("h3", { class: "pn-card__title", tabindex: "-1", dataset: { testid: "play-now-seated-title" } },
      go ? "Table found!" : "Your Play now table is ready");
    els.seated.replaceChildren(
      h("div", { class: "pn-card__head" }, title),
      h("p", { class: "pn-card__what" },
        go ? `${typeLabel(gameType)} #${game}: taking you to your seat…`
          : `${typeLabel(gameType)} #${game} is waiting for your moves.`),
      h("div", { class: "pn-card__actions" },
        h("a", { class: "btn btn--brass", href: `/games/${game}/`, dataset: { testid: "play-now-go" } }, "Go to the game"),
        go ? null : h("button", { type: "button", class: "btn btn--ghost", dataset: { testid: "play-now-dismiss" },
          onclick: () => {
            dismissed.add(game);
            toForm();
          } }, "Play another")));
    show("seated", title);
    announce(go ? `Table found: ${typeLabel(gameType)} #${game}.` : `Your table ${typeLabel(gameType)} #${game} is ready.`);
    if (go) goToGame(game);
  }

  function leave() {
    showError(null);
    if (!send({ type: "LeavePlayNow" }, LABEL.leave)) {
      showError("Not connected to the server: wait a moment and try again.");
      return;
    }
    pending = true;
    focusFollows = root.contains(document.activeElement);
    drawButtons();
  }

  // ------------------------------------------------------------ from lobby.js

  /** A server message; true when it was Play now's. */
  function handle(message) {
    switch (message.type) {
      case "PlayNowWaiting":
        toWaiting(message);
        return true;
      case "PlayNowSeated":
        toSeated(message.game, message.game_type, { go: true });
        return true;
      case "PlayNowLeft":
        if (mode !== "seated") toForm(LEFT[message.reason] || "You are no longer in the queue.");
        return true;
      default:
        return false;
    }
  }

  /** Greetings' ``play_now`` (absent: not queued) on every (re)connect; ``games``: the games in
   * progress it listed, by id. A seated entry outlives its game a while: only a game still being
   * played is offered. */
  function greet(placed, games) {
    pending = false;
    if (placed?.status === "waiting") {
      toWaiting(placed);
    } else if (placed?.status === "seated" && games.has(placed.game)) {
      // Waiting on this page when the connection dropped: that is the table we were waiting for.
      if (mode === "waiting") toSeated(placed.game, placed.game_type, { go: true });
      else if (mode !== "seated" && !dismissed.has(placed.game)) toSeated(placed.game, placed.game_type, { go: false });
    } else if (mode === "waiting") {
      toForm("You are no longer in the queue.");
    }
    drawButtons();
  }

  /** An Error; true when it answered one of the panel's requests (shown in the panel). */
  function error(message) {
    if (!REQUESTS.has(message.request)) return false;
    pending = false;
    const words = ERRORS[message.code]?.(message.reason) || message.reason || "Something went wrong.";
    if (message.code === "NotQueued" && mode === "waiting") {
      toForm(words);
      return true;
    }
    const refocus = focusFollows;
    focusFollows = false;
    showError(words);
    drawButtons();
    // The button pressed was disabled while the request was out: back to it, to try again.
    if (refocus && !root.contains(document.activeElement)) {
      (mode === "waiting" ? els.waiting.querySelector("[data-pn-leave]") : els.join)?.focus();
    }
    return true;
  }

  function setOnline(live) {
    online = live;
    if (!live) pending = false;
    drawButtons();
  }

  // ------------------------------------------------------------ start

  // What the person picks is kept (not stored until they press a button), so a change of game
  // keeps the clock and the bots' wait they chose.
  function pick(event) {
    const input = event.target;
    if (!(input instanceof HTMLInputElement) || input.type !== "radio") return;
    const type = chosen("pn-game") || DEFAULTS.game_type;
    if (input.name === "pn-game") {
      remembered.game_type = input.value;
      drawSettings();
    } else if (input.name === "pn-players") {
      remembered.players[type] = Number(input.value);
    } else if (input.name === "pn-bots") {
      remembered.bots_after = input.value === "never" ? null : Number(input.value);
    } else {
      remembered[input.name.slice(3)] = input.value; // pn-preset, pn-length, pn-bot_level, pn-clock
    }
    showError(null);
  }

  drawGames();
  drawSettings();
  els.form.addEventListener("change", pick);
  els.form.addEventListener("submit", (event) => {
    event.preventDefault();
    submit(false);
  });
  els.bots.addEventListener("click", () => submit(true));
  show("form");
  drawButtons();

  return { handle, greet, error, setOnline };
}
