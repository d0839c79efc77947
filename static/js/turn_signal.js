// Turn signals: tell a player whose table is in a background tab that the game waits for them.
//
// game.js says after each repaint whether the game waits for this player (update(waiting)); this
// module knows nothing of any game. Three signals, each switched by the player's preferences
// (stored on the server: PATCH /api/me/preferences/, drawn into the page by the template):
//
// - title: while the game waits for the player and the tab is hidden, the tab's title reads
//   "● Your turn — <game> #N"; it is restored as soon as either stops being true.
// - notification: once when the turn comes while the tab is hidden, if the browser allows it.
//   Permission is asked only from the menu's switch (a click), never on load. The notification
//   closes when the turn passes or the tab is shown; clicking it brings the tab forward.
// - sound: once when the turn comes while the tab is hidden, a short two-tone beep made by an
//   oscillator (Web Audio: no file to fetch). Browsers let a page make sound only after the
//   person has interacted with it, so the audio is set up at the first click or key press on the
//   page; before that the turn stays silent.
//
// "The turn comes" is the moment update() goes from false to true, so a turn that begins while
// the player is looking gives no notification or sound later, when they switch away.

const MARK = "● Your turn — ";
const BEEP = [
  // [frequency Hz, start s, length s]: a rising pair, short enough not to annoy.
  [660, 0, 0.12],
  [880, 0.14, 0.16],
];
const BEEP_VOLUME = 0.18;

/**
 * Wire the turn signals of one table page.
 * ``label``: how the tab names the game ("Acquire #12"). ``menu``: the <details> of
 * templates/games/_turn_signals.html, or null (no menu: nothing is signalled). ``preferences``:
 * the three switches as the server stored them.
 * Returns ``{ update(waiting) }``; call it whenever the page's picture of the game changed.
 */
