// The end of a hand and of the game: the win screen (the winner's hand, dora and ura dora, every
// yaku with its han, fu, the limit, the points and each seat's change), the draw screen (which
// draw, the hands shown, the changes) and the final standings with the replay and paifu links.
// All read from the history (hands.js), since by the time they show the view is the next hand's.

import { h } from "../../dom.js";
import { settlement } from "./hands.js";
import { points, signed } from "./log.js";
import { ACTIONS, drawName, hanText, isYakuman, limitName, roundName, yakuName } from "./names.js";
import { WIND_KANJI, WIND_NAMES, meldEl, parseHand, tileEl } from "./tiles.js";

/** English first (it must carry the meaning: CJK may render as boxes), the Japanese beside it. */
function jaEn([ja, en], cls = "") {
  return [h("span", { class: ["rii-en", cls] }, en), " ", h("span", { class: "rii-ja", lang: "ja" }, ja)];
}

/** A hand as the screens show it: concealed tiles, the winning (or drawn) tile apart, melds. */
function shownHand(text, { winning = false } = {}) {
  const hand = parseHand(text);
  // A winning hand holds 3n+2 tiles whether it won by tsumo or ron: the last is the winning tile.
  const last = hand.drawn;
  return h("div", { class: "rii-shown", dataset: { testid: "shown-hand" } },
    h("span", { class: "rii-shown__tiles" }, hand.tiles.map((t) => tileEl(t, { size: "screen" }))),
    last ? h("span", { class: ["rii-shown__last", winning && "rii-shown__last--win"], title: winning ? "The winning tile" : null },
      tileEl(last, { size: "screen", testid: winning ? "winning-tile" : "tile" })) : null,
    hand.melds.length ? h("span", { class: "rii-melds" }, hand.melds.map((m) => meldEl(m, { size: "screen" }))) : null);
}

function doraRow(label, tiles, testid) {
  return h("div", { class: "rii-screen__dora", dataset: { testid } },
    h("span", { class: "rii-screen__label" }, label),
    tiles && tiles.length ? tiles.map((t) => tileEl(t, { size: "screen-dora" })) : h("span", { class: "muted" }, "—"));
}

function changes(hand, who) {
  const rows = settlement(hand);
  return h("table", { class: "rii-changes", dataset: { testid: "score-changes" } },
    h("caption", { class: "visually-hidden" }, "Score changes"),
    h("tbody", {}, rows.map((r) => h("tr", { class: [r.change > 0 && "rii-changes--up", r.change < 0 && "rii-changes--down"], dataset: { testid: "score-change", seat: r.seat, change: r.change } },
      h("th", { scope: "row" }, h("span", { class: "rii-changes__wind", title: `${WIND_NAMES[r.l]} (${WIND_KANJI[r.l]})` }, WIND_NAMES[r.l][0]), " ", who(r.seat)),
      h("td", { class: "num rii-changes__delta" }, r.change ? signed(r.change) : "±0"),
      h("td", { class: "num" }, points(r.after))))));
}

/**
 * What a winner received, itemised: the hand's points, the honba and the riichi sticks on the table
 * ("3,900 points + 300 honba + 1,000 riichi sticks = +5,200"). The honba and the sticks go to the
 * first winner only (a double ron's second gets the hand alone), so they are read off the
 * settlement itself: whatever the winner got beyond the hand's points, the honba first.
 */
function received(data, winner, first, hand) {
  const l = data.l;
  const got = Number(data.fenpei?.[l]);
  const base = Number(data.defen) || 0;
  if (!Number.isFinite(got)) return null;
  const extra = first ? Math.max(0, got - base) : 0;
  const honba = Math.min(extra, 300 * (hand.qipai.changbang || 0));
  const sticks = extra - honba;
  const parts = [`${points(base)} points`];
  if (honba) parts.push(`${points(honba)} honba (${hand.qipai.changbang} × 300)`);
  if (sticks) parts.push(`${points(sticks)} riichi ${sticks === 1000 ? "stick" : `sticks (${sticks / 1000})`}`);
  return h("p", { class: "rii-win__received", dataset: { testid: "win-received", seat: winner, received: got } },
    h("span", { class: "rii-screen__label" }, "Received"), " ",
    parts.length > 1 ? `${parts.join(" + ")} = ${signed(got)}` : signed(got));
}

