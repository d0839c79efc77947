// Rendering of the lobby's pieces from plain state. Pure functions of their arguments: they
// build DOM (through h(), so names stay text) and call back through ``ctx.actions``.

import { h, icon, formatTime } from "./dom.js";

export const ARRANGEMENT = { RANDOM: 1, EXACT: 2, TEAMS: 3 };
export const TEAM_NAMES = ["Red", "Blue", "Gold"];

export function teamName(team) {
  return TEAM_NAMES[team] || `Team ${team + 1}`;
}

function modeOf(gameTypes, gameType, modeId) {
  const type = gameTypes.get(gameType);
  return type ? type.modes.find((m) => m.id === modeId) || null : null;
}

export function modeName(gameTypes, gameType, modeId) {
  return modeOf(gameTypes, gameType, modeId)?.name || `Mode ${modeId}`;
}

export function typeName(gameTypes, gameType) {
  return gameTypes.get(gameType)?.name || gameType;
}

function initial(name) {
  return (name || "?").trim().charAt(0).toUpperCase() || "?";
}

/** A player's rating in the table's game type, as the server sent it with the seat (``rating``:
 * mu - 3 sigma to one decimal; ``provisional``: fewer than 10 rated games), or null when it sent
 * none. The lobby's seat rows and the game page's Players panel both show it this way (and the
 * game page's template as its first render: templates/games/game.html). */
export function ratingBadge(seat) {
  if (!seat || seat.rating === null || seat.rating === undefined) return null;
  const value = Number(seat.rating).toFixed(1);
  return h("span", { class: "rating-badge", dataset: { testid: "seat-rating" },
    title: seat.provisional ? "Rating (provisional: fewer than 10 rated games)" : "Rating" },
  h("span", { class: "visually-hidden" }, "rating "), value,
  seat.provisional ? h("span", { class: "rating-badge__provisional" }, " provisional") : null);
}

/** The little round table with one chair per seat, drawn for sighted users (the list is the real content). */
function feltTable(setup, seats, mode) {
  const users = [...setup.users].sort((a, b) => a.slot - b.slot);
  const chairs = [];
  for (let i = 0; i < seats; i += 1) {
    const user = users[i];
    // Chairs go round the oval clockwise from the top, like players round a table.
    const angle = (i / seats) * 2 * Math.PI - Math.PI / 2;
    const style = { left: `${50 + 46 * Math.cos(angle)}%`, top: `${50 + 40 * Math.sin(angle)}%` };
    if (!user) {
      chairs.push(h("div", { class: "chair chair--empty", style }, h("span", { class: "chair__seat" })));
      continue;
    }
    const classes = ["chair", "chair--filled"];
    if (user.team !== null && user.team !== undefined && setup.arrangement === ARRANGEMENT.TEAMS) {
      classes.push(`team-${user.team}`);
    }
    if (user.accepted) classes.push("chair--accepted");
    chairs.push(h("div", { class: classes, style, title: user.username },
      h("span", { class: "chair__seat" }, initial(user.username)),
      setup.host === user.user ? h("span", { class: "chair__crown" }, icon("crown")) : null,
      user.accepted ? h("span", { class: "chair__tick" }, icon("check")) : null,
      chairName(user)));
  }
  return h("div", { class: "felt-table", "aria-hidden": "true" },
    h("div", { class: "felt-table__top" }, h("span", { class: "felt-table__label" }, mode ? mode.name : "")),
    chairs);
}

/** A name under a chair; a house bot's (house-strong-2) in two lines, so its level and number show. */
function chairName(user) {
  const [, head, rest] = (user.bot && /^(house-)(.+)$/.exec(user.username)) || [];
  if (!head) return h("span", { class: "chair__name" }, user.username);
  return h("span", { class: "chair__name chair__name--split" }, h("span", {}, head), h("span", {}, rest));
}

