// Game-specific table renderers, by game type.
//
// The game page (game.js) works for every game type with the generic renderer. A game type
// gets its own table by adding a module here that exports a renderer object (see generic.js
// for the hooks) and registering its loader below. Modules are loaded on demand, so the
// mahjong tiles never download for an Acquire game.

import generic from "./generic.js";

const loaders = new Map([
  ["acquire", () => import("./acquire.js")],
  ["cribbage", () => import("./cribbage.js")],
  ["riichi", () => import("./riichi.js")],
]);

/** Register (or replace) the loader of a game type's renderer module. */
export function registerRenderer(gameType, loader) {
  loaders.set(gameType, loader);
}

/**
 * The renderer for ``gameType``: the game's module merged over the generic one, so a module
 * may implement only the hooks it cares about. A module that fails to load leaves the game
 * playable with the generic table instead of a blank page.
 */
export async function loadRenderer(gameType) {
  const loader = loaders.get(gameType);
  if (!loader) return generic;
  try {
    const module = await loader();
    return { ...generic, ...(module.default || module.renderer || {}) };
  } catch (error) {
    console.error(`could not load the ${gameType} renderer; using the generic table`, error);
    return generic;
  }
}

export { generic };
