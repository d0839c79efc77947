// The cards the viewer has picked but not yet sent (the two for the crib; in manual counting, the
// card to play while the points are chosen). The hand on the board and the dialog in the action
// panel both show it, and game.js redraws them only when the game changes, so a pick redraws
// both through the listeners registered here.

const state = { key: null, cards: [], listeners: new Map() };

/** The picked cards for this decision; a new ``key`` (a new hand, a new decision) starts empty. */
export function picked(key) {
  if (state.key !== key) {
    state.key = key;
    state.cards = [];
  }
  return state.cards;
}

/** Pick or unpick ``card``; with ``max`` picked already, the oldest pick gives way. */
export function toggle(key, card, max) {
  const cards = picked(key);
  const at = cards.indexOf(card);
  if (at >= 0) cards.splice(at, 1);
  else {
    cards.push(card);
    while (cards.length > max) cards.shift();
  }
  for (const redraw of state.listeners.values()) redraw();
}

export function clear() {
  state.cards = [];
  for (const redraw of state.listeners.values()) redraw();
}

/** ``name`` ("hand", "dialog") redraws with ``fn`` when the picks change; one listener per name. */
export function listen(name, fn) {
  if (fn) state.listeners.set(name, fn);
  else state.listeners.delete(name);
}