/** Which colour is which team; seats alternate between teams in slot order. */
function teamLegend(count) {
  const teams = [];
  for (let t = 0; t < count; t += 1) {
    teams.push(h("span", {}, h("span", { class: ["team-dot", `team-${t}`] }), `${teamName(t)} team`));
  }
  return h("p", { class: "team-legend", "aria-hidden": "true" }, teams);
}

/** The table's clock in a few characters: "5 + 20 s" (per decision + bank), "10 min + 5 s", or null
 * (untimed). The server says it the same way (games/service/clocks.py, ``label``). */
export function clockLabel(setup) {
  const control = setup.time_control;
  if (control) return `${control.per_decision} + ${control.bank} s`;
  if (setup.time_start === null || setup.time_start === undefined) return null;
  const start = setup.time_start % 60 === 0 ? `${setup.time_start / 60} min` : `${setup.time_start} s`;
  return setup.time_increment ? `${start} + ${setup.time_increment} s` : start;
}

/** A riichi table's rules: its preset's label, and how many options it overrides on top. */
export function riichiRulesLabel(setup, presets) {
  const rules = setup.rules || {};
  const name = rules.preset || "majiang";
  const label = presets?.get(name)?.label || name;
  // host_seat, tile_bag and imported are the platform's, not rule options.
  const own = Object.keys(rules).filter((k) => !["preset", "host_seat", "tile_bag", "imported"].includes(k));
  return own.length ? `${label} + ${own.length} override${own.length === 1 ? "" : "s"}` : label;
}

function statusLine(setup, seats) {
  const users = setup.users;
  if (users.length < seats) {
    const missing = seats - users.length;
    return `Waiting for ${missing} more player${missing === 1 ? "" : "s"}`;
  }
  const waiting = users.filter((u) => !u.accepted).map((u) => u.username);
  if (waiting.length) return `Waiting for ${waiting.join(", ")} to accept`;
  return "Starting…";
}

/**
 * A table being set up. ``ctx``: {me, gameTypes: Map, arrangements, acceptSent: Set, actions}.
 */
