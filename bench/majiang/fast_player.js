/*
 *  FastPlayer: a quick, seeded, deliberately reckless Majiang.Player.
 *
 *  It never invents a move: every reply is drawn from majiang-core's own rule
 *  helpers (Majiang.Player#get_dapai, get_chi_mianzi, get_peng_mianzi,
 *  get_gang_mianzi, allow_lizhi, allow_hule, allow_pingju, allow_no_daopai,
 *  which wrap the static Majiang.Game ones), so each reply is legal under the
 *  game's rule.  Among the legal replies it picks at random with a seeded
 *  PRNG, biased towards the rare paths a reference corpus should cover:
 *  it calls chi/pon/kan often, makes every kan it can most of the time,
 *  declares riichi whenever allowed, wins nearly always (sometimes declining,
 *  which makes it furiten), declares 九種九牌, follows a first-turn wind
 *  discard (四風連打), and now and then plays a hand for 流し満貫 (discarding
 *  terminals and honours only, never calling).
 *
 *  Discards are greedy on shanten most of the time so that hands reach tenpai
 *  and end in wins rather than in exhaustive draws.
 *
 *  Deterministic: given the same rng (see prng.js) and the same messages it
 *  replies the same way.
 */
"use strict";

const Majiang = require('@kobalab/majiang-core');

const DEFAULT_POLICY = {
    hule:       0.93,   // take a legal win (tsumo, ron, chankan)
    jiuzhong:   0.75,   // declare 九種九牌 when allowed
    angang:     0.80,   // closed kan / added kan when offered
    minggang:   0.70,   // open kan on a discard
    peng:       0.45,   // pon
    chi:        0.35,   // chi
    lizhi:      0.85,   // riichi when allowed
    greedy:     0.85,   // discard a tile that keeps shanten minimal
    fengpai:    0.70,   // follow a first-turn wind discard (四風連打)
    fengpai0:   0.20,   // open the first turn with a wind when holding one
    nagashi:    0.05,   // per hand: play for 流し満貫
    daopai:     0.50,   // with ノーテン宣言あり: reveal a tenpai hand
    reckless:   0.08,   // factor on chi/pon that give no obvious yaku
    yaojiu:     0.70,   // among equal-shanten discards, prefer 1/9/honours
};

/* Per game, each player gets a temperament: a factor on its call rates. */
const TEMPERAMENT = [0.3, 1, 1, 1.6];

function is_yaojiu(p) { return /^(z|[mps][19])/.test(p) }

