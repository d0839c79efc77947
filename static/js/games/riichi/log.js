// History messages in words, for the game log and the replay caption: "alice discards 5p
// (riichi)", "bob calls pon on alice's White", "carol wins by ron off alice: 3 han 30 fu, 3,900
// points". Tiles appear as chips in their suit's colour.

import { h } from "../../dom.js";
import { handAt, handsOf } from "./hands.js";
import { drawName, limitName, roundName } from "./names.js";
import { parseMeld, tileChip } from "./tiles.js";

/** Draws are every other line of a hand and say nothing to anyone else: the log hides them. */
export const QUIET = new Set(["zimo", "gangzimo"]);

export const points = (n) => Number(n || 0).toLocaleString("en-US");
export const signed = (n) => (n > 0 ? `+${points(n)}` : n < 0 ? `−${points(-n)}` : "±0");

function line(kind, ...parts) {
  return h("span", { class: ["log-line__text", "rii-log", `rii-log--${kind}`, QUIET.has(kind) && "rii-log--quiet"] }, parts);
}

function ordinal(n) {
  return `${n}${n === 1 ? "st" : n === 2 ? "nd" : n === 3 ? "rd" : "th"}`;
}

/** The player whose discard (or added kan) the message at ``index`` answered. */
function lastDiscarder(history, index) {
  for (let i = index - 1; i >= 0; i -= 1) {
    const m = history[i];
    if (m.type === "dapai" || m.type === "gang") return m.player;
    if (m.type === "qipai") break;
  }
  return null;
}

// The hands of the last history read, so that a whole log is one pass, not one per line.
let memo = { history: null, length: -1, hands: [] };
function hands(history) {
  if (memo.history !== history || memo.length !== history.length) memo = { history, length: history.length, hands: handsOf(history) };
  return memo.hands;
}

/**
 * One message as a line. opts: {history (the messages it belongs to), index (its place there;
 * found when missing), me (the viewer's position)}.
 */
export function describeMessage(message, who, opts = {}) {
  const history = opts.history || [message];
  const index = opts.index ?? history.lastIndexOf(message);
  const data = message.params?.[0] || {};
  const actor = message.player;
  switch (message.type) {
    case "kaiju":
      return line("kaiju", "The game begins. ", typeof data.qijia === "number" ? [who(data.qijia), " is the first dealer."] : "");
    case "qipai": {
      const [ja, en] = roundName(data.zhuangfeng, data.jushu);
      const extras = [data.changbang ? `${data.changbang} honba` : null, data.lizhibang ? `${data.lizhibang} riichi stick${data.lizhibang === 1 ? "" : "s"} on the table` : null].filter(Boolean);
      return line("qipai", h("strong", {}, `${en} (${ja})`), extras.length ? `, ${extras.join(", ")}` : "",
        ": the tiles are dealt. Dora indicator ", data.baopai ? tileChip(data.baopai) : "?", ".");
    }
    case "zimo":
      return line("zimo", who(actor), data.p ? [" draws ", tileChip(data.p)] : " draws");
    case "gangzimo":
      return line("gangzimo", who(actor), " draws a replacement tile", data.p ? [" ", tileChip(data.p)] : "");
    case "dapai": {
      const p = String(data.p || "");
      const notes = [p.includes("*") && "riichi", p.includes("_") && "tsumogiri"].filter(Boolean);
      return line(p.includes("*") ? "lizhi" : "dapai", who(actor), " discards ", tileChip(p), notes.length ? ` (${notes.join(", ")})` : "");
    }
    case "fulou": {
      const meld = parseMeld(String(data.m || ""));
      const from = lastDiscarder(history, index);
      const name = meld.kind === "chi" ? "chi" : meld.kind === "pon" ? "pon" : "an open kan (daiminkan)";
      return line("fulou", who(actor), ` calls ${name} on `, from !== null ? [who(from), "’s "] : "", tileChip(meld.called), ": ",
        h("span", { class: "rii-chips" }, meld.tiles.map((t) => tileChip(t.code))));
    }
    case "gang": {
      const meld = parseMeld(String(data.m || ""));
      if (meld.kind === "kakan") return line("gang", who(actor), " adds ", tileChip(meld.tiles.find((t) => t.added)?.added.code || meld.called), " to a pon (kakan)");
      return line("gang", who(actor), " declares a closed kan (ankan) of ", tileChip(meld.tiles[1]?.code || String(data.m || "").slice(0, 2)));
    }
    case "kaigang":
      return line("kaigang", "A new dora indicator is turned: ", tileChip(data.baopai), " (kan dora)");
    case "hule": {
      const ron = data.baojia !== null && data.baojia !== undefined;
      const from = ron ? lastDiscarder(history, index) : null;
      const limit = limitName(data, opts.rule);
      const value = data.damanguan ? "" : `${data.fanshu} han ${data.fu} fu, `;
      return line("hule", h("strong", {}, who(actor), ron ? " wins by ron" : " wins by tsumo"), from !== null ? [" off ", who(from)] : "",
        `: ${value}${points(data.defen)} points`, limit ? ` (${limit[1]})` : "");
    }
    case "pingju": {
      const hand = handAt(hands(history), index);
      const shown = (data.shoupai || []).map((text, l) => (text ? l : null)).filter((l) => l !== null);
      const tenpai = data.name === "荒牌平局" && hand
        ? [shown.length ? [" Tenpai: ", shown.map((l, i) => [i ? ", " : "", who(hand.seatOf(l))])] : " Nobody is tenpai", "."]
        : "";
      return line("pingju", h("strong", {}, `${drawName(data.name)} (${data.name || "流局"})`), ".", tenpai);
    }
    case "jieju": {
      const defen = data.defen || [];
      const rank = data.rank || [];
      const order = [0, 1, 2, 3].filter((s) => defen[s] !== undefined).sort((a, b) => (rank[a] ?? 9) - (rank[b] ?? 9));
      return line("jieju", h("strong", {}, "The game is over. "),
        order.map((seat, i) => [i ? ", " : "", `${ordinal(rank[seat] ?? i + 1)} `, who(seat), ` ${points(defen[seat])}`,
          data.point?.[seat] !== undefined ? ` (${Number(data.point[seat]) > 0 ? "+" : ""}${data.point[seat]})` : ""]));
    }
    default:
      return line("other", message.type);
  }
}
