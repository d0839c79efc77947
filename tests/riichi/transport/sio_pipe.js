#!/usr/bin/env node
// A socket.io client for the tests of majiang-server's dialect, driven through its standard streams:
// socket.io-client itself (the one majiang-bot uses, from bench/majiang/node_modules), so the
// server is tested against the real peer library, with the test deciding every message.
//
//   node sio_pipe.js http://127.0.0.1:PORT/majiang COOKIE
//
// stdin, one JSON object a line:  {"emit": ["GAME", {"seq": 12}]}   an event and its arguments
//                                 {"raw": "2[oops"}                 an Engine.IO message as it is
//                                 {"close": true}                    disconnect and exit
// stdout, one JSON object a line: {"event": "GAME", "args": [...]} every event received, and
//                                 {"event": "connect"}, {"event": "disconnect", "args": [reason]},
//                                 {"event": "connect_error", "args": [message]}
"use strict";

const readline = require('readline');
const io = require('socket.io-client');

const [url, cookie] = process.argv.slice(2);
const server = url.replace(/^(https?:\/\/[^\/]*)\/.*$/, '$1');
const path = url.replace(/^https?:\/\/[^\/]*/, '').replace(/\/$/, '');

// As majiang-bot connects (bin/client.js), but it never reconnects: a test says when to come back.
const sock = io(server, {
    path: `${path}/socket.io/`,
    extraHeaders: cookie ? { Cookie: `MAJIANG=${cookie}` } : {},
    reconnection: false,
});

function out(event, args) {
    process.stdout.write(JSON.stringify(args === undefined ? { event } : { event, args }) + '\n');
}

sock.onAny((event, ...args) => out(event, args));
sock.on('connect', () => out('connect'));
sock.on('disconnect', (reason) => out('disconnect', [reason]));
sock.on('connect_error', (err) => out('connect_error', [String(err && err.message)]));

readline.createInterface({ input: process.stdin }).on('line', (line) => {
    if (!line.trim()) return;
    const command = JSON.parse(line);
    if (command.emit) sock.emit(...command.emit);
    else if (command.raw !== undefined) sock.io.engine.send(command.raw);
    else if (command.close) { sock.close(); setTimeout(() => process.exit(0), 50); }
}).on('close', () => { sock.close(); process.exit(0); });
