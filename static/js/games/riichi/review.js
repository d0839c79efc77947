// The decision review on a finished riichi game's replay page (docs/review.md): one seat's
// decisions beside the strong bot's for the same view.
//
// POST /api/games/<id>/review/<seat>/ asks for it (built in the background); GET on the same
// address says how far the build is (polled once a second while it runs) and, once built, holds
// the review. At each step of the replay that holds a decision of the reviewed seat, the panel
// sets the two choices side by side: shanten, acceptance, danger against each threatening
// opponent, value, and what the player's choice cost. The costliest decisions are listed and jump
// to their steps; the review downloads as JSON.

import { apiJson } from "../../api.js";
import { h } from "../../dom.js";
import { points } from "./log.js";
import { roundName } from "./names.js";
import { tileChip } from "./tiles.js";

const POLL_MS = 1000;
const KINDS = { turn: "Own turn", discard: "Discard after a call", call: "Another's discard", chankan: "An added kan" };

const request = (url, method = "GET") => apiJson(url, { method });

/** The tiles of a meld ("s222=", "m3-45", "p5555") as chips, marks left out. */
function meldChips(meld) {
  const suit = meld[0];
  return h("span", { class: "rii-chips" }, [...meld.slice(1)].filter((c) => /\d/.test(c)).map((n) => tileChip(`${suit}${n}`)));
}

/** A choice in words and tiles. */
function choiceOf(figures) {
  const { type, params } = figures.action;
  const first = params[0] || "";
  const then = figures.then ? [", then ", tileChip(figures.then)] : [];
  switch (type) {
    case "dapai":
      return first.endsWith("*") ? ["Riichi, discard ", tileChip(first)] : ["Discard ", tileChip(first)];
    case "fulou": {
      const what = (first.match(/\d/g) || []).length === 4 ? "Kan" : new Set(first.slice(1, 4).replace(/0/g, "5")).size === 1 ? "Pon" : "Chi";
      return [`${what} `, meldChips(first), ...then];
    }
    case "gang":
      return ["Kan ", meldChips(first)];
    case "hule":
      return ["Win"];
    case "pingju":
      return ["Nine terminals draw"];
    default:
      return ["Pass"];
  }
}

function shantenText(n) {
  if (n === null || n === undefined) return "—";
  if (n < 0) return "win";
  return n === 0 ? "tenpai" : `${n}-shanten`;
}

function acceptanceOf(figures) {
  const a = figures.acceptance;
  if (!a) return "—";
  if (!a.kinds.length) return "none";
  return [h("strong", {}, `${a.count} tile${a.count === 1 ? "" : "s"}`), " ",
    h("span", { class: "rii-chips review-kinds" }, a.kinds.map((k) => tileChip(k)))];
}

function valueOf(figures) {
  const parts = [`≈${points(figures.value)}`];
  if (figures.win_value) parts.push(h("span", { class: "review-note" }, ` (a win ${points(figures.win_value)})`));
  return parts;
}

function dangerOf(figures, nameOf) {
  if (!figures.danger) return "—";
  if (!figures.danger.length) return h("span", { class: "review-note" }, "no threat");
  return h("ul", { class: "review-danger" }, figures.danger.map((d) => h("li", { dataset: { seat: d.seat } },
    h("span", { class: "review-danger__who" }, `${nameOf(d.seat)}${d.riichi ? " (riichi)" : ""}`), " ",
    h("strong", { class: ["review-danger__p", d.deal_in >= 0.06 && "review-danger__p--high"] }, `${(d.deal_in * 100).toFixed(1)}%`),
    d.safety ? h("span", { class: "review-tag" }, d.safety) : null)));
}

/**
 * Mount the review in ``root`` (the replay page's review panel). opts: {gameId, players
 * ([{position, username, user}]), user (the viewer's id or null), reviewed (the seats whose review
 * was asked for when the page was served), nameOf(seat), visibleOf(logStep), jump(logStep)}.
 * Returns {showStep(visibleStep)}, called by the replay at each step drawn.
 */
