// Cribbage history messages (docs/cribbage-engine.md, "Events") as sentences: "bob played 5♥ for
// fifteen two", "alice showed her crib: 12". ``who(seat)`` names a player (a Node or a string), so
// the game page and the replay page can each name players their own way. Everything is text
// nodes or small card chips: nothing from the server is parsed as markup.

import { h } from "../../dom.js";
import { isCard, miniCards } from "./cards.js";

const ONES = ("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
  + "seventeen eighteen nineteen").split(" ");
const TENS = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"];

/** 0..999 in words, as games.cribbage.engine.scoring.number_words. */
export function numberWords(n) {
  if (n < 20) return ONES[n];
  if (n < 100) return TENS[Math.floor(n / 10)] + (n % 10 ? `-${ONES[n % 10]}` : "");
  const rest = n % 100;
  return `${ONES[Math.floor(n / 100)]} hundred${rest ? ` and ${numberWords(rest)}` : ""}`;
}

/**
 * An itemised score in words with running totals, as a player counts aloud (mirrors
 * scoring.say): "fifteen two, fifteen four, a pair is six". A hand scoring nothing is "nineteen".
 */
export function sayItems(items, empty = "nineteen") {
  if (!Array.isArray(items) || !items.length) return empty;
  let total = 0;
  return items.map(([name, points]) => {
    total += points;
    const said = numberWords(total);
    if (name === "fifteen") return `fifteen ${said}`;
    if (name === "thirty-one") return `thirty-one for ${said}`;
    if (name === "run") return `a run of ${numberWords(points)} is ${said}`;
    if (name === "flush") return `a flush of ${numberWords(points)} is ${said}`;
    if (name === "nobs") return `one for his nobs is ${said}`;
    if (name.startsWith("pair") || name.startsWith("double pair")) return `a ${name} is ${said}`;
    return `${name} ${numberWords(points)} is ${said}`;
  }).join(", ");
}

/** "Fifteen", "Run of 4", "Pair royal": an item's name for the itemised table. */
export function itemName([name, points]) {
  if (name === "run") return `Run of ${points}`;
  if (name === "flush") return `Flush of ${points}`;
  if (name === "nobs") return "His nobs";
  if (name === "thirty-one") return "Thirty-one";
  return name.charAt(0).toUpperCase() + name.slice(1);
}

const plural = (n, one, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

function cardsOrCount(cards) {
  if (Array.isArray(cards) && cards.length && cards.every(isCard)) return miniCards(cards);
  return plural(Array.isArray(cards) ? cards.length : 0, "card");
}

/** Messages that only say whose turn it is: the log shows them quietly. */
export const QUIET = new Set(["Active"]);

/** Whether a message is a quiet one: whose turn it is, or a pegging claim that was right. */
function quiet(message) {
  if (QUIET.has(message.type)) return true;
  const p = message.params || [];
  return message.type === "Settled" && p[0] === "play" && p[1] === p[2];
}

/** The parts of one message's sentence (strings and nodes). */
function sentence(message, who) {
  const p = message.params || [];
  const name = message.player === null || message.player === undefined ? null : who(message.player);
  switch (message.type) {
    case "Deal": {
      const [seat, cards] = p;
      return [who(seat), " was dealt ", cardsOrCount(cards), seat === message.player ? " (the dealer)" : null];
    }
    case "Discarded":
      return [name, " laid away ", cardsOrCount(p[0]), " to the crib"];
    case "CribCard":
      return ["The top card of the deck went to the crib", isCard(p[0]) ? [": ", miniCards([p[0]])] : null];
    case "Starter":
      return ["The starter: ", miniCards([p[0]]), name !== null ? [" (", name, " cut)"] : null];
    case "HisHeels":
      return [name, ` pegged ${p[0]} for his heels (a jack starter), now ${p[1]}`];
    case "Active":
      return [name, " to play"];
    case "Played": {
      const [card, points, score, count, items] = p;
      if (!points) return [name, " played ", miniCards([card]), ` (count ${count})`];
      // Manual counting: the points are the player's claim, with no items.
      return [name, " played ", miniCards([card]), ` (count ${count}): `,
        Array.isArray(items) && items.length ? sayItems(items) : `claims ${points}`, `, now ${score}`];
    }
    case "Go":
      return [name, " cannot play: go"];
    case "GoPoint":
      return [name, ` pegged ${p[0]} for ${p[2] === "last card" ? "the last card" : "the go"}, now ${p[1]}`];
    case "CountReset":
      return ["The count starts again from 0"];
    case "Show": {
      const [kind, cards, starter] = p;
      return [name, kind === "crib" ? " showed the crib: " : " showed the hand: ", miniCards(cards || []),
        isCard(starter) ? [" + ", miniCards([starter])] : null];
    }
    case "Counted": {
      const [points, score, items] = p;
      const said = Array.isArray(items) && items.length ? `: ${sayItems(items)}` : points === 0 ? ": nineteen (nothing)" : "";
      return [name, ` counted ${points}${said}, now ${score}`];
    }
    case "Muggins": {
      const [claimer, claimed, stated] = p;
      return [name, " called muggins on ", who(claimer), `’s ${claimed}: it should be ${stated}`];
    }
    case "Vote":
      return [name, p[0] ? " voted that the caller is right" : " voted that the caller is wrong"];
    case "MugginsResult": {
      const [passed, claimerScore, callerScore] = p;
      return [passed ? "Muggins upheld" : "Muggins rejected", ` (scores now ${claimerScore} and ${callerScore})`];
    }
    case "Settled": {
      const [kind, claimed, points, items] = p;
      const what = kind === "crib" ? "crib" : kind === "hand" ? "hand" : "play";
      return [name, `’s ${claimed} for the ${what} stands`,
        points === claimed ? " (right)" : `; the true count was ${points}`,
        Array.isArray(items) && items.length ? `: ${sayItems(items)}` : ""];
    }
    case "Review": {
      const [kind, claimed] = p;
      return ["The table checks ", name, `’s ${claimed} for the ${kind}`];
    }
    case "Agreed":
      return [name, " agreed"];
    case "Paused":
      return [name, " paused the game"];
    case "Unpaused":
      return [name, " resumed the game"];
    case "GameOver": {
      const [, margin, skunk] = p;
      return [name, ` won by ${plural(margin, "point")}`, skunk ? ` — a ${skunk}!` : ""];
    }
    default:
      return [message.type, name !== null ? [" ", name] : null, p.length ? ` ${JSON.stringify(p)}` : ""];
  }
}

/** One message as a sentence node. */
export function describeMessage(message, who) {
  return h("span", { class: ["log-line__text", "crib-log", quiet(message) && "crib-log--quiet",
    message.type === "GameOver" && "crib-log--over"] }, sentence(message, who));
}
