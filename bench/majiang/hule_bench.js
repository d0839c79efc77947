#!/usr/bin/env node
/*
 *  hule_bench.js: score every hand of the oracle's hule.json with
 *  Majiang.Util.hule and measure the speed.
 *
 *    node hule_bench.js [--rounds N] [FILE]
 *
 *  FILE defaults to ../../../shared/oracle/mahjong/hule.json (the shared/
 *  folder beside the repository).  Each case is
 *  {"in": {"shoupai", "rongpai"?, "param"}, "out": {...}}; it is scored as
 *  majiang-core's own test does, under the default Majiang.rule():
 *
 *    Majiang.Util.hule(Majiang.Shoupai.fromString(in.shoupai),
 *                      in.rongpai, { ...in.param, rule: Majiang.rule() })
 *
 *  The timed section includes Shoupai.fromString (the engine under test has
 *  to parse the hand too).  Results are compared with "out" after timing
 *  (absent fields counting as null, as hule() leaves damanguan undefined for
 *  ordinary hands where the oracle has null); a mismatch makes the exit
 *  code 1.  The last line on stdout is a JSON summary
 *  with hands_per_second (the median over --rounds timed passes, default 5,
 *  after one untimed warm-up pass), the best pass, and the load average, as
 *  other work on the machine skews the figure.
 *
 *  With --serve it then stays up for the paired benchmark (bench/riichi.py):
 *  for each line read on stdin it times one more pass and writes
 *  {"seconds": s} on a line of its own; it exits at the end of stdin.  A
 *  line "score" times Util.hule alone: the hands are parsed first, outside
 *  the timing (hule() clones the hand it is given, so it can be reused);
 *  any other line times a pass as above, parsing included.
 */
"use strict";

const fs = require('fs');
const os = require('os');
const path = require('path');
const util = require('util');
const Majiang = require('@kobalab/majiang-core');

/* The package's "exports" hide package.json, so read it beside lib/. */
function core_version() {
    const lib = path.dirname(require.resolve('@kobalab/majiang-core'));
    return JSON.parse(fs.readFileSync(path.join(lib, '..', 'package.json'),
                                      'utf8')).version;
}

function main() {
    const argv = process.argv.slice(2);
    let rounds = 5, serve = false, file = path.join(__dirname,
                        '../../../shared/oracle/mahjong/hule.json');
    for (let i = 0; i < argv.length; i++) {
        if (argv[i] == '--rounds') rounds = +argv[++i];
        else if (argv[i] == '--serve') serve = true;
        else file = argv[i];
    }
    const data = JSON.parse(fs.readFileSync(file, 'utf8'));
    const rule = Majiang.rule();
    const cases = data.map(t => ({
        shoupai: t.in.shoupai,
        rongpai: t.in.rongpai,
        param:   Object.assign({}, t.in.param, { rule: rule }),
        out:     t.out,
    }));

    const got = new Array(cases.length);
    function pass() {                               /* seconds for one pass */
        const t0 = process.hrtime.bigint();
        for (let i = 0; i < cases.length; i++) {
            const c = cases[i];
            got[i] = Majiang.Util.hule(Majiang.Shoupai.fromString(c.shoupai),
                                       c.rongpai, c.param);
        }
        return Number(process.hrtime.bigint() - t0) / 1e9;
    }

    function score_pass() {                         /* seconds, parsing untimed */
        const hands = cases.map(c => Majiang.Shoupai.fromString(c.shoupai));
        const t0 = process.hrtime.bigint();
        for (let i = 0; i < cases.length; i++) {
            const c = cases[i];
            got[i] = Majiang.Util.hule(hands[i], c.rongpai, c.param);
        }
        return Number(process.hrtime.bigint() - t0) / 1e9;
    }

    let mismatches = 0;
    const rates = [];
    for (let r = -1; r < rounds; r++) {             // round -1: warm-up
        const seconds = pass();
        if (r >= 0) rates.push(cases.length / seconds);
        if (r == -1) {
            for (let i = 0; i < cases.length; i++) {
                /* hule() leaves absent fields undefined where the oracle
                   has null (e.g. damanguan of a non-yakuman hand). */
                const norm = Object.assign({ fu: null, fanshu: null,
                                             damanguan: null },
                                           JSON.parse(JSON.stringify(got[i])));
                if (! util.isDeepStrictEqual(norm, cases[i].out)) {
                    mismatches++;
                    if (mismatches <= 5) process.stderr.write(
                        `mismatch: case ${i} ${cases[i].shoupai}\n`);
                }
            }
        }
    }

    const sorted = rates.concat().sort((a, b) => a - b);
    process.stdout.write(JSON.stringify({
        bench: 'majiang-core Majiang.Util.hule',
        version: core_version(), node: process.version,
        file: file, hands: cases.length, rounds: rounds,
        mismatches: mismatches,
        rounds_hands_per_second: rates.map(x => +x.toFixed(1)),
        best_hands_per_second: +sorted[sorted.length - 1].toFixed(1),
        loadavg: os.loadavg().map(x => +x.toFixed(2)),
        hands_per_second: +sorted[(sorted.length - 1) >> 1].toFixed(1),
    }) + '\n');
    if (serve) serve_passes(line => line.trim() == 'score' ? score_pass() : pass());
    else process.exit(mismatches ? 1 : 0);
}

/* One timed pass per line read on stdin, as {"seconds": s}. */
function serve_passes(pass) {
    const rl = require('readline').createInterface({ input: process.stdin });
    rl.on('line', line => process.stdout.write(
                            JSON.stringify({ seconds: pass(line) }) + '\n'));
    rl.on('close', () => process.exit(0));
}

main();
