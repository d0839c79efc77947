// The rules in force at a riichi table, for the game page's action panel and the replay page: the
// preset's label, the handful of options a player must know before the first discard (game
// length, red fives, open tanyao, kuikae, double ron, busting), and every option in an "All rules"
// <details>, those that differ from Majiang's defaults marked.
//
// The view carries ``rule`` (every Majiang.rule() option, Japanese keys) and ``preset`` (a name);
// the preset's label comes from the page's config (``riichi_presets``, games/riichi/engine/presets.py
// describe()). English first, the Japanese beside it: a machine without CJK fonts shows the
// Japanese as boxes, so the English alone must carry the meaning.

import { h } from "../../dom.js";
import { points } from "./log.js";

const yes = (v) => (v ? ["Yes", "あり"] : ["No", "なし"]);
const level = (...names) => (v) => names[v] || [String(v), null];

function signedText(value) {
  const text = String(value);
  return Number(value) > 0 && !text.startsWith("+") ? `+${text}` : text.replace(/^-/, "−");
}

function redFives(v) {
  const counts = ["m", "p", "s"].map((s) => Number(v?.[s]) || 0);
  if (counts.every((n) => n === 0)) return ["None", "赤なし"];
  if (counts.every((n) => n === counts[0])) return [`${counts[0]} per suit`, "赤あり"];
  return [`${counts[0]} characters, ${counts[1]} circles, ${counts[2]} bamboo`, "赤あり"];
}

/**
 * Every option of Majiang.rule() in its order (games/riichi/engine/rule.py): the English name,
 * Majiang's default (that file's DEFAULT_RULE; majiang-core's own, which never change) and the
 * value in words as [English, Japanese or null]. ``short`` is the summary's wording, for the few
 * options shown without opening the list.
 */
