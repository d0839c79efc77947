#!/usr/bin/env node
/*
 *  make_games.js: play complete reference games with majiang-core and write
 *  one JSON line per game: {"rule": <overrides>, "paifu": <paifu>}.
 *
 *    node make_games.js --player fast|ai --games N --seed S
 *                       [--preset NAME] [--rule '{json overrides}']
 *                       [--first K] [--out FILE] [--append] [--quiet]
 *
 *  --preset names a rule preset from presets.js; --rule adds (or overrides)
 *  keys on top of it.  The "rule" written is exactly what is passed to
 *  Majiang.rule(), i.e. overrides of its defaults.
 *
 *  Reproducible: game i of a run uses the seed string "<S>#<i>".  majiang-core
 *  draws the wall (Majiang.Shan) and the first dealer with Math.random, so
 *  Math.random is replaced by a PRNG seeded with "<S>#<i>/wall" for the whole
 *  game; each fast player has its own PRNG ("<S>#<i>/player<k>"), so player
 *  decisions never disturb the wall.  Each fast game also draws a style
 *  (normal, closed, kan: see fast_player.js) from "<S>#<i>/style"; the title
 *  records player, style, preset, seed and index.  majiang-ai is
 *  deterministic by itself.
 *  --first K starts at game index K, so a run can be split into shards that
 *  together equal one long run.
 *
 *  The last line printed on stdout is a JSON summary (games, hands, timing and
 *  the corpus_stats.js counts); without --out the games go to stdout and the
 *  summary to stderr.
 */
"use strict";

const fs = require('fs');
const Majiang = require('@kobalab/majiang-core');
const FastPlayer = require('./fast_player');
const PRESETS = require('./presets');
const { make_rng, with_random } = require('./prng');
const corpus_stats = require('./corpus_stats');

function usage(msg) {
    if (msg) process.stderr.write(`make_games.js: ${msg}\n`);
    process.stderr.write(
        'usage: node make_games.js --player fast|ai --games N --seed S\n'
      + '           [--preset NAME] [--rule JSON] [--first K] [--out FILE]\n'
      + '           [--append] [--quiet]\n'
      + `presets: ${Object.keys(PRESETS).join(', ')}\n`);
    process.exit(2);
}

function parse_args(argv) {
    const opt = { player: 'fast', games: 1, seed: '0', first: 0,
                  preset: null, rule: null, out: null, append: false,
                  quiet: false };
    for (let i = 0; i < argv.length; i++) {
        const a = argv[i];
        const val = () => {
            if (i + 1 >= argv.length) usage(`${a} needs a value`);
            return argv[++i];
        };
        if      (a == '--player') opt.player = val();
        else if (a == '--games')  opt.games  = +val();
        else if (a == '--seed')   opt.seed   = val();
        else if (a == '--first')  opt.first  = +val();
        else if (a == '--preset') opt.preset = val();
        else if (a == '--rule')   opt.rule   = val();
        else if (a == '--out')    opt.out    = val();
        else if (a == '--append') opt.append = true;
        else if (a == '--quiet')  opt.quiet  = true;
        else if (a == '-h' || a == '--help') usage();
        else usage(`unknown argument ${a}`);
    }
    if (! ['fast', 'ai'].includes(opt.player)) usage('--player must be fast or ai');
    if (! Number.isInteger(opt.games) || opt.games < 0) usage('bad --games');
    if (! Number.isInteger(opt.first) || opt.first < 0) usage('bad --first');
    if (opt.preset != null && ! (opt.preset in PRESETS))
        usage(`unknown preset ${opt.preset}`);
    return opt;
}

function rule_overrides(opt) {
    const rule = JSON.parse(JSON.stringify(PRESETS[opt.preset || 'default']));
    if (opt.rule) {
        let extra;
        try { extra = JSON.parse(opt.rule) }
        catch (e) { usage(`--rule is not JSON: ${e.message}`) }
        Object.assign(rule, extra);
    }
    const known = Object.keys(Majiang.rule());
    for (const key of Object.keys(rule)) {
        if (! known.includes(key)) usage(`unknown rule option ${key}`);
    }
    return rule;
}

function make_players(kind, game_seed, style) {
    if (kind == 'ai') {
        const AI = require('@kobalab/majiang-ai');
        return [0,1,2,3].map(() => new AI());
    }
    const policy = FastPlayer.STYLES[style].policy;
    return [0,1,2,3].map(k => new FastPlayer(
                                make_rng(`${game_seed}/player${k}`), policy));
}

/* Play one game; returns its paifu. */
function play_game(kind, overrides, seed, index, label) {
    const game_seed = `${seed}#${index}`;
    const rule = Majiang.rule(JSON.parse(JSON.stringify(overrides)));
    const style = kind == 'fast'
                ? FastPlayer.pick_style(make_rng(`${game_seed}/style`)) : null;
    const players = make_players(kind, game_seed, style);
    const title = `majiang-bench ${kind}${style ? '/' + style : ''} ${label}`
                + ` seed=${seed} game=${index}`;
    let paifu;
    with_random(make_rng(`${game_seed}/wall`), () => {
        const game = new Majiang.Game(players, p => { paifu = p }, rule, title);
        game.model.player = [0,1,2,3].map(k => `${kind}-${k}`);
        game.do_sync();
    });
    return paifu;
}

function main() {
    const opt = parse_args(process.argv.slice(2));
    const overrides = rule_overrides(opt);
    const label = opt.preset || (opt.rule ? 'custom' : 'default');
    const fd = opt.out ? fs.openSync(opt.out, opt.append ? 'a' : 'w') : 1;

    const stats = corpus_stats.empty();
    const t0 = process.hrtime.bigint();
    for (let i = opt.first; i < opt.first + opt.games; i++) {
        const t = process.hrtime.bigint();
        const paifu = play_game(opt.player, overrides, opt.seed, i, label);
        fs.writeSync(fd, JSON.stringify({ rule: overrides, paifu: paifu }) + '\n');
        corpus_stats.tally(stats, paifu, overrides);
        if (! opt.quiet && (opt.player == 'ai' || stats.games % 100 == 0)) {
            const s = Number(process.hrtime.bigint() - t) / 1e9;
            process.stderr.write(
                `${label} ${opt.player} game ${i}: ${paifu.log.length} hands, `
              + `${s.toFixed(2)} s\n`);
        }
    }
    if (fd != 1) fs.closeSync(fd);
    const seconds = Number(process.hrtime.bigint() - t0) / 1e9;

    const summary = Object.assign(
        { player: opt.player, preset: label, rule: overrides, seed: opt.seed,
          first: opt.first, out: opt.out },
        stats,
        { seconds: +seconds.toFixed(3),
          games_per_second: +(stats.games / seconds).toFixed(2) });
    if (opt.out) process.stdout.write(JSON.stringify(summary) + '\n');
    else         process.stderr.write(JSON.stringify(summary) + '\n');
}

main();
