#!/usr/bin/env node
/*
 *  replay_paifu.js: replay paifu through majiang-core itself and report the
 *  first divergence of each.
 *
 *    node replay_paifu.js [--rule JSON] FILE...
 *
 *  FILE is one JSON document (a paifu, a {rule, paifu} object, or an array of
 *  either) or JSON lines of {rule, paifu}.  The rule of a game is, in this
 *  order: the paifu's own "rule" key (the full Majiang.rule() object, as a
 *  paifu downloaded from GET /api/games/<id>/paifu/ carries it), the "rule"
 *  beside it in a {rule, paifu} object, or --rule (default {}).  Keys that
 *  Majiang.rule() does not have are refused: Majiang would copy them blindly
 *  and play on under its defaults.
 *
 *  Each paifu is played again by Majiang.Dev.Game: it rebuilds every hand's
 *  wall and every player's replies from the hand's records and runs them
 *  through Majiang.Game, which decides everything else (what is legal, the
 *  dora, the scores, the next dealer, the end).  After each hand, the records
 *  Majiang wrote are compared with the paifu's, record by record, and at the
 *  end title, player, qijia, defen, point and rank.  A decision Majiang would
 *  not take (it plays an illegal reply as a pass or a tsumogiri) shows as the
 *  first record that differs.
 *
 *  One change to Dev.Game: without 裏ドラあり the rebuilt wall gets no ura
 *  indicator (Dev.Game always makes one, and scoring a riichi win then throws
 *  on the unknown tile '_'; docs/riichi-reference.md).  Majiang.Shan itself
 *  makes none under that rule.
 *
 *  Prints "SOURCE  TITLE  OK" or "SOURCE  TITLE  DIVERGES at ..." per game,
 *  then a JSON summary as the last line; exits 1 if any game diverged, 2 on
 *  bad input.
 */
"use strict";

const fs = require('fs');
const util = require('util');
const Majiang = require('@kobalab/majiang-core/dev');

const TOP_KEYS = ['title', 'player', 'qijia', 'defen', 'point', 'rank'];
const RULE_KEYS = new Set(Object.keys(Majiang.rule()));

function usage(msg) {
    if (msg) process.stderr.write(`replay_paifu.js: ${msg}\n`);
    process.stderr.write('usage: node replay_paifu.js [--rule JSON] FILE...\n');
    process.exit(2);
}

function parse_args(argv) {
    const opt = { rule: {}, files: [] };
    for (let i = 0; i < argv.length; i++) {
        const a = argv[i];
        if      (a == '--rule') opt.rule = JSON.parse(argv[++i]);
        else if (a == '-h' || a == '--help') usage();
        else if (a.startsWith('--')) usage(`unknown argument ${a}`);
        else opt.files.push(a);
    }
    if (! opt.files.length) usage('no input file');
    return opt;
}

function entry(obj, source, rule) {
    if (obj && obj.paifu && typeof obj.paifu == 'object')
        return { source, rule: obj.paifu.rule || obj.rule || {}, paifu: obj.paifu };
    if (obj && Array.isArray(obj.log))
        return { source, rule: obj.rule || rule, paifu: obj };
    usage(`${source}: not a paifu`);
}

function load(file, rule) {
    const text = fs.readFileSync(file, 'utf8');
    let doc;
    try { doc = JSON.parse(text) } catch (e) { doc = undefined }
    if (doc !== undefined) {
        if (! Array.isArray(doc)) return [entry(doc, file, rule)];
        return doc.map((o, i) => entry(o, `${file}[${i}]`, rule));
    }
    return text.split('\n').map((l, n) => [l, n + 1]).filter(([l]) => l.trim())
               .map(([l, n]) => entry(JSON.parse(l), `${file}:${n}`, rule));
}

/* JSON's view of a value: what a file holds (undefined keys dropped). */
function plain(x) { return x === undefined ? undefined : JSON.parse(JSON.stringify(x)) }

function brief(record) {
    if (record === undefined) return 'nothing';
    return JSON.stringify(record).slice(0, 300);
}

class Divergence extends Error {
    constructor(where, message) {
        super(`${where}: ${message}`);
        this.where = where;
    }
}

/* Majiang.Dev.Game, checking each hand against the paifu as soon as it is played. */
class Replay extends Majiang.Dev.Game {

    constructor(paifu, rule) {
        /* Dev.Game consumes script.log (one hand per deal): give it a copy. */
        super(Object.assign({}, paifu, { log: paifu.log.slice() }), rule);
        this._expected = paifu.log;
    }

    /* Compare the hand being played with the paifu's; with prefix, only the records Majiang
       has written so far (after a failure in the middle of a hand). */
    check_hand(prefix = false) {
        const h = this._paipu ? this._paipu.log.length - 1 : -1;
        if (h < 0) return;
        const expected = this._expected[h], actual = plain(this._paipu.log[h]);
        const n = prefix ? actual.length : Math.max(expected.length, actual.length);
        for (let i = 0; i < n; i++) {
            if (! util.isDeepStrictEqual(expected[i], actual[i]))
                throw new Divergence(`hand ${h} record ${i}`,
                        `expected ${brief(expected[i])}, majiang-core wrote ${brief(actual[i])}`);
        }
    }

    qipai() {
        this.check_hand();
        const h = this._paipu.log.length;
        if (h >= this._expected.length)
            throw new Divergence(`hand ${h}`, 'majiang-core plays a hand the paifu does not have');
        super.qipai();
        if (! this._rule['裏ドラあり']) this._model.shan._fubaopai = null;
    }
}

function replay(paifu, rule) {
    const game = new Replay(paifu, rule);
    try {
        game.do_sync();
        game.check_hand();
    }
    catch (e) {
        if (e instanceof Divergence) return e.message;
        try { game.check_hand(true) }   /* a record that went wrong first says more */
        catch (d) { if (d instanceof Divergence) return d.message }
        const h = game._paipu ? game._paipu.log.length - 1 : -1;
        const r = h >= 0 ? game._paipu.log[h].length : 0;
        return `hand ${h} record ${r}: majiang-core failed: ${e && e.message || e}`;
    }
    const produced = plain(game._paipu);
    if (produced.log.length != paifu.log.length)
        return `result: the paifu has ${paifu.log.length} hands, majiang-core played ${produced.log.length}`;
    for (const key of TOP_KEYS) {
        if (key in paifu && ! util.isDeepStrictEqual(paifu[key], produced[key]))
            return `result: ${key}: expected ${brief(paifu[key])}, majiang-core wrote ${brief(produced[key])}`;
    }
    return null;
}

function main() {
    const opt = parse_args(process.argv.slice(2));
    let games = [];
    for (const file of opt.files) games = games.concat(load(file, opt.rule));
    let diverged = 0, hands = 0;
    for (const g of games) {
        const title = String(g.paifu.title || '').replace(/\n/g, ' ');
        const unknown = Object.keys(g.rule).filter(k => ! RULE_KEYS.has(k));
        let divergence;
        if (unknown.length) divergence = `rule: keys Majiang.rule() does not have: ${unknown.join(', ')}`;
        else                divergence = replay(g.paifu, Majiang.rule(g.rule));
        hands += g.paifu.log.length;
        if (divergence) diverged++;
        process.stdout.write(`${g.source}  ${title}  ${divergence ? 'DIVERGES at ' + divergence : 'OK'}\n`);
    }
    process.stdout.write(JSON.stringify({
        replayer: 'majiang-core Majiang.Dev.Game', games: games.length, hands, divergences: diverged,
    }) + '\n');
    process.exit(diverged ? 1 : 0);
}

main();