const OPTIONS = [
  { key: "配給原点", name: "Starting points", def: 25000, val: (v) => [points(v), `${v}点`],
    short: (v) => [`Start ${points(v)}`, `${v}点持ち`] },
  { key: "順位点", name: "Uma: placement points (thousands)", def: ["20.0", "10.0", "-10.0", "-20.0"],
    val: (v) => [Array.isArray(v) ? v.map(signedText).join(" / ") : String(v), null] },
  { key: "連風牌は2符", name: "Double-wind pair", def: false, val: (v) => (v ? ["2 fu", "2符"] : ["4 fu", "4符"]) },
  { key: "赤牌", name: "Red fives (aka dora)", def: { m: 1, p: 1, s: 1 }, val: redFives,
    short: (v) => { const [en, ja] = redFives(v); return [en === "None" ? "No red fives" : `Red fives: ${en}`, ja]; } },
  { key: "クイタンあり", name: "Open tanyao (kuitan)", def: true, val: yes,
    short: (v) => (v ? ["Open tanyao", "喰いタンあり"] : ["No open tanyao", "喰いタンなし"]) },
  { key: "喰い替え許可レベル", name: "Swap calls (kuikae): discarding what a chi or pon could have used", def: 0,
    val: level(["Not allowed", "喰い替えなし"], ["The other end of the run only (suji)", "スジ喰い替えあり"],
      ["Allowed, the called tile too", "現物喰い替えもあり"]),
    short: level(["No kuikae", "喰い替えなし"], ["Kuikae: other end only", "スジ喰い替えあり"], ["Kuikae allowed", "現物喰い替えもあり"]) },
  { key: "場数", name: "Game length", def: 2,
    val: level(["One hand", "一局戦"], ["East only", "東風戦"], ["East-south (hanchan)", "東南戦"],
      ["East, south and west", "東南西戦"], ["All four winds", "一荘戦"]) },
  { key: "途中流局あり", name: "Abortive draws (nine terminals, four winds, four riichi, four kans, triple ron)", def: true, val: yes },
  { key: "流し満貫あり", name: "Nagashi mangan", def: true, val: yes },
  { key: "ノーテン宣言あり", name: "A tenpai hand may be kept hidden at the draw", def: false, val: yes },
  { key: "ノーテン罰あり", name: "No-tenpai payments at the draw", def: true, val: yes },
  { key: "最大同時和了数", name: "Wins on one discard", def: 2,
    val: level(null, ["One: the first in turn wins (head bump)", "頭ハネ"], ["Up to two (double ron)", "ダブロンあり"],
      ["Up to three (triple ron)", "トリロンあり"]),
    short: level(null, ["No double ron", "頭ハネ"], ["Double ron", "ダブロンあり"], ["Triple ron", "トリロンあり"]) },
  { key: "連荘方式", name: "The dealer repeats", def: 2,
    val: level(["Never", "連荘なし"], ["On a dealer win", "和了連荘"], ["On a dealer win or tenpai", "テンパイ連荘"],
      ["Always, even no-tenpai", "ノーテン連荘"]) },
  { key: "トビ終了あり", name: "The game ends when a score goes below zero (tobi)", def: true, val: yes,
    short: (v) => (v ? ["Busting ends the game", "トビあり"] : ["No busting", "トビなし"]) },
  { key: "オーラス止めあり", name: "The last dealer may stop when leading (agari-yame)", def: true, val: yes },
  { key: "延長戦方式", name: "Extra hands when nobody has 30,000", def: 1,
    val: level(["None", "延長戦なし"], ["Sudden death", "サドンデス"], ["Sudden death, dealer repeats first", "連荘優先サドンデス"],
      ["Four more hands", "4局固定"]) },
  { key: "一発あり", name: "Ippatsu", def: true, val: yes },
  { key: "裏ドラあり", name: "Ura dora", def: true, val: yes },
  { key: "カンドラあり", name: "Kan dora", def: true, val: yes },
  { key: "カン裏あり", name: "Kan ura dora", def: true, val: yes },
  { key: "カンドラ後乗せ", name: "An open kan's dora is turned after the next discard", def: true, val: yes },
  { key: "ツモ番なしリーチあり", name: "Riichi with no draw left", def: false, val: yes },
  { key: "リーチ後暗槓許可レベル", name: "Closed kan after riichi", def: 2,
    val: level(["Not allowed", "暗槓不可"], ["Only if the hand's shape stays", "牌姿の変わる暗槓不可"],
      ["Only if the waits stay", "待ちの変わる暗槓不可"]) },
  { key: "役満の複合あり", name: "Several yakuman add up", def: true, val: yes },
  { key: "ダブル役満あり", name: "Double yakuman (13-sided kokushi, single-wait suuankou, true nine gates, big four winds)", def: true, val: yes },
  { key: "数え役満あり", name: "Counted yakuman (13 han)", def: true, val: yes },
  { key: "役満パオあり", name: "Yakuman liability (pao)", def: true, val: yes },
  { key: "切り上げ満貫あり", name: "4 han 30 fu rounded up to mangan (kiriage)", def: false, val: yes },
];
const BY_KEY = new Map(OPTIONS.map((o) => [o.key, o]));

// The summary, in this order: what changes how a player plays or how long the game lasts.
const KEY_RULES = ["場数", "配給原点", "赤牌", "クイタンあり", "喰い替え許可レベル", "最大同時和了数", "トビ終了あり"];

/** Majiang's defaults, as Majiang.rule() gives them. */
export const DEFAULTS = Object.fromEntries(OPTIONS.map((o) => [o.key, o.def]));