export function mountReview(root, opts) {
  const { gameId, players, user, nameOf, visibleOf, jump } = opts;
  // A seat whose review nobody had asked for when the page was served has none to read, so its
  // state is not fetched (that GET would be a 404, logged in the console).
  const asked = new Set(opts.reviewed || []);
  const seats = [...players].sort((a, b) => a.position - b.position);
  const own = seats.find((p) => user !== null && p.user === user);
  let seat = own ? own.position : seats[0]?.position ?? 0;
  let review = null; // the built review of the seat shown
  let byStep = new Map(); // visible step -> [decision index]
  let costly = new Set(); // indices of the costliest decisions
  let current = null; // the visible step shown
  let timer = null;
  let asking = 0; // which seat's state the latest request is for (answers for another are dropped)

  const url = (s) => `/api/games/${gameId}/review/${s}/`;
  const mine = () => own && own.position === seat;

  const select = h("select", { class: "review-seat", id: "review-seat", dataset: { testid: "review-seat" },
    onchange: () => load(Number(select.value)) },
  seats.map((p) => h("option", { value: String(p.position), selected: p.position === seat }, `${p.username}${own && p.position === own.position ? " (you)" : ""}`)));
  const start = h("button", { type: "button", class: "btn btn--brass btn--small", dataset: { testid: "review-start" }, onclick: ask });
  const status = h("p", { class: "review-status small", role: "status", dataset: { testid: "review-status" } });
  const bar = h("div", { class: "review-progress", dataset: { testid: "review-progress" }, hidden: true,
    role: "progressbar", "aria-label": "Building the review", "aria-valuemin": "0" },
  h("div", { class: "review-progress__fill" }));
  const summary = h("div", { class: "review-summary", hidden: true });
  const step = h("div", { class: "review-step", dataset: { testid: "review-step" }, "aria-live": "polite", hidden: true });
  const list = h("div", { class: "review-costliest", hidden: true });

  root.replaceChildren(
    h("h2", { class: "panel__title", id: "review-title" }, "Decision review"),
    h("p", { class: "review-intro small muted" }, "Each decision beside the strong bot's for the same view: shanten, acceptance, danger, value, and what the difference cost."),
    h("div", { class: "review-ask" }, h("label", { class: "visually-hidden", for: "review-seat" }, "Whose decisions"), select, start),
    status, bar, summary, step, list);
  root.hidden = false;

  function setStart() {
    start.textContent = mine() ? "Review my decisions" : `Review ${seats.find((p) => p.position === seat)?.username ?? "these"}'s decisions`;
  }

  function progress(answer) {
    const { done, total } = answer.progress;
    bar.hidden = false;
    bar.setAttribute("aria-valuemax", String(total || 1));
    bar.setAttribute("aria-valuenow", String(done));
    bar.firstChild.style.width = `${total ? Math.round((100 * done) / total) : 0}%`;
    status.textContent = answer.status === "pending"
      ? "Waiting for the server to start the review…"
      : `Building the review… ${done} of ${total} actions`;
  }

  function reset() {
    clearTimeout(timer);
    review = null;
    byStep = new Map();
    costly = new Set();
    bar.hidden = true;
    summary.hidden = true;
    step.hidden = true;
    list.hidden = true;
    status.textContent = "";
    start.hidden = false;
    start.disabled = false;
    setStart();
  }

  function idle(note) {
    start.hidden = false;
    start.disabled = user === null;
    status.textContent = note || (user === null ? "Log in to ask for a review." : "");
  }

  async function load(s) {
    seat = s;
    asking += 1;
    const ticket = asking;
    reset();
    if (!asked.has(seat)) {
      idle();
      return;
    }
    try {
      follow(await request(url(seat)), ticket);
    } catch (error) {
      if (ticket !== asking) return;
      if (error.code === "NoReview") idle();
      else idle(`The review cannot be shown: ${error.message}`);
    }
  }

  async function ask() {
    const ticket = asking;
    start.disabled = true;
    try {
      const answer = await request(url(seat), "POST");
      asked.add(answer.seat);
      follow(answer, ticket);
    } catch (error) {
      if (ticket === asking) idle(`The review could not be asked for: ${error.message}`);
    }
  }

  function follow(answer, ticket) {
    if (ticket !== asking) return;
    clearTimeout(timer);
    if (answer.status === "done") {
      built(answer.review);
      return;
    }
    if (answer.status === "failed") {
      bar.hidden = true;
      idle("The review could not be built. Ask again to retry.");
      return;
    }
    start.hidden = true;
    progress(answer);
    timer = setTimeout(async () => {
      try {
        follow(await request(url(seat)), ticket);
      } catch (error) {
        if (ticket === asking) idle(`The review cannot be followed: ${error.message}`);
      }
    }, POLL_MS);
  }

  function built(data) {
    review = data;
    start.hidden = true;
    bar.hidden = true;
    byStep = new Map();
    data.decisions.forEach((d, i) => {
      const visible = visibleOf(d.step);
      if (!byStep.has(visible)) byStep.set(visible, []);
      byStep.get(visible).push(i);
    });
    costly = new Set(data.costliest.map((c) => c.index));
    const s = data.summary;
    const who = mine() ? "Your" : `${nameOf(seat)}'s`;
    status.textContent = "";
    summary.replaceChildren(
      h("p", { class: "review-summary__line" }, `${who} ${s.decisions} decisions: ${s.agreed} as the bot would, the rest cost about `,
        h("strong", {}, `${points(s.cost)} points`), " in all (the bot's own estimate)."),
      h("a", { class: "btn btn--ghost btn--small", href: `/api/games/${gameId}/review/${seat}/download/`,
        download: `riichi-${data.display_number ?? gameId}-seat${seat}-review.json`, dataset: { testid: "review-download" } }, "Download the review (JSON)"));
    summary.hidden = false;
    list.replaceChildren(
      h("h3", { class: "review-costliest__title" }, "The costliest decisions"),
      data.costliest.length
        ? h("ol", { class: "review-costliest__list", dataset: { testid: "review-costliest" } }, data.costliest.map((c) => {
          const d = data.decisions[c.index];
          const [, round] = roundName(d.round.zhuangfeng, d.round.jushu);
          return h("li", {}, h("button", { type: "button", class: "review-costly", dataset: { testid: "review-costly", step: d.step },
            onclick: () => jump(d.step) },
          h("span", { class: "review-costly__where" }, `${round}, step ${visibleOf(d.step)}`),
          h("span", { class: "review-costly__what" }, choiceOf(d.player), " → ", choiceOf(d.bot)),
          h("span", { class: "review-costly__cost" }, `−${points(c.cost)}`)));
        }))
        : h("p", { class: "small muted" }, "None: every decision was as good as the bot's, by its estimate."));
    list.hidden = false;
    step.hidden = false;
    if (current !== null) showStep(current);
  }

  function decisionCard(d, index) {
    const [, round] = roundName(d.round.zhuangfeng, d.round.jushu);
    const verdict = d.same
      ? h("span", { class: "review-verdict review-verdict--same" }, "Same as the bot")
      : d.cost > 0
        ? h("span", { class: ["review-verdict", "review-verdict--cost", costly.has(index) && "review-verdict--top"] }, `Cost ≈ ${points(d.cost)}`)
        : h("span", { class: "review-verdict" }, "Differs, no cost");
    const rows = [
      ["Choice", (f) => choiceOf(f)],
      ["Shanten", (f) => shantenText(f.shanten)],
      ["Acceptance", acceptanceOf],
      ["Value", valueOf],
      ["Danger", (f) => dangerOf(f, nameOf)],
    ];
    return h("article", { class: ["review-decision", !d.same && "review-decision--differs"], dataset: { testid: "review-decision", step: d.step } },
      h("header", { class: "review-decision__head" },
        h("span", { class: "review-decision__where" }, `${round} · ${KINDS[d.kind] || d.kind}${d.auto ? " · played by the server" : ""}`), verdict),
      h("table", { class: "review-compare" },
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, h("span", { class: "visually-hidden" }, "Figure")),
          h("th", { scope: "col" }, mine() ? "You" : nameOf(seat)), h("th", { scope: "col" }, "Bot"))),
        h("tbody", {}, rows.map(([name, cell]) => h("tr", {}, h("th", { scope: "row" }, name),
          h("td", { dataset: { who: "player" } }, cell(d.player)), h("td", { dataset: { who: "bot" } }, d.same ? "same" : cell(d.bot)))))));
  }

  /** The decisions at the visible step drawn, or the way to the next one. */
  function showStep(visible) {
    current = visible;
    if (!review) return;
    const here = byStep.get(visible) || [];
    if (here.length) {
      step.replaceChildren(...here.map((i) => decisionCard(review.decisions[i], i)));
      return;
    }
    const next = review.decisions.find((d) => visibleOf(d.step) > visible);
    step.replaceChildren(h("p", { class: "review-none small muted" }, `No decision of ${nameOf(seat)} at this step.`, " ",
      next ? h("button", { type: "button", class: "btn btn--ghost btn--small", dataset: { testid: "review-next" }, onclick: () => jump(next.step) },
        "Next decision ›") : null));
  }

  setStart();
  load(seat);
  return { showStep };
}
