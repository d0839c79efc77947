#!/usr/bin/env node
/*
 *  replay_bench.js: replay paifu with Majiang.Dev.Game and measure the speed.
 *
 *    node replay_bench.js [--rounds N] [--rule '{json}'] [--no-check] FILE...
 *
 *  FILE is JSON lines of {"rule": overrides, "paifu": paifu} (as written by
 *  make_games.js), or one JSON document: a paifu, a {rule, paifu} object, or
 *  an array of either (e.g. the oracle's script.json, whose rule is
 *  --rule '{"順位点":["20","10","-10","-20"]}').  --rule gives the overrides
 *  for bare paifu (default {}).
 *
 *  Majiang.Dev.Game(paifu, Majiang.rule(overrides)) rebuilds each hand's wall
 *  and every player's replies from the log and plays the game again through
 *  Majiang.Game; do_sync() leaves the regenerated paifu in game._paipu.  Each
 *  regenerated paifu is compared with the original (unless --no-check, and
 *  outside the timed section); a mismatch is reported and makes the exit code
 *  1.  Timing: one untimed warm-up pass over the first 50 paifu, then
 *  --rounds (default 3) timed passes over all of them.  The last line on
 *  stdout is a JSON summary: paifu_per_second and hands_per_second are the
 *  median pass, with the best pass and the load average beside them.
 *
 *  With --serve it then stays up for the paired benchmark (bench/riichi.py):
 *  for each line read on stdin it times one more pass over all the paifu and
 *  writes {"seconds": s} on a line of its own; it exits at the end of stdin.
 */
"use strict";

const fs = require('fs');
const os = require('os');
const path = require('path');
const util = require('util');
const Majiang = require('@kobalab/majiang-core/dev');

function usage(msg) {
    if (msg) process.stderr.write(`replay_bench.js: ${msg}\n`);
    process.stderr.write(
        'usage: node replay_bench.js [--rounds N] [--rule JSON] [--no-check] FILE...\n');
    process.exit(2);
}

function parse_args(argv) {
    const opt = { rounds: 3, rule: {}, check: true, serve: false, files: [] };
    for (let i = 0; i < argv.length; i++) {
        const a = argv[i];
        if      (a == '--rounds')   opt.rounds = +argv[++i];
        else if (a == '--rule')     opt.rule   = JSON.parse(argv[++i]);
        else if (a == '--no-check') opt.check  = false;
        else if (a == '--serve')    opt.serve  = true;
        else if (a == '-h' || a == '--help') usage();
        else if (a.startsWith('--')) usage(`unknown argument ${a}`);
        else opt.files.push(a);
    }
    if (! opt.files.length) usage('no input file');
    if (! (opt.rounds >= 1)) usage('bad --rounds');
    return opt;
}

function entry(obj, rule) {
    if (obj && obj.paifu) return { rule: obj.rule || {}, paifu: obj.paifu };
    return { rule: rule, paifu: obj };
}

function load(file, rule) {
    const text = fs.readFileSync(file, 'utf8');
    let doc;
    try { doc = JSON.parse(text) } catch (e) { doc = undefined }
    if (doc !== undefined) {
        return (Array.isArray(doc) ? doc : [doc]).map(o => entry(o, rule));
    }
    return text.split('\n').filter(l => l.trim())
               .map(l => entry(JSON.parse(l), rule));
}

/* The package's "exports" hide package.json, so read it beside lib/. */
function core_version() {
    const lib = path.dirname(require.resolve('@kobalab/majiang-core'));
    return JSON.parse(fs.readFileSync(path.join(lib, '..', 'package.json'),
                                      'utf8')).version;
}

function main() {
    const opt = parse_args(process.argv.slice(2));
    let games = [];
    for (const file of opt.files) games = games.concat(load(file, opt.rule));
    for (const g of games) {
        if (! (g.paifu && Array.isArray(g.paifu.log)))
            usage(`not a paifu: ${JSON.stringify(g.paifu).slice(0, 80)}`);
        g.rule_obj = Majiang.rule(g.rule);
    }
    const n_hands = games.reduce((n, g) => n + g.paifu.log.length, 0);

    let out;
    function pass(set) {                            /* seconds for one pass */
        /* Dev.Game consumes script.log (shift), so each replay gets its own
           copy of the log array; the hands inside are only read. */
        const scripts = set.map(g => Object.assign({}, g.paifu,
                                                   { log: g.paifu.log.slice() }));
        out = new Array(set.length);
        const t0 = process.hrtime.bigint();
        for (let i = 0; i < set.length; i++) {
            const game = new Majiang.Dev.Game(scripts[i], set[i].rule_obj);
            game.do_sync();
            out[i] = game._paipu;
        }
        return Number(process.hrtime.bigint() - t0) / 1e9;
    }

    let mismatches = 0;
    const rates = [];
    for (let r = -1; r < opt.rounds; r++) {         // round -1: warm-up
        const seconds = pass(r < 0 ? games.slice(0, 50) : games);
        if (r >= 0) rates.push(seconds);

        if (opt.check && r == 0) {
            for (let i = 0; i < games.length; i++) {
                if (! util.isDeepStrictEqual(
                        JSON.parse(JSON.stringify(out[i])), games[i].paifu)) {
                    mismatches++;
                    if (mismatches <= 5) process.stderr.write(
                        `mismatch: game ${i} (${games[i].paifu.title})\n`);
                }
            }
        }
    }

    const sorted = rates.concat().sort((a, b) => a - b);   // seconds per pass
    const median = sorted[(sorted.length - 1) >> 1], best = sorted[0];
    process.stdout.write(JSON.stringify({
        bench: 'majiang-core Majiang.Dev.Game replay',
        version: core_version(), node: process.version,
        files: opt.files, paifu: games.length, hands: n_hands,
        rounds: opt.rounds, checked: opt.check, mismatches: mismatches,
        rounds_seconds: rates.map(x => +x.toFixed(3)),
        best_paifu_per_second: +(games.length / best).toFixed(1),
        loadavg: os.loadavg().map(x => +x.toFixed(2)),
        paifu_per_second: +(games.length / median).toFixed(1),
        hands_per_second: +(n_hands / median).toFixed(1),
    }) + '\n');
    if (opt.serve) serve_passes(() => pass(games));
    else process.exit(mismatches ? 1 : 0);
}

/* One timed pass per line read on stdin, as {"seconds": s}. */
function serve_passes(pass) {
    const rl = require('readline').createInterface({ input: process.stdin });
    rl.on('line', () => process.stdout.write(
                            JSON.stringify({ seconds: pass() }) + '\n'));
    rl.on('close', () => process.exit(0));
}

main();
