/*
 *  Named rule presets: overrides passed to Majiang.rule(), i.e. changes to
 *  its defaults (see node_modules/@kobalab/majiang-core/lib/rule.js for the
 *  exact key spellings and their meaning).
 */
"use strict";

module.exports = {
    // Majiang.rule() as is: red fives 1/1/1, open tanyao, 東南戦, double ron.
    'default': {},
    // No red fives, 東風戦 (場数 1 = east-only).
    'no-red-east-only': { '赤牌': { m: 0, p: 0, s: 0 }, '場数': 1 },
    // No open tanyao; 最大同時和了数 1 = 頭ハネ (only the first winner in
    // turn order after the discarder scores); 30fu-4han / 60fu-3han round up
    // to mangan.
    'no-kuitan-headbump-kiriage': {
        'クイタンあり': false, '最大同時和了数': 1, '切り上げ満貫あり': true,
    },
    // Double-wind pair worth 2 fu (not 4); no abortive draws (九種九牌,
    // 四風連打, 四家立直, 四開槓 are off; 三家和 is governed by 最大同時和了数).
    'double-wind-2fu-no-abort': { '連風牌は2符': true, '途中流局あり': false },
};
