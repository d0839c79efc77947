// The hands of a game, read from its history: where each hand starts (its qipai), who sat in
// which wind, the dora indicators turned so far, the riichi sticks put down, and how it ended
// (hule or pingju, then maybe jieju). The win and draw screens, the log and the final standings
// read a hand from here because by the time they are drawn the view has moved on to the next one.
//
// Majiang counts seats within a hand from its dealer (``l``, the menfeng: 0 = East); the platform
// counts positions. In a hand the seat of menfeng ``l`` is (qijia + jushu + l) % 4 (game.py's
// ``player_id``), qijia being the first dealer from kaiju.

/** The first dealer's position, from the kaiju message (or the view's qijia). */
export function qijiaOf(history, fallback = 0) {
  const kaiju = history.find((m) => m.type === "kaiju");
  const qijia = kaiju?.params?.[0]?.qijia;
  return typeof qijia === "number" ? qijia : fallback;
}

/**
 * Every hand so far: {start (index of its qipai), qipai (its data), seatOf(l), baopai (indicators
 * turned, kan dora included), deposits (riichi sticks put down this hand, by l), ends (the hule /
 * pingju messages that ended it, in order), endIndex (index of the first), jieju (the game's end
 * message if it came right after)}.
 */
export function handsOf(history, fallbackQijia = 0) {
  const qijia = qijiaOf(history, fallbackQijia);
  const hands = [];
  let hand = null;
  let pendingLizhi = null; // a riichi discard is only a deposit once nobody wins on it
  for (let i = 0; i < history.length; i += 1) {
    const m = history[i];
    const data = m.params?.[0] || {};
    if (m.type === "qipai") {
      const jushu = data.jushu ?? 0;
      hand = {
        start: i, qipai: data, jushu, zhuangfeng: data.zhuangfeng ?? 0,
        seatOf: (l) => (qijia + jushu + l) % 4,
        baopai: data.baopai ? [data.baopai] : [], deposits: [0, 0, 0, 0], ends: [], endIndex: null, jieju: null,
      };
      hands.push(hand);
      pendingLizhi = null;
      continue;
    }
    if (!hand) continue;
    if (pendingLizhi !== null && m.type !== "hule") {
      hand.deposits[pendingLizhi] += 1;
      pendingLizhi = null;
    }
    if (m.type === "dapai" && typeof data.p === "string" && data.p.endsWith("*")) pendingLizhi = data.l;
    else if (m.type === "kaigang" && data.baopai) hand.baopai.push(data.baopai);
    else if (m.type === "hule" || m.type === "pingju") {
      if (hand.endIndex === null) hand.endIndex = i;
      hand.ends.push(m);
    } else if (m.type === "jieju") hand.jieju = m;
  }
  return hands;
}

/** The last hand that has ended, or null. */
export function lastEnded(hands) {
  for (let i = hands.length - 1; i >= 0; i -= 1) if (hands[i].endIndex !== null) return hands[i];
  return null;
}

/**
 * Each seat's score before and after a hand that ended, and the change: [{seat, l, before, change,
 * after}] in menfeng order. The change is the settlement (fenpei, honba and riichi sticks
 * included) less the sticks the seat put down this hand.
 */
export function settlement(hand) {
  const before = hand.qipai.defen || [0, 0, 0, 0];
  const change = [0, 0, 0, 0];
  for (const m of hand.ends) {
    const fenpei = m.params?.[0]?.fenpei || [];
    for (let l = 0; l < 4; l += 1) change[l] += Number(fenpei[l]) || 0;
  }
  return [0, 1, 2, 3].map((l) => {
    const delta = change[l] - 1000 * hand.deposits[l];
    return { seat: hand.seatOf(l), l, before: before[l], change: delta, after: before[l] + delta };
  });
}

/** The hand (from handsOf) that the message at ``index`` belongs to. */
export function handAt(hands, index) {
  let found = null;
  for (const hand of hands) {
    if (hand.start > index) break;
    found = hand;
  }
  return found;
}
