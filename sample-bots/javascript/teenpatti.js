'use strict';
/**
 * teenpatti.js: a small helper for Teen Patti arena bots in JavaScript (Node 18+, standard
 * library only, CommonJS). Copy it next to your bot and `require('./teenpatti')`.
 *
 * What it does for you (the protocol is in protocol/PROTOCOL.md):
 *  - reads one JSON message per line from stdin and answers `hello` with your bot's name;
 *  - follows the events of every hand in a `State`: your cards, who is still in, the pot,
 *    the stake, what every seat put in, the cards revealed to you;
 *  - for every `request` calls YOUR function `decide(request, state)` and writes its answer,
 *    with the request's id, as one line on stdout (Node writes to a pipe at once);
 *  - if `decide` throws or returns an illegal answer, logs it and sends the safe answer
 *    (pack / keep / refuse) instead, so that a bug costs one hand and not the match;
 *  - logs fault notices to stderr, and exits at `match_end` or when stdin closes.
 *
 *     const tp = require('./teenpatti');
 *     tp.run((request, state) => {
 *       if (tp.can(request, 'see')) return { action: 'see' };
 *       if (tp.can(request, 'bet')) return tp.bet(request, tp.minBet(request));
 *       return tp.safeAnswer(request);
 *     }, { name: 'my-bot' });
 *
 * stdout belongs to the protocol: use tp.log() (or console.error), which writes to stderr,
 * your bot's log. (run() also points console.log at stderr, so a stray one cannot break the
 * protocol.)
 */

const readline = require('readline');

const PROTOCOL_VERSION = 1;

/** Writes one line to stderr, the bot's own log (console.error does the same). */
function log(...parts) {
  console.error(...parts);
}

// ---- The legal set of a request ----------------------------------------------------------
// request.legal lists what you may do, e.g.
//   [{"action":"pack"}, {"action":"bet","min":2,"max":4,"multiple_of":2}, {"action":"show","cost":2}]

/** The legal entry named `name` (an object with its bounds or cost), or undefined. */
function entry(request, name) {
  return (request.legal || []).find((e) => e && e.action === name);
}

/** Whether the action `name` is offered. */
function can(request, name) {
  return entry(request, name) !== undefined;
}

/** The smallest legal bet (call it only when a bet is offered). */
function minBet(request) {
  return entry(request, 'bet').min;
}

/** The largest legal bet. */
function maxBet(request) {
  return entry(request, 'bet').max;
}

/** A bet answer: `amount` moved inside [min, max] and onto a multiple of multiple_of. */
function bet(request, amount) {
  const e = entry(request, 'bet');
  if (!e) throw new Error('no bet is offered');
  const step = e.multiple_of || 1;
  let a = Math.max(e.min, Math.min(e.max, Math.floor(amount)));
  a -= a % step;
  if (a < e.min) a += step;
  return { action: 'bet', amount: a };
}

/** What the arena itself would do for you: pack a bet, keep the cards, refuse a sideshow. */
function safeAnswer(request) {
  const name = { bet: 'pack', swap: 'keep', sideshow_reply: 'refuse' }[request.kind] || 'pack';
  if (can(request, name)) return { action: name };
  const first = (request.legal || [])[0];
  return { action: first ? first.action : 'pack' };
}

/**
 * A mixed answer (PROTOCOL.md, "Mixed answers"): `weighted` is a list of [answer, p] pairs,
 * e.g. mix([[{ action: 'pack' }, 0.25], [tp.bet(request, 4), 0.75]]), the p adding up to 1.
 * The arena draws the action it plays (and tells you in the event that follows), so it knows
 * your strategy exactly: an estimate can then take the luck of your coin flips out of the
 * result (BENCHMARKS.md, section 6), and nobody, you included, can predict the draw.
 */
function mix(weighted) {
  return { mix: weighted.map(([answer, p]) => ({ ...answer, p })) };
}

/** The key that tells two answers apart: the action and its amount or card. */
function answerKey(answer) {
  return JSON.stringify([answer.action, answer.amount, answer.card]);
}

/**
 * Whether `answer` ({action, amount?, card?}, or a mix) is allowed by the request's legal set.
 * A mix is allowed when every entry is, no action is in it twice, and the probabilities (each
 * from 0 to 1) add up to 1.
 */
function isLegal(request, answer) {
  if (answer && answer.mix !== undefined) {
    const entries = answer.mix;
    if (answer.action !== undefined || !Array.isArray(entries)) return false;
    if (entries.length === 0 || entries.length > 1024) return false;
    const seen = new Set();
    let total = 0;
    for (const e of entries) {
      if (!e || typeof e.p !== 'number' || !(e.p >= 0 && e.p <= 1)) return false;
      const { p, ...plain } = e;
      if (seen.has(answerKey(plain)) || !isLegal(request, plain)) return false;
      seen.add(answerKey(plain));
      total += p;
    }
    return Math.abs(total - 1) <= 1e-6;
  }
  if (!answer || typeof answer.action !== 'string') return false;
  const e = entry(request, answer.action);
  if (!e) return false;
  if (e.action === 'bet') {
    const a = answer.amount;
    return Number.isInteger(a) && a >= e.min && a <= e.max && a % (e.multiple_of || 1) === 0;
  }
  if (e.action === 'swap') return (e.cards || []).includes(answer.card);
  return true;
}

