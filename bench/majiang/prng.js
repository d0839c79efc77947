/*
 *  Seeded pseudo-random numbers for reproducible reference games.
 *
 *  cyrb128 turns any string into 128 bits of state; sfc32 is a small, fast
 *  generator with a 2^128 period.  make_rng(seed) returns a function with the
 *  same contract as Math.random (a float in [0, 1)).
 */
"use strict";

function cyrb128(str) {
    let h1 = 1779033703, h2 = 3144134277, h3 = 1013904242, h4 = 2773480762;
    for (let i = 0; i < str.length; i++) {
        const k = str.charCodeAt(i);
        h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
        h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
        h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
        h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
    }
    h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
    h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
    h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
    h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
    h1 ^= (h2 ^ h3 ^ h4); h2 ^= h1; h3 ^= h1; h4 ^= h1;
    return [h1 >>> 0, h2 >>> 0, h3 >>> 0, h4 >>> 0];
}

function sfc32(a, b, c, d) {
    return function() {
        a >>>= 0; b >>>= 0; c >>>= 0; d >>>= 0;
        let t = (a + b) | 0;
        a = b ^ (b >>> 9);
        b = (c + (c << 3)) | 0;
        c = (c << 21) | (c >>> 11);
        d = (d + 1) | 0;
        t = (t + d) | 0;
        c = (c + t) | 0;
        return (t >>> 0) / 4294967296;
    };
}

function make_rng(seed) {
    const rng = sfc32(...cyrb128(String(seed)));
    for (let i = 0; i < 15; i++) rng();          // warm up
    return rng;
}

/* Run fn() with Math.random replaced by rng; always restores Math.random. */
function with_random(rng, fn) {
    const saved = Math.random;
    Math.random = rng;
    try { return fn() }
    finally { Math.random = saved }
}

module.exports = { make_rng, with_random };