export function createTurnSignal({ label, menu, preferences }) {
  if (!menu || !preferences) return { update() {} };
  const prefs = { ...preferences };
  const originalTitle = document.title;
  let waiting = false;
  let notification = null;
  let audio = null;

  // ---------------------------------------------------------------- the signals

  function showTitle() {
    const marked = prefs.turn_title && waiting && document.visibilityState === "hidden";
    const title = marked ? `${MARK}${label}` : originalTitle;
    if (document.title !== title) document.title = title;
  }

  function notify() {
    if (!prefs.turn_notification || !("Notification" in window) || Notification.permission !== "granted") return;
    try {
      // One per game (tag): a newer turn replaces an unread one instead of piling up.
      notification = new Notification("Your turn", { body: `${label}: the game waits for you.`, tag: `turn-${label}` });
      notification.addEventListener("click", () => {
        window.focus();
        closeNotification();
      });
    } catch {
      // Some browsers (Android Chrome) allow notifications only from a service worker: no signal.
      notification = null;
    }
  }

  function closeNotification() {
    if (notification) notification.close();
    notification = null;
  }

  function unlockAudio() {
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return null;
    if (!audio) audio = new Context();
    if (audio.state === "suspended") audio.resume().catch(() => {});
    return audio;
  }

  function beep() {
    if (prefs.turn_sound && audio && audio.state === "running") play();
  }

  function play() {
    const now = audio.currentTime;
    for (const [frequency, start, length] of BEEP) {
      const oscillator = audio.createOscillator();
      const gain = audio.createGain();
      oscillator.type = "sine";
      oscillator.frequency.value = frequency;
      // A quick rise and fall: a tone cut on and off abruptly clicks.
      gain.gain.setValueAtTime(0, now + start);
      gain.gain.linearRampToValueAtTime(BEEP_VOLUME, now + start + 0.015);
      gain.gain.exponentialRampToValueAtTime(0.001, now + start + length);
      oscillator.connect(gain).connect(audio.destination);
      oscillator.start(now + start);
      oscillator.stop(now + start + length + 0.02);
    }
  }

  function update(now) {
    const came = now && !waiting;
    waiting = Boolean(now);
    if (came && document.visibilityState === "hidden") {
      notify();
      beep();
    }
    if (!waiting) closeNotification();
    showTitle();
  }

  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") closeNotification();
    showTitle();
  });

  // Browsers start audio only from a user gesture: the first click or key press on the page
  // (a move, opening a menu) sets it up, so that a later turn in a hidden tab can beep.
  // Which events count as such a gesture differs by pointer (the HTML standard's "activation
  // triggering" events): listen to all of them until the audio runs.
  const GESTURES = ["pointerdown", "pointerup", "touchend", "keydown"];
  const onGesture = () => {
    if (!prefs.turn_sound) return;
    unlockAudio();
    if (audio && audio.state === "running") {
      for (const type of GESTURES) document.removeEventListener(type, onGesture, true);
    }
  };
  for (const type of GESTURES) document.addEventListener(type, onGesture, true);

  // ---------------------------------------------------------------- the menu

  const form = menu.querySelector("[data-signal-form]");
  const fields = menu.querySelector("[data-signal-fields]");
  const note = menu.querySelector("[data-signal-note]");
  const status = menu.querySelector("[data-signal-status]");
  const csrf = form.querySelector("input[name=csrfmiddlewaretoken]")?.value ?? "";
  const box = (name) => form.querySelector(`input[name="${name}"]`);

  function permission() {
    return "Notification" in window ? Notification.permission : "unsupported";
  }

  // Why a notification switched on may still not show, and the way out when there is one.
  function showNote() {
    const state = permission();
    let text = null;
    let ask = false;
    if (state === "unsupported") text = "This browser cannot show notifications.";
    else if (state === "denied") text = "Notifications are blocked for this site in the browser's settings.";
    else if (prefs.turn_notification && state === "default") {
      text = "This browser has not been allowed to show them yet.";
      ask = true;
    }
    note.hidden = text === null;
    note.replaceChildren();
    if (text === null) return;
    note.append(text);
    if (ask) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "btn btn--ghost btn--small";
      button.textContent = "Allow";
      button.addEventListener("click", () => Notification.requestPermission().then(showNote));
      note.append(" ", button);
    }
  }

  async function save(name, value) {
    status.textContent = "Saving…";
    const response = await fetch("/api/me/preferences/", {
      method: "PATCH",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRFToken": csrf },
      body: JSON.stringify({ [name]: value }),
    }).catch(() => null);
    const body = response ? await response.json().catch(() => null) : null;
    if (!response || !response.ok || !body) {
      box(name).checked = prefs[name];
      status.textContent = `Not saved: ${body?.reason ?? "the server could not be reached"}.`;
      return;
    }
    Object.assign(prefs, body);
    for (const key of Object.keys(body)) if (box(key)) box(key).checked = body[key];
    status.textContent = "Saved for every table.";
    showNote();
    showTitle();
  }

  form.addEventListener("change", async (event) => {
    const input = event.target;
    if (!(input instanceof HTMLInputElement) || !(input.name in prefs)) return;
    const { name, checked } = input;
    if (name === "turn_notification" && checked) {
      // This change is a click: the one moment a page may ask for the permission.
      if (permission() === "default") await Notification.requestPermission().catch(() => null);
      if (permission() !== "granted") {
        // Refused (or impossible): the switch stays off rather than promise what cannot happen.
        input.checked = false;
        status.textContent = "The browser did not allow notifications.";
        showNote();
        return;
      }
    }
    if (name === "turn_sound" && checked && unlockAudio()) {
      // Also a gesture: set the audio up and let the player hear what they switched on.
      if (audio.state === "running") play();
      else audio.resume().then(play).catch(() => {});
    }
    await save(name, checked);
  });
  form.addEventListener("submit", (event) => event.preventDefault());

  // The panel hangs from the bell's right edge; where the bell is not near the screen's right
  // (a phone, where the table's header wraps) it is moved right until it fits.
  const MARGIN = 8;
  function placePanel() {
    form.style.right = "";
    if (!menu.open) return;
    const left = form.getBoundingClientRect().left;
    if (left < MARGIN) form.style.right = `${left - MARGIN}px`;
  }
  menu.addEventListener("toggle", placePanel);
  window.addEventListener("resize", placePanel);

  // An open menu closes on Escape or a click elsewhere, like any menu.
  document.addEventListener("click", (event) => {
    if (menu.open && !menu.contains(event.target)) menu.open = false;
  });
  menu.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && menu.open) {
      menu.open = false;
      menu.querySelector("summary").focus();
    }
  });

  showNote();
  fields.disabled = false;
  menu.dataset.ready = "true";
  return { update };
}