// ---- The state of the match and of the hand -----------------------------------------------

/** One seat's public state in the current hand. */
class Player {
  constructor(seen) {
    this.inHand = true; // not packed, not dead
    this.seen = seen; //   classic: has looked at its cards (always true in the other games)
    this.dead = false; //  lallan-kallan: a one-colour hand, out of the hand
    this.putIn = 0; //     chips put in the pot this hand, boot included
    this.turns = 0; //     betting turns completed
    this.swaps = 0; //     closest-555: cards swapped
  }
}

/**
 * What the bot knows. From hello: game, settings, seat, seats, hands, firstHand, seed, names.
 * For the current hand (reset at hand_started): hand, dealer, pot, stake, boot, myCards (null
 * while blind), players (Player per seat), known (seat -> cards revealed to you),
 * sideshowAsker (who asked you for a sideshow). Over the match: total (your net chips).
 * Note: `seed` is a JavaScript number, so a seed above 2^53 loses its last digits; it is
 * still the same number on every run, which is what reproducible randomness needs.
 */
class State {
  constructor(hello) {
    this.hello = hello;
    this.game = hello.game;
    this.settings = hello.settings || {};
    this.seat = hello.seat || 0;
    this.seats = hello.seats || 2;
    this.hands = hello.hands || 0;
    this.firstHand = hello.first_hand || 0;
    this.seed = hello.seed || 0;
    this.names = hello.players || [];
    this.total = 0;
    this.newHand(null);
  }

  newHand(hand) {
    this.hand = hand;
    this.dealer = null;
    this.pot = 0;
    this.stake = 0;
    this.boot = this.settings.boot || 1;
    this.myCards = null;
    this.players = [];
    for (let s = 0; s < this.seats; s++) this.players.push(new Player(this.game !== 'classic'));
    this.known = {};
    this.sideshowAsker = null;
  }

  /** Seats other than yours still in the hand. */
  opponentsInHand() {
    const out = [];
    this.players.forEach((p, s) => {
      if (p.inHand && s !== this.seat) out.push(s);
    });
    return out;
  }

  player(seat) {
    while (this.players.length <= seat) this.players.push(new Player(true));
    return this.players[seat];
  }

  /** Follows one event. Unknown event kinds are ignored. */
  applyEvent(m) {
    switch (m.event) {
      case 'hand_started':
        this.newHand(m.hand);
        this.dealer = m.dealer;
        this.pot = m.pot;
        this.stake = m.stake;
        this.boot = m.boot;
        for (const p of this.players) p.putIn = m.boot;
        break;
      case 'dealt':
        if (m.seat === this.seat && m.cards) this.myCards = m.cards;
        break;
      case 'dead':
        for (const s of m.seats || []) Object.assign(this.player(s), { dead: true, inHand: false });
        break;
      case 'redeal':
        this.pot = m.pot;
        this.myCards = null;
        for (const p of this.players) Object.assign(p, { dead: false, inHand: true });
        break;
      case 'saw':
        this.player(m.seat).seen = true;
        if (m.seat === this.seat && m.cards) this.myCards = m.cards;
        break;
      case 'swapped': {
        const p = this.player(m.seat);
        p.swaps += 1;
        p.putIn += m.cost || 0;
        this.pot += m.cost || 0;
        delete this.known[m.seat]; // their cards changed
        if (m.seat === this.seat && m.discarded && this.myCards) {
          this.myCards = this.myCards.map((c) => (c === m.discarded ? m.drawn : c));
        }
        break;
      }
      case 'bet': {
        const p = this.player(m.seat);
        p.putIn += m.amount;
        p.turns += 1;
        this.stake = m.stake;
        this.pot = m.pot;
        break;
      }
      case 'packed':
        this.player(m.seat).inHand = false;
        break;
      case 'show_asked':
      case 'sideshow_asked':
        this.player(m.seat).putIn += m.cost || 0;
        this.pot = m.pot;
        if (m.event === 'sideshow_asked') this.sideshowAsker = m.seat;
        break;
      case 'sideshow_compared':
        if (m.seat_cards && m.seat !== this.seat) this.known[m.seat] = m.seat_cards;
        if (m.target_cards && m.target !== this.seat) this.known[m.target] = m.target_cards;
        break;
      case 'revealed':
        for (const h of m.hands || []) if (h.seat !== this.seat) this.known[h.seat] = h.cards;
        break;
      case 'hand_ended':
        if (Array.isArray(m.payoffs) && this.seat < m.payoffs.length) {
          this.total += m.payoffs[this.seat];
        }
        break;
      default:
        break; // a kind this helper does not know: newer arenas may add some
    }
  }

