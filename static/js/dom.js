// Small DOM helpers shared by every page.
//
// Everything user-provided (usernames, chat, game parameters) reaches the page through
// text nodes built here, never through innerHTML, so a name like "<img onerror=…>" stays text.

/**
 * Build an element: h("button", {class: "btn", onclick: fn, dataset: {testid: "x"}}, "Label", child).
 * Strings and numbers become text nodes; null/false/undefined children are skipped; arrays are flattened.
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") el.className = Array.isArray(value) ? value.filter(Boolean).join(" ") : value;
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (key === "style" && typeof value === "object") Object.assign(el.style, value);
    else if (key.startsWith("on") && typeof value === "function") el.addEventListener(key.slice(2), value);
    else if (key === "text") el.textContent = String(value);
    else if (value === true) el.setAttribute(key, "");
    else el.setAttribute(key, String(value));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else if (child instanceof Node) el.appendChild(child);
    else el.appendChild(document.createTextNode(String(child)));
  }
}

/** An inline SVG icon from the sprite-free set below (paths only, so no user data is involved). */
const ICONS = {
  crown: "M3 18h18l-1.5-10-4.5 4-3-7-3 7-4.5-4z",
  check: "M4 12.5l5 5L20 6.5",
  up: "M12 6l-7 8h14z",
  down: "M12 18l-7-8h14z",
  x: "M6 6l12 12M18 6L6 18",
  user: "M12 12a4 4 0 1 0 0-8 4 4 0 0 0 0 8zm-8 9c0-4 4-6 8-6s8 2 8 6z",
  chair: "M7 3h10v9H7zM5 13h14v3H5zM7 16v5M17 16v5",
};

export function icon(name, label = null) {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("class", `icon icon--${name}`);
  if (label) {
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", label);
  } else {
    svg.setAttribute("aria-hidden", "true");
  }
  svg.setAttribute("focusable", "false");
  const path = document.createElementNS(ns, "path");
  path.setAttribute("d", ICONS[name]);
  svg.appendChild(path);
  return svg;
}

export function clear(el) {
  while (el.firstChild) el.removeChild(el.firstChild);
  return el;
}

/**
 * Replace ``oldEl`` by ``newEl``; if focus was inside, move it to the element with the same
 * data-key in the new tree, so live updates do not yank the keyboard user's place.
 */
export function replaceKeepingFocus(oldEl, newEl) {
  const active = document.activeElement;
  const key = active && oldEl.contains(active) ? active.dataset.key : null;
  oldEl.replaceWith(newEl);
  if (key) {
    const target = newEl.querySelector(`[data-key="${CSS.escape(key)}"]`);
    if (target && !target.disabled) target.focus();
  }
}

/** Swap a container's children for ``children``, keeping focus by data-key as above. */
export function replaceChildrenKeepingFocus(container, children) {
  const active = document.activeElement;
  const key = active && container.contains(active) ? active.dataset.key : null;
  container.replaceChildren(...children);
  if (key) {
    const target = container.querySelector(`[data-key="${CSS.escape(key)}"]`);
    if (target && !target.disabled) target.focus();
  }
}

/** Read a json_script block written by the template. */
export function readJson(id, fallback = null) {
  const el = document.getElementById(id);
  if (!el) return fallback;
  try {
    return JSON.parse(el.textContent);
  } catch {
    return fallback;
  }
}

const TOAST_MS = 6000;

/** A transient message in the corner; "error" toasts use role=alert so they are announced at once. */
export function toast(message, { kind = "info", title = null, timeout = TOAST_MS } = {}) {
  const host = document.getElementById("toasts");
  if (!host) return;
  const close = h("button", { class: "toast__close", type: "button", "aria-label": "Dismiss" }, icon("x"));
  const el = h("div", { class: ["toast", `toast--${kind}`], role: kind === "error" ? "alert" : null,
    dataset: { testid: "toast" } },
    h("div", { class: "toast__body" }, title ? h("strong", { class: "toast__title" }, title) : null,
      h("span", {}, message)),
    close);
  const remove = () => {
    el.classList.add("toast--leaving");
    setTimeout(() => el.remove(), 250);
  };
  close.addEventListener("click", remove);
  host.appendChild(el);
  if (timeout) setTimeout(remove, timeout);
  // Keep the pile short: the oldest toasts go first.
  while (host.children.length > 5) host.firstElementChild.remove();
}

export function formatTime(iso) {
  const date = iso ? new Date(iso) : new Date();
  if (Number.isNaN(date.getTime())) return "";
  return date.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
}

/**
 * Batch a burst of state changes into one repaint. A timer rather than requestAnimationFrame,
 * because frames stop in background tabs and the page should be current when the user returns.
 */
export function scheduler(fn, delay = 16) {
  let timer = null;
  return () => {
    if (timer !== null) return;
    timer = setTimeout(() => {
      timer = null;
      fn();
    }, delay);
  };
}