export function setupCard(setup, ctx) {
  const { me, gameTypes, actions } = ctx;
  const mode = modeOf(gameTypes, setup.game_type, setup.mode);
  const seats = mode ? mode.seats : setup.users.length;
  const users = [...setup.users].sort((a, b) => a.slot - b.slot);
  const mine = users.find((u) => u.user === me) || null;
  const isHost = setup.host === me;
  const titleId = `table-title-${setup.game}`;
  const teams = setup.arrangement === ARRANGEMENT.TEAMS;
  const ordered = setup.arrangement !== ARRANGEMENT.RANDOM;
  const arrangementName = ctx.arrangements.find((a) => a.id === setup.arrangement)?.name || "";

  const moveBy = (index, delta) => {
    const order = users.map((u) => u.user);
    const other = index + delta;
    [order[index], order[other]] = [order[other], order[index]];
    actions.changeArrangement(setup.game, setup.arrangement, order);
  };

  const rows = users.map((user, index) => {
    const name = user.username;
    const hasTeam = teams && user.team !== null && user.team !== undefined;
    return h("li", { class: ["seat-row", user.user === me && "seat-row--me"], dataset: { testid: "seat", user: user.user } },
      h("span", { class: ["team-dot", hasTeam && `team-${user.team}`] },
        hasTeam ? h("span", { class: "visually-hidden" }, `${teamName(user.team)} team`) : null),
      h("span", { class: "seat-row__name" }, name),
      ratingBadge(user),
      user.bot ? h("span", { class: "tag tag--bot", title: "House bot: the server plays this seat" }, "bot") : null,
      setup.host === user.user ? h("span", { class: "seat-row__host", title: "Host" }, icon("crown", "Host")) : null,
      user.user === me ? h("span", { class: "tag tag--you" }, "you") : null,
      h("span", { class: ["seat-row__state", user.accepted && "seat-row__state--ok"], dataset: { testid: "seat-state" } },
        user.accepted ? [icon("check"), " Accepted"] : "Not accepted"),
      isHost ? h("span", { class: "seat-row__tools" },
        ordered ? h("button", { type: "button", class: "icon-btn", disabled: index === 0,
          "aria-label": `Move ${name} up`, title: "Move up", dataset: { key: `up-${user.user}` },
          onclick: () => moveBy(index, -1) }, icon("up")) : null,
        ordered ? h("button", { type: "button", class: "icon-btn", disabled: index === users.length - 1,
          "aria-label": `Move ${name} down`, title: "Move down", dataset: { key: `down-${user.user}` },
          onclick: () => moveBy(index, 1) }, icon("down")) : null,
        user.user !== me ? h("button", { type: "button", class: "icon-btn icon-btn--danger",
          "aria-label": `Kick ${name}`, title: "Kick", dataset: { key: `kick-${user.user}`, testid: "kick" },
          onclick: () => actions.kick(setup.game, user.user, name) }, icon("x")) : null) : null);
  });
  for (let i = users.length; i < seats; i += 1) {
    rows.push(h("li", { class: "seat-row seat-row--free", dataset: { testid: "free-seat" } },
      h("span", { class: "team-dot" }), h("span", { class: "seat-row__name" }, "Free seat")));
  }

  let hostControls = null;
  if (isHost && mode) {
    const modeSelect = h("select", { id: `mode-${setup.game}`, dataset: { key: "mode", testid: "host-mode" },
      onchange: (e) => actions.changeMode(setup.game, Number(e.target.value)) },
      gameTypes.get(setup.game_type).modes
        .filter((m) => m.seats >= users.length)
        .map((m) => h("option", { value: m.id, selected: m.id === setup.mode }, m.name)));
    const arrangementSelect = h("select", { id: `arr-${setup.game}`, dataset: { key: "arrangement", testid: "host-arrangement" },
      onchange: (e) => actions.changeArrangement(setup.game, Number(e.target.value), null) },
      ctx.arrangements
        .filter((a) => a.id !== ARRANGEMENT.TEAMS || mode.teams)
        .map((a) => h("option", { value: a.id, selected: a.id === setup.arrangement }, a.name)));
    hostControls = h("div", { class: "table-card__host" },
      h("div", { class: "mini-field" }, h("label", { for: `mode-${setup.game}` }, "Mode"), modeSelect),
      h("div", { class: "mini-field" }, h("label", { for: `arr-${setup.game}` }, "Seating"), arrangementSelect));
  }

  const buttons = [];
  if (mine) {
    const sent = ctx.acceptSent.has(`${setup.game}:${setup.version}`);
    buttons.push(h("button", { type: "button", class: "btn btn--brass", disabled: mine.accepted || sent,
      dataset: { key: "accept", testid: "accept-setup" },
      onclick: () => actions.accept(setup.game, setup.version) },
    mine.accepted ? [icon("check"), " Accepted"] : "Accept"));
    buttons.push(h("button", { type: "button", class: "btn btn--ghost", dataset: { key: "leave", testid: "leave-table" },
      onclick: () => actions.leave(setup.game) }, "Leave"));
    // The host can fill a free seat with a house bot (AddBot), for game types that have one.
    if (isHost && users.length < seats && gameTypes.get(setup.game_type)?.has_bot && actions.addBot) {
      const levels = ctx.botLevels?.[setup.game_type] || [];
      const level = () => ctx.botLevel?.(setup.game_type) || null;
      buttons.push(h("button", { type: "button", class: "btn btn--ghost", dataset: { key: "add-bot", testid: "add-bot" },
        title: "Fill a free seat with a house bot", onclick: () => actions.addBot(setup.game, level()) }, h("span", { class: "bot-icon", "aria-hidden": "true" }), "Add bot"));
      // Where the game has bot levels (riichi: docs/bots.md, "Bot levels"), which one "Add bot" seats.
      if (levels.length) buttons.push(botLevelSelect(setup, levels, level(), actions));
      // At a riichi table, the mjai bots this server runs (AddBot's bot "mjai:<name>", docs/protocols/mjai.md).
      if (setup.game_type === "riichi") {
        for (const name of ctx.mjaiBots || []) {
          buttons.push(h("button", { type: "button", class: "btn btn--ghost", dataset: { key: `add-mjai-${name}`, testid: "add-mjai-bot" },
            title: `Fill a free seat with the mjai bot ${name}`, onclick: () => actions.addBot(setup.game, `mjai:${name}`) },
          h("span", { class: "bot-icon", "aria-hidden": "true" }), `Add mjai: ${name}`));
        }
      }
    }
  } else if (users.length < seats) {
    buttons.push(h("button", { type: "button", class: "btn btn--brass", dataset: { key: "join", testid: "join-table" },
      onclick: () => actions.join(setup.game) }, "Join"));
  } else {
    buttons.push(h("span", { class: "muted" }, "Table full"));
  }

  return h("article", { class: ["table-card", mine && "table-card--mine"], "aria-labelledby": titleId,
    dataset: { testid: "setup-table", game: setup.game } },
    h("header", { class: "table-card__head" },
      h("h3", { id: titleId, class: "table-card__title" }, typeName(gameTypes, setup.game_type), " ",
        h("span", { class: "table-no" }, `#${setup.display_number}`)),
      h("div", { class: "table-card__badges" },
        h("span", { class: "badge", dataset: { testid: "table-mode" } }, mode ? mode.name : `Mode ${setup.mode}`),
        h("span", { class: "badge badge--soft" }, arrangementName),
        setup.game_type === "riichi"
          ? h("span", { class: "badge badge--soft", dataset: { testid: "table-rules" },
            title: setup.rules && Object.keys(setup.rules).length ? JSON.stringify(setup.rules) : "Majiang's defaults" },
          riichiRulesLabel(setup, ctx.riichiPresets))
          : null,
        h("span", { class: "badge badge--soft", dataset: { testid: "table-clock" }, title: "Time control" },
          clockLabel(setup) || "Untimed"),
        h("span", { class: "badge badge--soft", dataset: { testid: "table-rated" },
          title: setup.rated ? "The result changes the players' ratings" : "The result changes no rating" },
        setup.rated === false ? "Casual" : setup.rated_people_only ? "Rated, people only" : "Rated"),
        setup.spectator_delay
          ? h("span", { class: "badge badge--soft", dataset: { testid: "table-spectator-delay" },
            title: "Spectators see this game late, so nobody watching can coach a player" },
          `Spectators ${setup.spectator_delay} s late`)
          : null)),
    feltTable(setup, seats, mode),
    h("ol", { class: "seat-list", "aria-label": `Seats at table ${setup.display_number}` }, rows),
    teams && mode?.teams ? teamLegend(mode.teams) : null,
    h("p", { class: "table-card__status", dataset: { testid: "table-status" } }, statusLine(setup, seats)),
    hostControls,
    h("div", { class: "table-card__actions" }, buttons));
}