/** JSON with sorted keys: {"m":1,"p":1,"s":1} equals itself in any key order. */
function canonical(value) {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(",")}}`;
  return JSON.stringify(value);
}
const same = (a, b) => canonical(a) === canonical(b);

function words(key, value, { short = false } = {}) {
  const option = BY_KEY.get(key);
  if (!option) return [JSON.stringify(value), null];
  return (short && option.short ? option.short : option.val)(value);
}

function enJa([en, ja]) {
  return [h("span", { class: "rii-en" }, en), ja ? [" ", h("span", { class: "rii-ja", lang: "ja" }, ja)] : null];
}

/**
 * The preset a rule starts from, and how many options the table set on top of it:
 * {name, label, description, changes}. ``presets``: the config's riichi_presets list.
 */
export function presetOf(rule, name, presets = []) {
  const preset = (presets || []).find((p) => p.name === name);
  if (!preset) {
    // No name (an engine built from given walls) or one this page was not told about.
    return { name: name || null, label: name || "Custom rules", description: null, changes: null };
  }
  const base = { ...DEFAULTS, ...(preset.overrides || {}) };
  const changes = Object.keys(rule || {}).filter((k) => k in base && !same(rule[k], base[k])).length;
  return { name, label: preset.label, description: preset.description, changes };
}

/**
 * The rules panel: the preset's label, the key rules as chips, and "All rules" (every option,
 * those that differ from Majiang's defaults marked). ``rule``: the view's; ``preset``: its name.
 */
export function renderRules(rule, preset, presets = []) {
  rule = rule || {};
  const named = presetOf(rule, preset, presets);
  const keys = [...OPTIONS.map((o) => o.key).filter((k) => k in rule), ...Object.keys(rule).filter((k) => !BY_KEY.has(k))];
  const differs = keys.filter((k) => !BY_KEY.has(k) || !same(rule[k], BY_KEY.get(k).def));
  const base = presets?.find((p) => p.name === preset);
  const fromPreset = base ? { ...DEFAULTS, ...(base.overrides || {}) } : null;
  return h("section", { class: "rii-rules", dataset: { testid: "riichi-rules" }, "aria-label": "Rules in force" },
    h("p", { class: "rii-rules__head" },
      h("span", { class: "rii-rules__title" }, "Rules"), " ",
      h("strong", { class: "rii-rules__preset", dataset: { testid: "rules-preset", preset: named.name || "" }, title: named.description },
        named.label),
      named.changes ? h("span", { class: "rii-rules__changes", dataset: { testid: "rules-changes", count: named.changes },
        title: "Options this table set on top of its preset" }, ` + ${named.changes} ${named.changes === 1 ? "change" : "changes"}`) : null),
    h("ul", { class: "rii-rules__key" },
      KEY_RULES.filter((k) => k in rule).map((k) => h("li", { class: "rii-rules__chip", dataset: { testid: "rule-key", rule: k },
        title: `${BY_KEY.get(k).name}: ${words(k, rule[k])[0]}` }, enJa(words(k, rule[k], { short: true }))))),
    h("details", { class: "rii-rules__all", dataset: { testid: "rules-all" } },
      h("summary", {}, "All rules", differs.length
        ? h("span", { class: "rii-rules__count" }, ` (${differs.length} differ from Majiang’s defaults)`) : " (Majiang’s defaults)"),
      h("table", { class: "rii-rules__table" },
        h("caption", { class: "visually-hidden" }, "Every rule option in force"),
        h("tbody", {}, keys.map((k) => {
          const option = BY_KEY.get(k);
          const changed = differs.includes(k);
          const set = fromPreset && k in fromPreset && !same(rule[k], fromPreset[k]);
          return h("tr", { class: ["rii-rules__row", changed && "rii-rules__row--changed"],
            dataset: { testid: "rule", rule: k, differs: String(changed) } },
          h("th", { scope: "row" }, h("span", { class: "rii-en" }, option ? option.name : k), " ",
            h("span", { class: "rii-ja rii-rules__key-ja", lang: "ja" }, k)),
          h("td", {}, enJa(words(k, rule[k])),
            changed ? h("span", { class: "rii-rules__mark", dataset: { testid: "rule-differs" },
              title: option ? "Differs from Majiang’s default" : "Not one of Majiang’s options" }, option ? "changed" : "not Majiang’s") : null,
            set ? h("span", { class: "rii-rules__mark rii-rules__mark--table", title: "Set for this table, on top of its preset" }, "this table") : null,
            changed && option ? h("span", { class: "rii-rules__default" }, `Majiang: ${words(k, option.def)[0]}`) : null));
        })))));
}
