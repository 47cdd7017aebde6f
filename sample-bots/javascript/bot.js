#!/usr/bin/env node
'use strict';
// The starter bot: sees at once (classic), always bets the minimum, keeps its cards
// (closest-555), refuses sideshows. Your strategy goes in decide().
//
// Run:  arena match --game closest-555 --hands 50 \
//         --bot "node sample-bots/javascript/bot.js" --bot "python3 sample-bots/python/random_bot.py"

const tp = require('./teenpatti');

/**
 * Called for every request. Return an answer without the id, e.g. {action: 'pack'},
 * {action: 'bet', amount: 4}, {action: 'swap', card: 'Kd'}.
 *   request: the request as the arena sent it: kind ('bet', 'swap' or 'sideshow_reply'),
 *            legal, pot, stake, cards (absent while blind), players, known, ...
 *   state:   what the helper tracked (see teenpatti.js): state.game, state.myCards,
 *            state.players[seat].inHand, state.pot, state.stake, state.opponentsInHand(), ...
 */
function decide(request, state) {
  if (tp.can(request, 'see')) return { action: 'see' }; //              classic: look at the cards
  if (tp.can(request, 'bet')) return tp.bet(request, tp.minBet(request)); // chaal: the minimum
  if (tp.can(request, 'keep')) return { action: 'keep' }; //             closest-555: no swap
  if (tp.can(request, 'refuse')) return { action: 'refuse' }; //         no sideshow
  return tp.safeAnswer(request);
}

tp.run(decide, { name: 'js-starter', version: '1.0' });