/** The level "Add bot" seats: the house bot (AddBot without ``bot``) or one of the game's levels. */
function botLevelSelect(setup, levels, selected, actions) {
  const id = `bot-level-${setup.game}`;
  return h("div", { class: "bot-level" },
    h("label", { class: "visually-hidden", for: id }, "Bot level"),
    h("select", { id, title: "Which bot \u201cAdd bot\u201d seats", dataset: { key: "bot-level", testid: "bot-level" },
      onchange: (e) => actions.chooseBotLevel(setup.game_type, e.target.value || null) },
    h("option", { value: "", selected: !selected }, "House bot"),
    levels.map((name) => h("option", { value: name, selected: name === selected },
      name.charAt(0).toUpperCase() + name.slice(1)))));
}

/** A game in progress, as a row in the lobby. */
export function activeGameRow(game, ctx) {
  const { me, gameTypes, usernames } = ctx;
  // Each player's rating in the game's type (Greetings' ``ratings``, or the set-up table's), shown
  // as on a set-up card.
  const ratings = new Map((game.ratings || []).map((r) => [r.user, r]));
  const players = (game.players || game.users.map((user) => ({ user })))
    .map((p) => {
      const username = p.username || usernames.get(p.user);
      const rating = ratings.get(p.user);
      return { ...p, username: username || `user ${p.user}`, known: Boolean(username),
        rating: rating?.rating ?? null, provisional: Boolean(rating?.provisional) };
    });
  const mine = players.some((p) => p.user === me);
  const title = `${typeName(gameTypes, game.game_type)} #${game.display_number ?? game.game}`;
  return h("li", { class: ["game-row", mine && "game-row--mine"], dataset: { testid: "active-game", game: game.game } },
    h("div", { class: "game-row__main" },
      h("a", { class: "game-row__title", href: `/games/${game.game}/` }, title),
      h("span", { class: "badge badge--soft" }, modeName(gameTypes, game.game_type, game.mode)),
      // A game the page learnt of from GameStarted alone has no clock fields yet: no badge then.
      "time_start" in game
        ? h("span", { class: "badge badge--soft", title: "Time control", dataset: { testid: "game-clock" } },
          clockLabel(game) || "Untimed")
        : null,
      game.status === "adjourned"
        ? h("span", { class: "badge badge--adjourned", dataset: { testid: "game-adjourned" },
          title: "Every player went away; it goes on when one comes back" }, "Adjourned")
        : null),
    h("div", { class: "game-row__players" },
      players.map((p, i) => [i ? h("span", { class: "sep", "aria-hidden": "true" }, " · ") : null,
        h("span", { class: "game-row__player", dataset: { testid: "game-player" } },
          // A name the page knows links to the player's page (/players/<username>/).
          p.known
            ? h("a", { class: ["player-chip", p.forfeited && "player-chip--gone"], href: `/players/${encodeURIComponent(p.username)}/` },
              p.username)
            : h("span", { class: ["player-chip", p.forfeited && "player-chip--gone"] }, p.username),
          p.rating === null ? null : " ",
          ratingBadge(p))])),
    h("div", { class: "game-row__meta" },
      h("span", { class: "muted" }, `${game.v || 0} action${game.v === 1 ? "" : "s"} played`),
      h("a", { class: ["btn", "btn--small", mine ? "btn--brass" : "btn--ghost"], href: `/games/${game.game}/` },
        mine ? "Return to your game" : "Watch")));
}

/** Who is online: one row per user with at least one connection. */
export function onlineRow(user, ctx) {
  const clients = user.clients;
  const where = [...new Set(clients.map((c) => c.game).filter((g) => g !== undefined && g !== null))];
  return h("li", { class: ["online-user", user.user === ctx.me && "online-user--me"], dataset: { testid: "online-user" } },
    h("span", { class: "avatar", "aria-hidden": "true" }, initial(user.username)),
    h("span", { class: "online-user__name" }, user.username),
    clients.length > 1
      ? h("span", { class: "count", title: `${clients.length} connections` }, `×${clients.length}`,
        h("span", { class: "visually-hidden" }, ` (${clients.length} connections)`))
      : null,
    where.length ? h("span", { class: "online-user__where" }, `at ${where.map((g) => `#${g}`).join(", ")}`) : null);
}

/** One chat message. */
export function chatLine(message, me) {
  return h("li", { class: ["chat-line", message.user === me && "chat-line--me"] },
    h("time", { class: "chat-line__time", datetime: message.at || null }, formatTime(message.at)),
    h("strong", { class: "chat-line__user" }, message.username || `user ${message.user}`),
    h("span", { class: "chat-line__text" }, message.text));
}
