#!/usr/bin/env node
/*
 *  corpus_stats.js: count the edge cases a corpus reaches.
 *
 *    node corpus_stats.js FILE...      (JSON lines of {"rule", "paifu"})
 *
 *  Prints one JSON line per file and a last line for all files together:
 *  games, hands, wins, multiple rons, robbed kans, kans per hand, every
 *  abortive / exhaustive draw by name, the rare yaku, yakuman and pao,
 *  games ended by a busted player (トビ), games that went into an extra
 *  round (南入 in 東風戦, 西入 in 東南戦) and so on.
 */
"use strict";

const fs = require('fs');

const RARE_YAKU = ['槍槓', '嶺上開花', '海底摸月', '河底撈魚', 'ダブル立直', '一発',
                   '天和', '地和', '七対子', '国士無双', '四暗刻', '大三元',
                   '字一色', '緑一色', '清老頭', '四槓子', '小四喜', '大四喜',
                   '九蓮宝燈', '純正九蓮宝燈', '国士無双十三面', '四暗刻単騎'];

function empty() {
    return { games: 0, hands: 0, hule: 0, multi_hule: 0, triple_hule: 0,
             qianggang: 0, lizhi: 0, fulou: 0, gang: 0,
             hands_with_2_gang: 0, hands_with_3_gang: 0, hands_with_4_gang: 0,
             yakuman: 0, pao: 0, kazoe_yakuman: 0, pingju: {}, yaku: {},
             tobi_end: 0, extra_round: 0 };
}

/* rule: the overrides the game was played under (for 場数). */
function tally(stats, paifu, rule = {}) {
    const changshu = rule['場数'] ?? 2;
    stats.games++;
    stats.hands += paifu.log.length;
    if (paifu.defen.some(x => x < 0)) stats.tobi_end++;
    if (changshu > 0
        && paifu.log.some(log => log[0].qipai.zhuangfeng >= changshu))
        stats.extra_round++;
    for (const log of paifu.log) {
        let n_hule = 0, n_gang = 0, last_gang = false;
        for (const data of log) {
            const key = Object.keys(data)[0];
            if (key == 'fulou') stats.fulou++;
            if (key == 'gang' || key == 'fulou' && /\d{4}/.test(data.fulou.m)) {
                stats.gang++;
                n_gang++;
            }
            if (key == 'dapai' && data.dapai.p.slice(-1) == '*') stats.lizhi++;
            if (key == 'hule') {
                const h = data.hule;
                n_hule++;
                stats.hule++;
                if (last_gang) stats.qianggang++;
                if (h.damanguan) stats.yakuman++;
                if (! h.damanguan && h.fanshu >= 13) stats.kazoe_yakuman++;
                if (h.hupai.some(y => y.baojia)) stats.pao++;
                for (const y of h.hupai) {
                    if (RARE_YAKU.includes(y.name))
                        stats.yaku[y.name] = (stats.yaku[y.name] || 0) + 1;
                }
            }
            if (key == 'pingju') {
                const name = data.pingju.name;
                stats.pingju[name] = (stats.pingju[name] || 0) + 1;
            }
            if (key != 'kaigang') last_gang = key == 'gang';
        }
        if (n_hule > 1) stats.multi_hule++;
        if (n_hule > 2) stats.triple_hule++;
        if (n_gang >= 2) stats.hands_with_2_gang++;
        if (n_gang >= 3) stats.hands_with_3_gang++;
        if (n_gang >= 4) stats.hands_with_4_gang++;
    }
    return stats;
}

function merge(a, b) {
    for (const [k, v] of Object.entries(b)) {
        if (typeof v == 'number') a[k] += v;
        else for (const [n, c] of Object.entries(v)) a[k][n] = (a[k][n] || 0) + c;
    }
    return a;
}

function main() {
    const files = process.argv.slice(2);
    if (! files.length) {
        process.stderr.write('usage: node corpus_stats.js FILE...\n');
        process.exit(2);
    }
    const total = empty();
    for (const file of files) {
        const stats = empty();
        for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
            if (! line.trim()) continue;
            const record = JSON.parse(line);
            tally(stats, record.paifu, record.rule);
        }
        process.stdout.write(JSON.stringify(Object.assign({ file }, stats)) + '\n');
        merge(total, stats);
    }
    process.stdout.write(JSON.stringify(Object.assign({ file: 'total' }, total)) + '\n');
}

if (require.main === module) main();

module.exports = { empty, tally, merge };
