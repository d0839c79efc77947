// The words of the table: yaku, limit hands, draws, rounds and decisions, each in Japanese (as
// Majiang names them) with English beside it. The English must carry the meaning alone: a machine
// without CJK fonts shows the Japanese as boxes.

import { WIND_KANJI, WIND_NAMES } from "./tiles.js";

// Every yaku games/riichi/engine/hule.py can name, in its order. Round and seat winds carry the
// wind after a space ("場風 東"), handled by yakuName.
const YAKU = {
  立直: "Riichi",
  ダブル立直: "Double riichi",
  一発: "Ippatsu (one-shot)",
  門前清自摸和: "Menzen tsumo (concealed self-draw)",
  平和: "Pinfu (no-points hand)",
  断幺九: "Tanyao (all simples)",
  一盃口: "Iipeikou (pure double sequence)",
  二盃口: "Ryanpeikou (twice pure double sequence)",
  七対子: "Chiitoitsu (seven pairs)",
  三色同順: "Sanshoku (mixed triple sequence)",
  三色同刻: "Sanshoku doukou (triple triplets)",
  一気通貫: "Ittsu (pure straight)",
  混全帯幺九: "Chanta (half outside hand)",
  純全帯幺九: "Junchan (fully outside hand)",
  対々和: "Toitoi (all triplets)",
  三暗刻: "San ankou (three concealed triplets)",
  三槓子: "San kantsu (three kans)",
  混老頭: "Honroutou (all terminals and honours)",
  小三元: "Shousangen (little three dragons)",
  混一色: "Honitsu (half flush)",
  清一色: "Chinitsu (full flush)",
  嶺上開花: "Rinshan kaihou (win on a kan draw)",
  槍槓: "Chankan (robbing a kan)",
  海底摸月: "Haitei (win on the last draw)",
  河底撈魚: "Houtei (win on the last discard)",
  "翻牌 白": "Yakuhai: white dragon",
  "翻牌 發": "Yakuhai: green dragon",
  "翻牌 中": "Yakuhai: red dragon",
  ドラ: "Dora",
  赤ドラ: "Aka dora (red fives)",
  裏ドラ: "Ura dora",
  天和: "Tenhou (blessing of heaven)",
  地和: "Chiihou (blessing of earth)",
  国士無双: "Kokushi musou (thirteen orphans)",
  国士無双十三面: "Kokushi musou, 13-sided wait",
  四暗刻: "Suuankou (four concealed triplets)",
  四暗刻単騎: "Suuankou, single wait",
  大三元: "Daisangen (big three dragons)",
  小四喜: "Shousuushii (little four winds)",
  大四喜: "Daisuushii (big four winds)",
  字一色: "Tsuuiisou (all honours)",
  緑一色: "Ryuuiisou (all green)",
  清老頭: "Chinroutou (all terminals)",
  四槓子: "Suukantsu (four kans)",
  九蓮宝燈: "Chuuren poutou (nine gates)",
  純正九蓮宝燈: "Junsei chuuren poutou (true nine gates)",
};

/** The English for a yaku's Japanese name ("場風 東" -> "Round wind: East"). */
export function yakuName(name) {
  if (YAKU[name]) return YAKU[name];
  const wind = /^(場風|自風) (.)$/.exec(name || "");
  if (wind) {
    const english = WIND_NAMES[WIND_KANJI.indexOf(wind[2])] || wind[2];
    return `${wind[1] === "場風" ? "Round wind" : "Seat wind"}: ${english}`;
  }
  return name || "";
}

/** Is this hupai entry a yakuman (Majiang writes its fanshu as "*", "**" for a double)? */
export const isYakuman = (entry) => typeof entry?.fanshu === "string" && entry.fanshu.startsWith("*");

/** How a yaku's value reads: "2 han", "Yakuman", "Double yakuman". */
export function hanText(entry) {
  if (isYakuman(entry)) return entry.fanshu.length === 1 ? "Yakuman" : `${entry.fanshu.length}× yakuman`;
  return `${entry.fanshu} han`;
}

// Limit hands, [Japanese, English].
export const LIMITS = {
  mangan: ["満貫", "Mangan"],
  haneman: ["跳満", "Haneman"],
  baiman: ["倍満", "Baiman"],
  sanbaiman: ["三倍満", "Sanbaiman"],
  kazoe: ["数え役満", "Counted yakuman"],
  yakuman: ["役満", "Yakuman"],
};

/**
 * The limit a win reached, as [Japanese, English], or null below mangan. From the hule record's
 * ``fanshu``, ``fu`` and ``damanguan`` with the same thresholds as hule.py's base_points.
 */
export function limitName(hule, rule = {}) {
  const n = hule.damanguan;
  if (n) {
    if (n === 1) return LIMITS.yakuman;
    return [`${n === 2 ? "ダブル" : n === 3 ? "トリプル" : `${n}倍`}役満`, `${n === 2 ? "Double" : n === 3 ? "Triple" : `${n}×`} yakuman`];
  }
  const han = Number(hule.fanshu) || 0;
  if (han >= 13 && rule["数え役満あり"] !== false) return LIMITS.kazoe;
  if (han >= 11) return LIMITS.sanbaiman;
  if (han >= 8) return LIMITS.baiman;
  if (han >= 6) return LIMITS.haneman;
  const base = (Number(hule.fu) || 0) * 2 ** (2 + han);
  if (base >= 2000 || (base === 1920 && rule["切り上げ満貫あり"])) return LIMITS.mangan;
  return null;
}

// Draws, by the name in Majiang's pingju record.
const DRAWS = {
  荒牌平局: "Exhaustive draw",
  九種九牌: "Nine terminals and honours (abortive draw)",
  四風連打: "Four winds discarded (abortive draw)",
  四家立直: "Four riichi (abortive draw)",
  四開槓: "Four kans (abortive draw)",
  三家和: "Triple ron (abortive draw)",
  流し満貫: "Nagashi mangan",
};

export const drawName = (name) => DRAWS[name] || name || "Draw";

/** "東1局" and "East 1" for a round wind and hand number (jushu from 0). */
export function roundName(zhuangfeng, jushu) {
  return [`${WIND_KANJI[zhuangfeng] ?? "?"}${(jushu ?? 0) + 1}局`, `${WIND_NAMES[zhuangfeng] ?? "?"} ${(jushu ?? 0) + 1}`];
}

// The decisions, [Japanese, English], as the buttons name them.
export const ACTIONS = {
  lizhi: ["立直", "Riichi"],
  tsumo: ["ツモ", "Tsumo"],
  ron: ["ロン", "Ron"],
  chi: ["チー", "Chi"],
  pon: ["ポン", "Pon"],
  kan: ["カン", "Kan"],
  pingju: ["九種九牌", "Nine terminals"],
  daopai: ["テンパイ", "Tenpai"],
  notenpai: ["ノーテン", "No-tenpai"],
  skip: ["スキップ", "Skip"],
  cancel: ["戻る", "Back"],
};
