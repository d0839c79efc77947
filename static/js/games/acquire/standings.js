// Final standings: every player's rank, cash and final worth, team totals in team modes, how the
// game ended, and the links to the replay and the review data.

import { h } from "../../dom.js";
import { money, teamName } from "./common.js";

const END_REASONS = {
  EndedGame: "A player declared the game over.",
  AllTilesPlayed: "Every tile was played.",
  NoTilesPlayedForEntireRound: "Nobody could play a tile for a whole round.",
};

function medal(rank) {
  return h("span", { class: ["acq-rank", `acq-rank--${Math.min(rank, 4)}`] }, String(rank));
}

/**
 * ``result``: the engine's result ({players: [{seat, score, cash, rank, team}], teams?, end_reason}).
 * opts: {who(seat), gameId, links: bool, endedBy: Node|null}
 */
export function renderStandings(result, opts) {
  const rows = [...(result.players || [])].sort((a, b) => a.rank - b.rank || a.seat - b.seat);
  const reason = END_REASONS[result.end_reason] || "";
  const parts = [
    h("h2", { class: "acq-standings__title" }, "Final standings"),
    reason ? h("p", { class: "acq-standings__reason" }, opts.endedBy ? [opts.endedBy, " ended the game."] : reason) : null,
  ];
  if (Array.isArray(result.teams) && result.teams.length) {
    const teams = [...result.teams].sort((a, b) => a.rank - b.rank || a.team - b.team);
    parts.push(h("table", { class: "acq-standings acq-standings--teams", dataset: { testid: "team-standings" } },
      h("caption", {}, "Teams"),
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Rank"), h("th", { scope: "col" }, "Team"),
        h("th", { scope: "col" }, "Players"), h("th", { scope: "col", class: "num" }, "Total"))),
      h("tbody", {}, teams.map((t) => h("tr", { class: [t.rank === 1 && "acq-standings__winner"], dataset: { testid: "team-standing", team: t.team } },
        h("td", {}, medal(t.rank)),
        h("th", { scope: "row" }, h("span", { class: ["team-dot", `team-${t.team}`] }), ` ${teamName(t.team)}`),
        h("td", {}, t.seats.map((seat, i) => [i ? ", " : null, opts.who(seat)])),
        h("td", { class: "num" }, h("strong", {}, money(t.score))))))));
  }
  parts.push(h("table", { class: "acq-standings", dataset: { testid: "final-standings" } },
    h("caption", {}, "Players"),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Rank"), h("th", { scope: "col" }, "Player"),
      h("th", { scope: "col", class: "num" }, "Cash"), h("th", { scope: "col", class: "num" }, "Final worth"))),
    h("tbody", {}, rows.map((r) => h("tr", { class: [r.rank === 1 && "acq-standings__winner"], dataset: { testid: "standing", seat: r.seat, rank: r.rank } },
      h("td", {}, medal(r.rank)),
      h("th", { scope: "row" }, opts.who(r.seat)),
      h("td", { class: "num" }, money(r.cash)),
      h("td", { class: "num" }, h("strong", {}, money(r.score))))))));
  parts.push(h("p", { class: "acq-standings__note muted small" }, "Final worth: cash, plus every share at its chain’s final price, plus the majority and minority bonuses still to be paid."));
  if (opts.links && opts.gameId !== undefined) {
    parts.push(h("p", { class: "acq-standings__links" },
      h("a", { class: "btn btn--brass", href: `/games/${opts.gameId}/replay/`, dataset: { testid: "watch-replay" } }, "Watch replay"),
      h("a", { class: "btn btn--ghost", href: `/api/games/${opts.gameId}/review/`, download: `acquire-${opts.gameId}-review.json`,
        dataset: { testid: "download-review" } }, "Download review data")));
  }
  return h("div", { class: "acq-result" }, parts);
}