function winSection(message, hand, opts) {
  const data = message.params?.[0] || {};
  const ron = data.baojia !== null && data.baojia !== undefined;
  const winner = message.player ?? hand.seatOf(data.l);
  const limit = limitName(data, opts.rule);
  const yaku = data.hupai || [];
  return h("section", { class: "rii-win", dataset: { testid: "win", seat: winner, kind: ron ? "ron" : "tsumo" } },
    h("h3", { class: "rii-win__title" }, jaEn(ron ? ACTIONS.ron : ACTIONS.tsumo, "rii-win__call"), " — ", opts.who(winner),
      ron ? [h("span", { class: "rii-win__from" }, " off "), opts.who(hand.seatOf(data.baojia))] : null),
    shownHand(data.shoupai, { winning: true }),
    h("div", { class: "rii-screen__doras" },
      doraRow("Dora indicators", hand.baopai, "screen-dora"),
      data.fubaopai ? doraRow("Ura dora", data.fubaopai, "ura-dora") : null),
    h("table", { class: "rii-yaku", dataset: { testid: "yaku-list" } },
      h("caption", { class: "visually-hidden" }, "Yaku"),
      h("tbody", {}, yaku.map((y) => h("tr", { dataset: { testid: "yaku", name: y.name } },
        h("td", { class: "rii-en" }, yakuName(y.name)),
        h("td", { class: "rii-ja", lang: "ja" }, y.name),
        h("td", { class: ["num", isYakuman(y) && "rii-yaku--yakuman"] }, hanText(y)))))),
    h("p", { class: "rii-win__total", dataset: { testid: "win-total", defen: data.defen } },
      data.damanguan ? null : h("span", { class: "rii-win__fu" }, `${data.fu} fu · ${data.fanshu} han`),
      limit ? h("span", { class: "rii-limit", dataset: { testid: "limit" } }, jaEn(limit)) : null,
      h("strong", { class: "rii-win__points" }, `${points(data.defen)} points`)),
    received(data, winner, hand.ends.find((m) => m.type === "hule") === message, hand));
}

function drawSection(message, hand, opts) {
  const data = message.params?.[0] || {};
  const shown = (data.shoupai || []).map((text, l) => ({ text, l })).filter((x) => x.text);
  const exhaustive = data.name === "荒牌平局";
  return h("section", { class: "rii-draw", dataset: { testid: "draw", name: data.name || "" } },
    h("h3", { class: "rii-win__title" }, jaEn(["流局", "Draw"]), " — ", jaEn([data.name || "流局", drawName(data.name)])),
    shown.length
      ? h("div", { class: "rii-draw__hands" }, shown.map(({ text, l }) => h("div", { class: "rii-draw__hand", dataset: { testid: "draw-hand", seat: hand.seatOf(l) } },
        h("span", { class: "rii-draw__who" }, opts.who(hand.seatOf(l)), exhaustive ? h("span", { class: "rii-badge rii-badge--tenpai" }, "Tenpai ", h("span", { lang: "ja" }, "テンパイ")) : null),
        shownHand(text))))
      : h("p", { class: "muted" }, exhaustive ? "Nobody was tenpai." : "No hands shown."));
}

/**
 * The screen for a hand that ended (hands.js). opts: {who(seat), rule, onClose, live (a close
 * button)}. A double ron shows both wins.
 */
