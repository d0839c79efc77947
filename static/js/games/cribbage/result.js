// The final result: who won, by how many points (the margin), a skunk if there was one, every
// side's final score on a small peg-board strip, and the replay link.

import { h } from "../../dom.js";

/**
 * The outcome as {winner (seat), scores (per side), margin, skunk, sides: [{seats, score}]}, from the
 * GameOver message if the history has it, else from the engine's ``result``.
 */
export function outcome(history, result, view) {
  const over = [...(history || [])].reverse().find((m) => m.type === "GameOver");
  let winner = null;
  let scores = null;
  let margin = null;
  let skunk = "";
  if (over) {
    winner = over.player ?? null;
    [scores, margin, skunk] = over.params || [];
  }
  if (result) {
    if (winner === null && typeof result.winner === "number") winner = result.winner;
    if (!scores && Array.isArray(result.scores)) scores = result.scores;
    if (!scores && Array.isArray(result.players)) {
      scores = [];
      for (const p of result.players) scores[p.seat] = p.score;
    }
    if (margin === null || margin === undefined) margin = result.margin ?? null;
    if (!skunk) skunk = result.skunk || "";
  }
  if (!Array.isArray(scores)) return null;
  // In the 2 vs 2 mode the partners (seat % 2) share a score: one row per partnership.
  const teams = Boolean(view?.teams) || Array.isArray(result?.teams);
  const sides = teams
    ? [0, 1].map((team) => ({ side: team, seats: scores.map((_, seat) => seat).filter((seat) => seat % 2 === team), score: scores[team] }))
    : scores.map((score, seat) => ({ side: seat, seats: [seat], score }));
  if (winner === null) {
    const best = Math.max(...scores);
    winner = sides.find((side) => side.score === best).seats[0];
  }
  if (margin === null || margin === undefined) {
    const sorted = sides.map((side) => side.score).sort((a, b) => b - a);
    margin = sorted[0] - (sorted[1] ?? 0);
  }
  return { winner, scores, margin, skunk: skunk || "", sides, teams };
}

/** opts: {who(seat), position, gameId, links: bool} */
export function renderResult(out, opts) {
  const winSide = out.sides.find((s) => s.seats.includes(out.winner));
  const rows = [...out.sides].sort((a, b) => b.score - a.score);
  const iWon = typeof opts.position === "number" && winSide.seats.includes(opts.position);
  const names = (seats) => seats.map((seat, i) => [i ? " & " : null, opts.who(seat)]);
  return h("div", { class: "crib-result", dataset: { testid: "cribbage-result" } },
    h("h2", { class: "crib-result__title" }, iWon ? "You won!" : [names(winSide.seats), out.teams ? " win" : " wins"]),
    h("p", { class: "crib-result__margin", dataset: { testid: "result-margin", margin: out.margin } },
      `by ${out.margin} ${out.margin === 1 ? "point" : "points"}`,
      out.skunk ? h("span", { class: "crib-result__skunk", dataset: { testid: "result-skunk" } }, out.skunk === "double skunk" ? "Double skunk!" : "Skunk!") : null),
    h("table", { class: "crib-result__table", dataset: { testid: "final-scores" } },
      h("caption", { class: "visually-hidden" }, "Final scores"),
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, out.teams ? "Team" : "Player"), h("th", { scope: "col", class: "num" }, "Score"), h("th", { scope: "col" }, h("span", { class: "visually-hidden" }, "Progress")))),
      h("tbody", {}, rows.map((side) => h("tr", { class: [side === winSide && "crib-result__winner", `crib-lane--c${side.side}`], dataset: { testid: "final-score", side: side.side } },
        h("th", { scope: "row" }, h("span", { class: "crib-seat__peg", "aria-hidden": "true" }), names(side.seats)),
        h("td", { class: "num" }, h("strong", {}, String(side.score))),
        h("td", { class: "crib-result__bar-cell" }, h("span", { class: "crib-result__bar", style: { width: `${Math.min(100, (side.score / 121) * 100)}%` } })))))),
    opts.links && opts.gameId !== undefined
      ? h("p", { class: "crib-result__links" },
        h("a", { class: "btn btn--brass", href: `/games/${opts.gameId}/replay/`, dataset: { testid: "watch-replay" } }, "Watch replay"),
        h("a", { class: "btn btn--ghost", href: `/api/games/${opts.gameId}/record/`, download: `cribbage-record-${opts.gameId}.json`,
          dataset: { testid: "download-record" } }, "Download record"))
      : null);
}
