#!/usr/bin/env node
/*
 *  passive_table.js: majiang-ai's offence alone, for bench/bot_offence.py.
 *
 *    node passive_table.js --games N --seed S [--rule JSON] [--no-calls] [--positions]
 *
 *  Plays N whole games in which majiang-ai (player 0) faces three passive players: each discards
 *  the tile it draws, and never calls, wins or declares anything. Nobody threatens majiang-ai
 *  and nobody wins but it, so what it scores is its hand-building alone: how often and how fast
 *  it wins, for how much, and how often it calls. The wall of game i comes from the seed
 *  "<S>#<i>" (prng.js); --rule is overrides of Majiang.rule() (bot_offence.py passes its own
 *  preset's rule); --no-calls makes majiang-ai never chi, pon or open-kan.
 *
 *  Prints one JSON line: per hand of the hero {won, points, turn (its own discards before the win),
 *  riichi, called}, and its call decisions by the shanten number before them (capped at 3), closed
 *  ('c') or open ('o'): {"2c": [offered, called], ...}. A decision is counted when a chi or pon was
 *  on offer and a win was not. --positions adds each such decision as the seat saw it (hand, the
 *  melds on offer, the one called or null, winds, dora indicators, tiles left, every river and
 *  meld, the scores by seat): bench/bot_calls.py puts the same positions to our bot.
 */
"use strict";

const Majiang = require('@kobalab/majiang-core');
const AI = require('@kobalab/majiang-ai');
const { make_rng, with_random } = require('./prng');

/* Discards what it draws; answers nothing else. */
class Passive extends Majiang.Player {
    action_kaiju()  { this._callback() }
    action_qipai()  { this._callback() }
    action_zimo(zimo) {
        if (zimo.l != this._menfeng) return this._callback();
        this._callback({ dapai: this.shoupai._zimo + '_' });
    }
    action_dapai()  { this._callback() }
    action_fulou()  { this._callback() }
    action_gang()   { this._callback() }
    action_hule()   { this._callback() }
    action_pingju() { this._callback() }
    action_jieju()  { this._callback() }
}

/* majiang-ai, counting its call decisions (and refusing every call with noCalls); with positions,
   each decision's position as the seat saw it, for bench/bot_calls.py. */
function hero(calls, noCalls, positions) {
    return new (class extends AI {
        select_fulou(dapai, info) {
            const d = ['', '+', '=', '-'][(4 + dapai.l - this._menfeng) % 4];
            const p = dapai.p.slice(0, 2) + d;
            const melds = this.get_peng_mianzi(this.shoupai, p).concat(this.get_chi_mianzi(this.shoupai, p));
            const offered = melds.length;
            const m = noCalls ? undefined : super.select_fulou(dapai, info);
            if (offered && ! this.select_hule(dapai)) {
                const key = Math.min(Majiang.Util.xiangting(this.shoupai), 3)
                          + (this.shoupai.menqian ? 'c' : 'o');
                calls[key] = calls[key] || [0, 0];
                calls[key][0]++;
                if (m) calls[key][1]++;
                if (positions) {
                    const model = this._model;
                    positions.push({
                        key: key, shoupai: this.shoupai.toString(), offered: melds, called: m || null,
                        menfeng: this._menfeng, zhuangfeng: model.zhuangfeng, jushu: model.jushu,
                        baopai: this.shan.baopai.slice(), paishu: this.shan.paishu,
                        he: [0, 1, 2, 3].map(l => model.he[l]._pai.slice()),
                        fulou: [0, 1, 2, 3].map(l => model.shoupai[l]._fulou.slice()),
                        defen: [0, 1, 2, 3].map(l => model.defen[model.player_id[l]]),
                    });
                }
            }
            return m;
        }
    })();
}

function parse(argv) {
    const opt = { games: 10, seed: '0', rule: {}, noCalls: false };
    for (let i = 0; i < argv.length; i++) {
        const a = argv[i];
        if (a == '--games') opt.games = +argv[++i];
        else if (a == '--seed') opt.seed = argv[++i];
        else if (a == '--rule') opt.rule = JSON.parse(argv[++i]);
        else if (a == '--no-calls') opt.noCalls = true;
        else if (a == '--positions') opt.positions = true;
        else throw new Error(`unknown argument ${a}`);
    }
    return opt;
}

function main() {
    const opt = parse(process.argv.slice(2));
    const calls = {}, hands = [], positions = opt.positions ? [] : null;
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < opt.games; i++) {
        const players = [hero(calls, opt.noCalls, positions), new Passive(), new Passive(), new Passive()];
        let paifu;
        with_random(make_rng(`${opt.seed}#${i}`), () => {
            const rule = Majiang.rule(JSON.parse(JSON.stringify(opt.rule)));
            const game = new Majiang.Game(players, p => { paifu = p }, rule, 'passive table');
            game.do_sync();
        });
        for (const log of paifu.log) {
            const qipai = log[0].qipai;
            // The hero is player 0; its seat in this hand, counted from the dealer.
            const me = (4 - paifu.qijia + 4 - qipai.jushu) % 4;
            const hand = { won: false, points: 0, turn: 0, riichi: false, called: false };
            for (const m of log) {
                if (m.dapai && m.dapai.l == me) {
                    hand.turn++;
                    if (m.dapai.p.endsWith('*')) hand.riichi = true;
                }
                if (m.fulou && m.fulou.l == me) hand.called = true;
                if (m.hule && m.hule.l == me) { hand.won = true; hand.points = m.hule.defen; }
            }
            if (! hand.won) hand.turn = 0;
            hands.push(hand);
        }
    }
    const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
    const out = { games: opt.games, seconds, hands, calls };
    if (positions) out.positions = positions;
    process.stdout.write(JSON.stringify(out) + '\n');
}

main();
