#!/usr/bin/env node
'use strict';
// A slightly smarter example than bot.js. It sorts its hand into weak / good / great:
//   great: bet the maximum; good: bet the minimum, or now and then (one time in four) twice
//          the minimum, as a mixed answer (the arena draws which; see tp.mix);
//   weak:  bet the minimum while it is cheap, pack once someone raised (a big bet to call).
// In closest-555 it swaps the card whose replacement gives the best average distance, and it
// accepts a sideshow with a good hand. Plenty of room to improve: it ignores the pot odds,
// the number of opponents and what their bets say.

const tp = require('./teenpatti');

const RANKS = '23456789TJQKA';
const rank = (card) => RANKS.indexOf(card[0]) + 2; // 2 .. 14 (ace high)
const suit = (card) => card[1];

// Classic categories, weakest first.
const HIGH_CARD = 0, PAIR = 1, COLOUR = 2, SEQUENCE = 3, PURE_SEQUENCE = 4, TRAIL = 5;

/** The classic category of three cards (ties inside a category are ignored here). */
function category(cards) {
  const [a, b, c] = cards.map(rank).sort((x, y) => y - x);
  const flush = suit(cards[0]) === suit(cards[1]) && suit(cards[1]) === suit(cards[2]);
  const run = (a === b + 1 && b === c + 1) || (a === 14 && b === 3 && c === 2);
  if (a === c) return TRAIL;
  if (run) return flush ? PURE_SEQUENCE : SEQUENCE;
  if (flush) return COLOUR;
  if (a === b || b === c) return PAIR;
  return HIGH_CARD;
}

const isRed = (card) => 'hd'.includes(suit(card));

/** Lallan Kallan: the card of the odd colour is wild; try it as every other card. */
function lallanCategory(cards) {
  const wild = cards.find((c) => cards.filter((d) => isRed(d) === isRed(c)).length === 1);
  if (!wild) return -1; // one colour: a dead hand (never asked to play)
  const naturals = cards.filter((c) => c !== wild);
  let best = HIGH_CARD;
  for (const r of RANKS) {
    for (const s of 'cdhs') {
      const card = r + s;
      if (!naturals.includes(card)) best = Math.max(best, category([...naturals, card]));
    }
  }
  return best;
}

/** Closest to 555: the distance of the best number the three digits make (0 is perfect). */
function distance555(cards) {
  const digit = (card) => ({ A: 1, T: 0, J: 0, Q: 0, K: 0 })[card[0]] ?? Number(card[0]);
  const [x, y, z] = cards.map(digit);
  const orders = [[x, y, z], [x, z, y], [y, x, z], [y, z, x], [z, x, y], [z, y, x]];
  return Math.min(...orders.map(([a, b, c]) => Math.abs(100 * a + 10 * b + c - 555)));
}

/** 0 weak, 1 good, 2 great. */
function level(game, cards) {
  if (game === 'closest-555') {
    const d = distance555(cards);
    return d <= 5 ? 2 : d <= 25 ? 1 : 0;
  }
  if (game === 'lallan-kallan') {
    const c = lallanCategory(cards); // the wild makes at least a pair
    return c >= PURE_SEQUENCE ? 2 : c >= SEQUENCE ? 1 : 0;
  }
  const c = category(cards);
  return c >= SEQUENCE ? 2 : c >= PAIR ? 1 : 0;
}

/** Closest-555: the card to throw away, or null to keep. */
function chooseSwap(request, state) {
  const mine = request.cards;
  const others = [];
  for (const r of RANKS) for (const s of 'cdhs') if (!mine.includes(r + s)) others.push(r + s);
  let best = null;
  let bestAverage = distance555(mine);
  const cost = tp.entry(request, 'swap').cost || 0;
  for (const card of mine) {
    const kept = mine.filter((c) => c !== card);
    const total = others.reduce((sum, drawn) => sum + distance555([...kept, drawn]), 0);
    const average = total / others.length + (5 * cost) / state.boot; // a paid swap must be worth it
    if (average < bestAverage) [best, bestAverage] = [card, average];
  }
  return best;
}

function decide(request, state) {
  if (request.kind === 'swap') {
    const card = chooseSwap(request, state);
    return card ? { action: 'swap', card } : { action: 'keep' };
  }
  if (request.kind === 'sideshow_reply') {
    return { action: level(state.game, request.cards) >= 1 ? 'accept' : 'refuse' };
  }
  if (tp.can(request, 'see')) return { action: 'see' };
  if (!tp.can(request, 'bet') || !request.cards) return tp.safeAnswer(request);

  const strength = level(state.game, request.cards);
  const bigBet = tp.minBet(request) > 4 * state.boot; // someone raised
  tp.log(`hand ${request.hand}: ${request.cards.join(' ')} level ${strength}, ` +
         `min bet ${tp.minBet(request)} into ${request.pot}`);
  if (strength === 2) return tp.bet(request, tp.maxBet(request));
  if (strength === 0 && bigBet) return { action: 'pack' };
  const call = tp.bet(request, tp.minBet(request));
  const raise = tp.bet(request, 2 * tp.minBet(request));
  if (strength === 1 && raise.amount !== call.amount) {
    // A coin flip of the strategy: answered as a mix, the arena draws it and knows the odds,
    // so a tournament's estimate can take the luck of this draw out of the result.
    return tp.mix([[call, 0.75], [raise, 0.25]]);
  }
  return call;
}

tp.run(decide, { name: 'js-example', version: '1.0' });
