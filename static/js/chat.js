// A chat box (lobby or one game's table). The server caps messages at 500 characters; the
// textarea's maxlength and the counter keep the user from typing more than will be accepted.

import { chatLine } from "./render.js";

export const CHAT_MAX = 500;
const KEEP_LINES = 200;

/**
 * Wire a chat form. ``root`` holds [data-chat-list], [data-chat-input], [data-chat-count] and a form.
 * ``send(text)`` returns true when the message went out.
 */
export function createChat(root, { me, send }) {
  const list = root.querySelector("[data-chat-list]");
  const input = root.querySelector("[data-chat-input]");
  const count = root.querySelector("[data-chat-count]");
  const form = root.querySelector("form");
  const empty = root.querySelector("[data-chat-empty]");

  const updateCount = () => {
    const left = CHAT_MAX - input.value.length;
    count.textContent = `${left}`;
    count.classList.toggle("chat__count--low", left < 50);
  };
  input.setAttribute("maxlength", String(CHAT_MAX));
  input.addEventListener("input", updateCount);
  // Enter sends, Shift+Enter makes a new line, as in most chat boxes.
  input.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      form.requestSubmit();
    }
  });
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const text = input.value;
    if (!text.trim()) return;
    if (send(text.slice(0, CHAT_MAX))) {
      input.value = "";
      updateCount();
    }
  });
  updateCount();

  // message id -> its line. Greetings and Snapshot bring the earlier messages again on every
  // (re)connect, and a live Chat can cross a Snapshot that holds it too: each is drawn once.
  const shown = new Map();

  const idOf = (line) => Number(line.dataset.chatId);

  // Lines stay in the server's order (message ids grow): an earlier message that arrives after a
  // later one goes in before it. Returns false when the message was already shown or too old to keep.
  const insert = (message) => {
    const id = typeof message.id === "number" ? message.id : null;
    if (id !== null && shown.has(id)) return false;
    const line = chatLine(message, me);
    if (id === null) {
      list.appendChild(line);
      return true;
    }
    let before = list.lastElementChild;
    while (before && before.dataset.chatId && idOf(before) > id) before = before.previousElementSibling;
    // Older than everything a full list keeps: it would only be trimmed away again.
    if (!before && list.children.length >= KEEP_LINES) return false;
    line.dataset.chatId = String(id);
    shown.set(id, line);
    list.insertBefore(line, before ? before.nextElementSibling : list.firstElementChild);
    return true;
  };

  const draw = (messages) => {
    // Stay pinned to the newest line only if the reader was already there.
    const atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
    let added = false;
    for (const message of messages) added = insert(message) || added;
    if (!added) return;
    while (list.children.length > KEEP_LINES) {
      const first = list.firstElementChild;
      if (first.dataset.chatId) shown.delete(idOf(first));
      first.remove();
    }
    if (empty) empty.hidden = list.children.length > 0;
    if (atBottom) list.scrollTop = list.scrollHeight;
  };

  return {
    /** One live message (a Chat push). */
    add(message) {
      draw([message]);
    },
    /** The earlier messages a Greetings or Snapshot carries (oldest first); known ones are skipped. */
    addEarlier(messages) {
      draw(Array.isArray(messages) ? messages : []);
    },
    setEnabled(enabled) {
      input.disabled = !enabled;
      form.querySelector("button[type=submit]").disabled = !enabled;
    },
  };
}