export function renderHandEnd(hand, opts) {
  const [ja, en] = roundName(hand.zhuangfeng, hand.jushu);
  const win = hand.ends.some((m) => m.type === "hule");
  const close = opts.onClose
    ? h("button", { type: "button", class: "rii-screen__close btn btn--brass btn--small", onclick: opts.onClose, title: "Close (Esc)",
      dataset: { testid: "screen-close", key: "screen-close" } }, "Close")
    : null;
  return h("div", { class: ["rii-screen", win ? "rii-screen--win" : "rii-screen--draw"], role: "dialog", "aria-label": win ? "Hand won" : "Hand drawn",
    dataset: { testid: win ? "win-screen" : "draw-screen", hand: hand.start } },
  h("div", { class: "rii-screen__card", dataset: { testid: "screen-card" } },
    h("header", { class: "rii-screen__head" },
      h("span", { class: "rii-screen__round" }, h("span", { lang: "ja" }, ja), ` ${en}`,
        ` · ${hand.qipai.changbang || 0} honba · ${sticksOnTable(hand)} riichi ${sticksOnTable(hand) === 1 ? "stick" : "sticks"}`),
      close),
    // Two columns where the felt is wide (the hand and its yaku, then the money), so the whole
    // result is read without scrolling; one on a phone.
    h("div", { class: "rii-screen__body" },
      h("div", { class: "rii-screen__main" }, hand.ends.map((m) => (m.type === "hule" ? winSection(m, hand, opts) : drawSection(m, hand, opts)))),
      h("div", { class: "rii-screen__side" },
        h("span", { class: "rii-screen__label" }, "Scores"),
        changes(hand, opts.who)))));
}

/** Riichi sticks on the table when the hand ended: those left from before and those put down in it. */
function sticksOnTable(hand) {
  return (hand.qipai.lizhibang || 0) + hand.deposits.reduce((a, b) => a + b, 0);
}

const ordinal = (n) => `${n}${n === 1 ? "st" : n === 2 ? "nd" : n === 3 ? "rd" : "th"}`;

/**
 * The final standings from the game's result ({players: [{seat, score, rank, point}]}) or the
 * jieju message. opts: {who(seat), position, gameId, links, ended: the last hand's {zhuangfeng, jushu,
 * changbang} (riichi.js endedRound) or null}.
 */
export function renderStandings(result, jieju, opts) {
  let rows = Array.isArray(result?.players) ? result.players.map((p) => ({ ...p })) : null;
  if (!rows && jieju) {
    const d = jieju.params?.[0] || {};
    rows = (d.defen || []).map((score, seat) => ({ seat, score, rank: d.rank?.[seat], point: d.point?.[seat] }));
  }
  if (!rows || !rows.length) return null;
  rows.sort((a, b) => (a.rank ?? 9) - (b.rank ?? 9));
  const winner = rows[0];
  const iWon = typeof opts.position === "number" && winner.seat === opts.position;
  const [ja, en] = opts.ended ? roundName(opts.ended.zhuangfeng, opts.ended.jushu) : [null, null];
  return h("div", { class: "rii-final", dataset: { testid: "final-standings" } },
    h("h2", { class: "rii-final__title" }, iWon ? "You won!" : [opts.who(winner.seat), " wins"]),
    opts.ended ? h("p", { class: "rii-final__ended", dataset: { testid: "ended-round", round: en } },
      "The game ended in ", h("strong", {}, en), " ", h("span", { lang: "ja" }, ja),
      `, ${opts.ended.changbang} honba.`) : null,
    h("table", { class: "rii-final__table" },
      h("caption", { class: "visually-hidden" }, "Final standings"),
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Rank"), h("th", { scope: "col" }, "Player"),
        h("th", { scope: "col", class: "num" }, "Score"), h("th", { scope: "col", class: "num", title: "Points after oka and uma" }, "Points"))),
      h("tbody", {}, rows.map((r) => h("tr", { class: [r === winner && "rii-final__winner", r.seat === opts.position && "rii-final__me"], dataset: { testid: "standing", seat: r.seat, rank: r.rank ?? "" } },
        h("td", {}, h("span", { class: `rii-rank rii-rank--${r.rank}` }, r.rank ? ordinal(r.rank) : "–")),
        h("th", { scope: "row" }, opts.who(r.seat)),
        h("td", { class: "num" }, points(r.score)),
        h("td", { class: "num" }, r.point === null || r.point === undefined ? "" : `${Number(r.point) > 0 ? "+" : ""}${r.point}`))))),
    opts.links && opts.gameId !== undefined
      ? h("p", { class: "rii-final__links" },
        h("a", { class: "btn btn--brass", href: `/games/${opts.gameId}/replay/`, dataset: { testid: "watch-replay" } }, "Watch replay (paifu viewer)"),
        h("a", { class: "btn btn--ghost", href: `/api/games/${opts.gameId}/paifu/`, download: `riichi-${opts.gameId}.json`, dataset: { testid: "standings-paifu" } }, "Download paifu"))
      : null);
}

