// What the viewer may decide now, read from ``legal`` (games/riichi/engine/table.py ``_legal``),
// and the moves the client makes for them: a forced move, a lone pass, and what the player's own
// toggles (auto-win, no calls, auto-tsumogiri) ask for. Entries with ``allowed: false`` (furiten,
// no yaku) are never offered: they only explain why a win is not there.

const TOGGLES_KEY = "riichi-toggles";
export const TOGGLES = [
  { key: "autoWin", label: ["自動和了", "Auto-win"], help: "Call tsumo or ron whenever a win is allowed." },
  { key: "noCalls", label: ["鳴きなし", "No calls"], help: "Skip chi, pon and kan offers on others’ discards (ron is still asked)." },
  { key: "autoTsumogiri", label: ["ツモ切り", "Auto-discard"], help: "Discard the drawn tile at once when discarding is all you could do." },
];

/** The player's toggles, kept in localStorage so they follow them from table to table. */
export function loadToggles() {
  try {
    const saved = JSON.parse(localStorage.getItem(TOGGLES_KEY) || "{}");
    return Object.fromEntries(TOGGLES.map((t) => [t.key, saved[t.key] === true]));
  } catch {
    return Object.fromEntries(TOGGLES.map((t) => [t.key, false]));
  }
}

export function saveToggles(toggles) {
  try {
    localStorage.setItem(TOGGLES_KEY, JSON.stringify(toggles));
  } catch {
    // private mode or storage full: the toggles last for this page only
  }
}

/** A meld offered on a discard: chi (a run), pon (three alike) or kan (four). */
export function callKind(meld) {
  const digits = String(meld).replace(/[^0-9]/g, "").replace(/0/g, "5");
  if (digits.length === 4) return "kan";
  return new Set(digits).size === 1 ? "pon" : "chi";
}

/**
 * The viewer's options, grouped: {dapai: [param], lizhi: [param], gang: [param], chi, pon, kan
 * (fulou params by kind), hule, pingju, daopai, pass (entries or null), refused: [{type, reason}],
 * ownTurn, calls (something to decide on another's discard)}.
 */
export function options(legal) {
  const out = { dapai: [], lizhi: [], gang: [], chi: [], pon: [], kan: [], hule: null, pingju: null, daopai: null, pass: null, refused: [] };
  for (const entry of legal || []) {
    const type = entry.type || entry.action;
    if (entry.allowed === false) {
      out.refused.push({ type, reason: entry.reason || "not allowed" });
      continue;
    }
    const param = Array.isArray(entry.params) ? entry.params[0] : undefined;
    if (type === "dapai") (entry.lizhi ? out.lizhi : out.dapai).push(param);
    else if (type === "gang") out.gang.push(param);
    else if (type === "fulou") out[callKind(param)].push(param);
    else if (type === "hule" || type === "pingju" || type === "daopai" || type === "pass") out[type] = entry;
  }
  out.ownTurn = out.dapai.length > 0 || out.lizhi.length > 0;
  out.calls = !out.ownTurn && Boolean(out.hule || out.chi.length || out.pon.length || out.kan.length || out.daopai);
  out.any = out.ownTurn || out.calls || out.gang.length > 0 || Boolean(out.pingju);
  return out;
}

/**
 * The move the client makes by itself now, as [type, params], or null when the player decides.
 * Without toggles only moves that are no decision: the lone ``pass`` (nothing else legal) and a
 * discard that has no alternative (after riichi the drawn tile must go).
 */
export function autoMove(legal, toggles = {}) {
  const o = options(legal);
  if (!o.pass && !o.any) return null;
  if (!o.any) return ["pass", []];
  if (toggles.autoWin && o.hule) return ["hule", []];
  const discards = new Set(o.dapai);
  const onlyDiscards = o.ownTurn && !o.lizhi.length && !o.gang.length && !o.hule && !o.pingju;
  if (onlyDiscards && discards.size === 1) return ["dapai", [o.dapai[0]]];
  if (toggles.noCalls && o.calls && !o.hule && !o.daopai) return ["pass", []];
  if (toggles.autoTsumogiri && onlyDiscards) {
    const drawn = o.dapai.find((p) => typeof p === "string" && p.endsWith("_"));
    if (drawn) return ["dapai", [drawn]];
  }
  return null;
}