  /** A request repeats the public state: take it over (it is authoritative). */
  applyRequest(r) {
    this.hand = r.hand;
    this.pot = r.pot;
    this.stake = r.stake;
    if (r.cards) this.myCards = r.cards;
    // A sideshow_reply request names the asker (the sideshow_asked event did too).
    if (Number.isInteger(r.sideshow_from)) this.sideshowAsker = r.sideshow_from;
    const fields = { in_hand: 'inHand', seen: 'seen', dead: 'dead', put_in: 'putIn',
      turns: 'turns', swaps: 'swaps' };
    (r.players || []).forEach((view, seat) => {
      const p = this.player(seat);
      for (const [wire, mine] of Object.entries(fields)) {
        if (view[wire] !== undefined) p[mine] = view[wire];
      }
    });
    this.known = {};
    for (const [seat, cards] of Object.entries(r.known || {})) this.known[Number(seat)] = cards;
  }
}

// ---- The main loop ------------------------------------------------------------------------

/**
 * Plays a whole match on stdin/stdout.
 *   decide(request, state) -> {action, amount?, card?}: called for every request (no id:
 *     the helper adds it).
 *   options: name (required), version, and optional callbacks onHello(state),
 *     onEvent(message, state), onFault(message, state), onMatchEnd(message, state).
 * Run the bot with `--debug` to copy every line received and sent to stderr.
 */
function run(decide, options = {}) {
  const name = options.name || 'js-bot';
  const version = options.version || '1.0';
  const debug = options.debug || process.argv.includes('--debug');
  let state = null;
  const send = (message) => {
    const line = JSON.stringify(message);
    if (debug) log('[send]', line);
    // Writes to a pipe are synchronous in Node on Linux: the line leaves at once, no flush.
    process.stdout.write(line + '\n');
  };
  // stdout is the protocol: a stray console.log() would be read as an answer. Send it to
  // the log instead.
  console.log = console.error;

  const input = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  input.on('line', (line) => {
    if (debug) log('[recv]', line);
    let m;
    try {
      m = JSON.parse(line);
    } catch (error) {
      log('[teenpatti] ignoring a line that is not JSON:', line.slice(0, 200));
      return;
    }
    if (m === null || typeof m !== 'object') return;

    switch (m.type) {
      case 'hello':
        state = new State(m);
        guarded('onHello', () => options.onHello && options.onHello(state));
        send({ type: 'hello', name, version, protocol: PROTOCOL_VERSION });
        log(`[teenpatti] ${name}: seat ${state.seat} of ${state.seats}, ${state.game}, ` +
            `hands ${state.firstHand}..${state.hands}`);
        break;
      case 'event':
        if (!state) return;
        guarded('the state', () => state.applyEvent(m));
        guarded('onEvent', () => options.onEvent && options.onEvent(m, state));
        break;
      case 'request': {
        if (!state) state = new State({});
        const answer = decideSafely(decide, m, state);
        send({ ...answer, id: m.id }); // the answer carries the request's id
        break;
      }
      case 'fault':
        log(`[teenpatti] FAULT ${m.fault} on request ${m.id}: ${m.detail} ` +
            `(applied ${JSON.stringify(m.applied)})`);
        guarded('onFault', () => options.onFault && state && options.onFault(m, state));
        break;
      case 'match_end':
        log(`[teenpatti] match over after ${m.hands} hands; totals ${JSON.stringify(m.totals)}`);
        guarded('onMatchEnd', () => options.onMatchEnd && state && options.onMatchEnd(m, state));
        process.exit(0);
        break;
      default:
        break; // a message type this helper does not know: ignore it
    }
  });
  input.on('close', () => process.exit(0)); // stdin closed: the match is over for us
}

/** Runs fn, logging (not throwing) what it throws: a bug in a callback must not end the bot. */
function guarded(what, fn) {
  try {
    fn();
  } catch (error) {
    log(`[teenpatti] ${what} threw:`, error);
  }
}

function decideSafely(decide, request, state) {
  let answer;
  try {
    state.applyRequest(request);
    answer = decide(request, state);
  } catch (error) {
    log('[teenpatti] decide() threw; sending the safe answer instead:', error);
    return safeAnswer(request);
  }
  if (!isLegal(request, answer)) {
    log(`[teenpatti] decide() returned ${JSON.stringify(answer)}, not legal here ` +
        `(legal: ${JSON.stringify(request.legal)}); sending the safe answer instead`);
    return safeAnswer(request);
  }
  return answer;
}

module.exports = {
  PROTOCOL_VERSION, log, entry, can, minBet, maxBet, bet, mix, safeAnswer, isLegal, State, Player,
  run,
};