module.exports = class FastPlayer extends Majiang.Player {

    constructor(rng, policy = {}) {
        super();
        this._rng    = rng;
        this._policy = Object.assign({}, DEFAULT_POLICY, policy);
    }

    chance(key, factor = 1) { return this._rng() < this._policy[key] * factor }
    pick(list)  { return list[Math.floor(this._rng() * list.length)] }

    kaiju(kaiju) {
        this._temper = this.pick(TEMPERAMENT);
        super.kaiju(kaiju);
    }

    /* A call that obviously keeps a yaku: 役牌 pon, or all simples (喰いタン). */
    yaku_friendly(m) {
        if (m[0] == 'z') {
            const n = +m[1];
            return n >= 5 || n == this._model.zhuangfeng + 1
                          || n == this._menfeng + 1;
        }
        return this._rule['クイタンあり']
            && m.match(/\d/g).every(n => n != '1' && n != '9');
    }
    call_chance(key, m) {
        return this.chance(key, this._temper
                        * (this.yaku_friendly(m) ? 1 : this._policy.reckless));
    }

    qipai(qipai) {
        this._first = [];           // discards of the first go-around
        this._open  = false;        // any call or kan this hand
        this._mode_nagashi = this.chance('nagashi');
        super.qipai(qipai);
    }
    dapai(dapai) {
        if (! this._open) this._first.push(dapai.p.slice(0,2));
        super.dapai(dapai);
    }
    fulou(fulou) { this._open = true; super.fulou(fulou) }
    gang(gang)   { this._open = true; super.gang(gang)   }

    action_kaiju()  { this._callback() }
    action_qipai()  { this._callback() }
    action_hule()   { this._callback() }
    action_pingju() { this._callback() }
    action_jieju()  { this._callback() }

    action_zimo(zimo, gangzimo) {
        if (zimo.l != this._menfeng) return this._callback();
        const shoupai = this.shoupai;

        if (this.allow_hule(shoupai, null, gangzimo) && this.chance('hule'))
                                    return this._callback({ hule: '-' });
        if (this.allow_pingju(shoupai) && this.chance('jiuzhong'))
                                    return this._callback({ daopai: '-' });
        if (! this._mode_nagashi) {
            const gang = this.get_gang_mianzi(shoupai);
            if (gang && gang.length && this.chance('angang'))
                                    return this._callback({ gang: this.pick(gang) });
            const lizhi = this.allow_lizhi(shoupai);
            if (lizhi && lizhi.length && this.chance('lizhi'))
                                    return this._callback(
                                            { dapai: this.pick(lizhi) + '*' });
        }
        this._callback({ dapai: this.select_dapai() });
    }

    action_dapai(dapai) {
        const shoupai = this.shoupai;

        if (dapai.l == this._menfeng) {
            return this._callback(this.select_daopai(shoupai));
        }

        const d = ['','+','=','-'][(4 + dapai.l - this._menfeng) % 4];
        const p = dapai.p.slice(0,2) + d;

        if (this.allow_hule(shoupai, p) && this.chance('hule'))
                                    return this._callback({ hule: '-' });
        if (this.shan.paishu == 0)  return this._callback(
                                            this.select_daopai(shoupai));
        if (! this._mode_nagashi) {
            const gang = this.get_gang_mianzi(shoupai, p) || [];
            if (gang.length && this.chance('minggang', this._temper))
                                    return this._callback({ fulou: this.pick(gang) });
            const peng = this.get_peng_mianzi(shoupai, p) || [];
            if (peng.length) {
                const m = this.pick(peng);
                if (this.call_chance('peng', m)) return this._callback({ fulou: m });
            }
            const chi = this.get_chi_mianzi(shoupai, p) || [];
            if (chi.length) {
                const m = this.pick(chi);
                if (this.call_chance('chi', m)) return this._callback({ fulou: m });
            }
        }
        this._callback();
    }

    action_fulou(fulou) {
        if (fulou.l != this._menfeng)      return this._callback();
        if (fulou.m.match(/^[mpsz]\d{4}/)) return this._callback();  // 大明槓
        this._callback({ dapai: this.select_dapai() });
    }

    action_gang(gang) {
        if (gang.l == this._menfeng)        return this._callback();
        if (gang.m.match(/^[mpsz]\d{4}$/))  return this._callback(); // 暗槓
        const d = ['','+','=','-'][(4 + gang.l - this._menfeng) % 4];
        const p = gang.m[0] + gang.m.slice(-1) + d;                  // 槍槓
        if (this.allow_hule(this.shoupai, p, true) && this.chance('hule'))
                                    return this._callback({ hule: '-' });
        this._callback();
    }

    /* Reply to the last discard of a hand (exhaustive draw). */
    select_daopai(shoupai) {
        if (this.shan.paishu > 0) return undefined;
        if (this.allow_no_daopai(shoupai)) {
            return this.chance('daopai') ? { daopai: '-' } : undefined;
        }
        return undefined;
    }

    select_dapai() {
        const shoupai = this.shoupai;
        const dapai = this.get_dapai(shoupai);
        if (dapai.length == 1) return dapai[0];

        if (this._mode_nagashi) {
            const yaojiu = dapai.filter(is_yaojiu);
            if (yaojiu.length) return this.pick(yaojiu);
        }

        if (this._diyizimo && ! this._open) {
            const first = this._first;
            if (first.length && first.length < 4
                && /^z[1-4]$/.test(first[0]) && first.every(p => p == first[0]))
            {
                const same = dapai.filter(p => p.slice(0,2) == first[0]);
                if (same.length && this.chance('fengpai')) return this.pick(same);
            }
            else if (! first.length) {
                const feng = dapai.filter(p => /^z[1-4]/.test(p));
                if (feng.length && this.chance('fengpai0')) return this.pick(feng);
            }
        }

        if (! this.chance('greedy')) return this.pick(dapai);

        /* An open hand whose melds are all simples plays for 喰いタン:
           terminals and honours go first. */
        if (! shoupai.menqian && this._rule['クイタンあり']
            && shoupai._fulou.every(m => /^[mps]/.test(m)
                                && m.match(/\d/g).every(n => n != '1' && n != '9')))
        {
            const yaojiu = dapai.filter(is_yaojiu);
            if (yaojiu.length) return this.pick(yaojiu);
        }

        let best = [], min = Infinity;
        for (const p of dapai) {
            const n = Majiang.Util.xiangting(shoupai.clone().dapai(p));
            if (n < min)       { min = n; best = [p] }
            else if (n == min) best.push(p);
        }
        const yaojiu = best.filter(is_yaojiu);
        if (yaojiu.length && this.chance('yaojiu')) return this.pick(yaojiu);
        return this.pick(best);
    }
};

/*
 *  Game styles: make_games.js draws one per game (all four players share it)
 *  and passes it as the policy overrides.  'closed' games (no calls, riichi
 *  always) reach 四家立直 and multiple rons; 'kan' games reach 四開槓, kans on
 *  kans, 嶺上開花 and 槍槓.  In 'closed' games wins are often declined
 *  (riichi furiten) so that more players reach riichi.
 */
const STYLES = {
    normal: { weight: 0.70, policy: {} },
    closed: { weight: 0.15, policy: { peng: 0, chi: 0, minggang: 0,
                                      lizhi: 1, hule: 0.45, nagashi: 0.02 } },
    kan:    { weight: 0.15, policy: { angang: 1, minggang: 1, peng: 0.8,
                                      reckless: 0.5, lizhi: 0.6 } },
};

function pick_style(rng) {
    let r = rng();
    for (const [name, style] of Object.entries(STYLES)) {
        if ((r -= style.weight) < 0) return name;
    }
    return 'normal';
}

module.exports.DEFAULT_POLICY = DEFAULT_POLICY;
module.exports.STYLES = STYLES;
module.exports.pick_style = pick_style;
