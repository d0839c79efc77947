// Acquire's game history messages (seed 003's table) as sentences: "alice played 5C",
// "bob founded Tower", "carol sold 2 and traded 4 Luxor".
//
// ``who`` is a function (position) -> Node or string, so the game page and the replay page can
// each name players their own way. Every piece is a text node or a chain chip: no markup from
// the server is ever parsed.

import { h } from "../../dom.js";
import { chainChip, money, tileName } from "./common.js";

function tile(t) {
  return h("span", { class: "acq-log__tile" }, tileName(t));
}

function list(items, joiner = " and ") {
  const out = [];
  items.forEach((item, i) => {
    if (i) out.push(i === items.length - 1 ? joiner : ", ");
    out.push(item);
  });
  return out;
}

function purchases(bought) {
  if (!bought.length) return ["bought no shares"];
  return ["bought ", list(bought.map(([chain, count]) => [`${count} `, chainChip(chain)]), ", ")];
}

function disposal(chain, trade, sell) {
  if (!trade && !sell) return ["kept their ", chainChip(chain), " shares"];
  const parts = [];
  if (sell) parts.push(`sold ${sell}`);
  if (trade) parts.push(`traded ${trade}`);
  return [parts.join(" and "), " ", chainChip(chain)];
}

/** The parts of one message's sentence (strings and nodes), without its player. */
function sentence(message, who) {
  const p = message.params || [];
  const player = message.player;
  const name = player === null || player === undefined ? null : who(player);
  switch (message.type) {
    case "TurnBegan":
      return [name, "’s turn"];
    case "DrewPositionTile":
      return [name, " drew ", tile(p[0]), " for position"];
    case "StartedGame":
      return [name, " started the game"];
    case "DrewTile":
      return p[0] === null || p[0] === undefined ? [name, " drew a tile"] : [name, " drew ", tile(p[0])];
    case "HasNoPlayableTile":
      return [name, " has no playable tile"];
    case "PlayedTile":
      return [name, " played ", tile(p[0])];
    case "FormedChain":
      return [name, " founded ", chainChip(p[0])];
    case "MergedChains":
      return [list((p[0] && Array.isArray(p[0]) ? p[0] : p).map((c) => chainChip(c))), " merged"];
    case "SelectedMergerSurvivor":
      return [name, " chose ", chainChip(p[0]), " to survive"];
    case "SelectedChainToDisposeOfNext":
      return [name, " chose to dispose of ", chainChip(p[0]), " next"];
    case "ReceivedBonus":
      return [name, ` received a ${money(p[1])} bonus for `, chainChip(p[0])];
    case "DisposedOfShares":
      return [name, " ", ...disposal(p[0], p[1], p[2])];
    case "CouldNotAffordAnyShares":
      return [name, " could not afford any shares"];
    case "PurchasedShares":
      return [name, " ", ...purchases(p)];
    case "DrewLastTile":
      return [name, " drew the last tile"];
    case "ReplacedDeadTile":
      return [name, " replaced dead tile ", tile(p[0])];
    case "EndedGame":
      return [name, " ended the game"];
    case "NoTilesPlayedForEntireRound":
      return ["Nobody could play a tile for a whole round: the game is over"];
    case "AllTilesPlayed":
      return ["Every tile has been played: the game is over"];
    default:
      return [name, ` ${message.type}`, p.length ? ` ${JSON.stringify(p)}` : ""];
  }
}

const KIND = {
  TurnBegan: "turn",
  FormedChain: "chain",
  MergedChains: "merger",
  SelectedMergerSurvivor: "merger",
  ReceivedBonus: "money",
  EndedGame: "end",
  NoTilesPlayedForEntireRound: "end",
  AllTilesPlayed: "end",
  DrewTile: "quiet",
  DrewPositionTile: "quiet",
};

/** One message as a log line's content (a span). */
export function describeMessage(message, who) {
  const kind = KIND[message.type] || "plain";
  return h("span", { class: ["log-line__text", "acq-log", `acq-log--${kind}`] }, sentence(message, who));
}

/** The message as plain text (for titles and tests). */
export function messageText(message, who) {
  return describeMessage(message, who).textContent;
}

