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

  return {
    add(message) {
      if (empty) empty.hidden = true;
      // Stay pinned to the newest line only if the reader was already there.
      const atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
      list.appendChild(chatLine(message, me));
      while (list.children.length > KEEP_LINES) list.firstElementChild.remove();
      if (atBottom) list.scrollTop = list.scrollHeight;
    },
    setEnabled(enabled) {
      input.disabled = !enabled;
      form.querySelector("button[type=submit]").disabled = !enabled;
    },
  };
}
