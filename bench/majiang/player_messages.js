#!/usr/bin/env node
/*
 *  player_messages.js: what majiang-core's Majiang.Game sends each player during a game, in
 *  seed 001's form {type, data}: the reference for the server's native Majiang protocol
 *  (games/riichi/protocols/majiang.py, docs/protocols/majiang.md).
 *
 *    node player_messages.js FILE
 *
 *  FILE holds JSON lines (or one JSON document, or a JSON array) of {rule, paifu}: rule is the
 *  full Majiang.rule() object (or overrides of it), paifu a whole game.  Each game is played again
 *  by Majiang.Dev.Game (the walls and every player's replies rebuilt from the paifu, as
 *  replay_paifu.js does); every message Majiang.Game hands a player, through call_players or
 *  notify_players, is recorded in the order that player receives it.
 *
 *  Prints one JSON line per game: {"title": ..., "messages": [msgs of player 0, 1, 2, 3]}, where
 *  player i is Majiang's player id (the platform's seat), each message {"type": ..., "data": ...}.
 *
 *  As in replay_paifu.js: without 裏ドラあり the rebuilt wall gets no ura indicator (Dev.Game always
 *  makes one).
 */
"use strict";

const fs = require('fs');
const Majiang = require('@kobalab/majiang-core/dev');

function load(file) {
    const text = fs.readFileSync(file, 'utf8');
    try {
        const doc = JSON.parse(text);
        return Array.isArray(doc) ? doc : [doc];
    }
    catch (e) {
        return text.split('\n').filter(l => l.trim()).map(l => JSON.parse(l));
    }
}

class Recorded extends Majiang.Dev.Game {

    constructor(paifu, rule) {
        /* Dev.Game consumes script.log: give it a copy. */
        super(Object.assign({}, paifu, { log: paifu.log.slice() }), rule);
        this.messages = [[], [], [], []];
        this._players.forEach((player, id) => {
            const action = player.action.bind(player);
            player.action = (msg, callback) => {
                /* What goes over a wire is JSON: undefined keys dropped, a copy as of now. */
                const type = Object.keys(msg)[0];
                this.messages[id].push({ type: type, data: JSON.parse(JSON.stringify(msg[type])) });
                return action(msg, callback);
            };
        });
    }

    qipai() {
        super.qipai();
        if (! this._rule['裏ドラあり']) this._model.shan._fubaopai = null;
    }
}

function main() {
    const file = process.argv[2];
    if (! file) {
        process.stderr.write('usage: node player_messages.js FILE\n');
        process.exit(2);
    }
    for (const entry of load(file)) {
        const game = new Recorded(entry.paifu, Majiang.rule(entry.rule || {}));
        game.do_sync();
        process.stdout.write(JSON.stringify({ title: entry.paifu.title, messages: game.messages }) + '\n');
    }
}

main();
