// The replay viewer: reads the replay records embedded in the page (a JSON array of the
// replay file's lines) and draws the match one event at a time.
//
// Integers beyond 2^53 (64-bit seeds, chip totals) are parsed as BigInts (exact_json.js) and
// chip arithmetic goes through ArenaJson.add/sub/neg, so every number is shown exactly.
//
// Hands and seats are numbered from 1 wherever a person reads them (the records count from
// 0; the page's data- attributes keep the records' numbers).
//
// A hand opens on its deal (the step after the last card is dealt), not on its empty first
// step: the page opens there, and so do the hand list, the hand number box and the hand
// buttons. Home still goes to the hand's very first step.
//
// Model: the match is split into hands; each hand is a list of steps (engine events, faults,
// bot restarts). The state shown at a step is computed by applying the hand's steps from its
// start (every state of the current hand is computed once and cached). What a seat may see is
// tracked in `known[viewer][seat]`: the cards `viewer` knows of `seat` at that moment.
//
// The event step that follows an `action` record carries it as `decision`: the step shows the
// deciding bot's time and bank and, with the Logs toggle on, the stderr lines the replay kept
// for that decision (`arena match --logs`); a seat's view shows only that seat's lines.
(function () {
  'use strict';

  const SUIT_SYMBOLS = { c: '\u2663', d: '\u2666', h: '\u2665', s: '\u2660' };
  const RED_SUITS = { d: true, h: true };
  const RANK_LABELS = { T: '10' };
  const END_REASONS = {
    last_standing: 'everyone else packed',
    lone_survivor: 'the only live hand',
    show: 'show',
    pot_limit: 'pot limit reached',
    turn_cap: 'turn cap reached',
    redeal_cap: 'every hand dead: pot shared back',
  };
  const REVEAL_REASONS = { show: 'Show', pot_limit: 'Pot limit: every hand shown', turn_cap: 'Turn cap: every hand shown' };
  const ALL = 'all';
  const LOGS_KEY = 'arena-replay-logs'; // localStorage: the Logs toggle, remembered
  const { add, sub, neg } = window.ArenaJson;

  // ---------------------------------------------------------------- small helpers

  function $(id) {
    return document.getElementById(id);
  }

  function el(tag, attrs, children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (key === 'class') node.className = value;
      else if (key === 'text') node.textContent = value;
      else node.setAttribute(key, value === true ? '' : String(value));
    }
    for (const child of children || []) {
      node.append(child);
    }
    return node;
  }

  function signed(n) {
    return n > 0 ? '+' + n : String(n);
  }

  function signClass(n) {
    return n > 0 ? 'pos' : n < 0 ? 'neg' : '';
  }

  function emptyMatrix(n) {
    return Array.from({ length: n }, () => Array(n).fill(null));
  }

  function clone(value) {
    return structuredClone(value); // keeps BigInts, unlike a JSON round trip
  }

  // A hand's number as people read it: from 1.
  function handLabel(number) {
    return String(add(number, 1));
  }

  // A seat's number as people read it: from 1.
  function seatLabel(seat) {
    return String(seat + 1);
  }

  // ---------------------------------------------------------------- the match model

  // The page's data: the records inline, or (in a report's replay pages, which share this
  // script) the replay file's lines gzipped and base64-encoded, inflated here. A page opened
  // from file:// may not fetch() a file beside it, so the data is always in the page.
  async function readData() {
    const data = window.ArenaJson.parse($('replay-data').textContent);
    // The live view (`--watch`) gets its records from the server as they are played.
    if (data.live) return data;
    if (!data.records && typeof data.replay_gzip_base64 === 'string') {
      data.records = await inflateLines(data.replay_gzip_base64);
    }
    if (!Array.isArray(data.records)) throw new Error('the page holds no replay records');
    return data;
  }

  async function inflateLines(base64) {
    const binary = atob(base64);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
    const text = await new Response(stream).text();
    return text
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => window.ArenaJson.parse(line));
  }

  function newHand(number) {
    return { number, dealer: 0, steps: [], end: null };
  }

  // Splits the records into hands of steps; totals and counts before each hand.
  function buildMatch(records) {
    const header = records.find((r) => r.type === 'header');
    if (!header) throw new Error('this replay has no header record');
    const match = {
      header,
      names: header.bots.map((b) => b.name),
      seatCount: header.bots.length,
      variant: header.settings.variant,
      blindStart: header.settings.variant === 'classic',
      hands: [],
      result: null,
      // Some decision has stderr lines: the Logs toggle is offered.
      hasLogs: records.some((r) => r.type === 'action' && (Array.isArray(r.stderr_lines) || r.stderr_dropped > 0)),
    };
    collectSteps(match, records);
    addRunningCounts(match);
    return match;
  }

  function collectSteps(match, records) {
    const byNumber = new Map();
    let pending = []; // faults and bot notes that came before their hand started
    let arenaChose = false;
    let decision = null; // the action record whose events come next
    const handFor = (number) => {
      let hand = byNumber.get(number);
      if (!hand) {
        hand = newHand(number);
        byNumber.set(number, hand);
        match.hands.push(hand);
      }
      return hand;
    };
    const addNote = (number, step) => {
      const hand = byNumber.get(number);
      if (hand && hand.steps.length > 0) hand.steps.push(step);
      else pending.push(step);
    };
    for (const rec of records) {
      if (rec.type === 'event') {
        const hand = handFor(rec.hand);
        hand.steps.push({ kind: 'event', rec, byArena: arenaChose, decision });
        arenaChose = false;
        decision = null;
        if (rec.event === 'hand_started') {
          hand.dealer = rec.dealer;
          hand.steps.push(...pending);
          pending = [];
        } else if (rec.event === 'hand_ended') {
          hand.end = rec;
        }
      } else if (rec.type === 'action') {
        arenaChose = rec.source === 'arena';
        decision = rec;
      } else if (rec.type === 'fault') {
        addNote(rec.hand, { kind: 'fault', rec });
      } else if (rec.type === 'bot' && (rec.status === 'restarted' || rec.status === 'disabled')) {
        addNote(rec.hand === undefined ? -1 : rec.hand, { kind: 'bot', rec });
      } else if (rec.type === 'result') {
        match.result = rec;
      }
    }
    if (pending.length > 0 && match.hands.length > 0) {
      match.hands[match.hands.length - 1].steps.push(...pending);
    }
  }

  // For every hand: each seat's net chips, hands won and faults before it (and after the last).
  function addRunningCounts(match) {
    const n = match.seatCount;
    let totals = Array(n).fill(0);
    let won = Array(n).fill(0);
    let faults = Array(n).fill(0);
    for (const hand of match.hands) {
      hand.totalsBefore = totals.slice();
      hand.wonBefore = won.slice();
      hand.faultsBefore = faults.slice();
      if (hand.end) {
        totals = totals.map((t, i) => add(t, hand.end.payoffs[i] || 0));
        for (const w of hand.end.winners) won[w] += 1;
      }
      for (const step of hand.steps) {
        if (step.kind === 'fault') faults[step.rec.seat] += 1;
      }
    }
    match.finalTotals = totals;
  }

  // ---------------------------------------------------------------- state of a hand

  function freshState(match, hand) {
    const seats = [];
    for (let i = 0; i < match.seatCount; i++) {
      seats.push({
        cards: null,
        swappedIn: [],
        wild: null,
        status: 'in',
        seen: !match.blindStart,
        put: 0,
        swaps: 0,
        action: '',
        value: null,
        winner: false,
        faults: 0,
      });
    }
    return {
      dealer: hand.dealer,
      pot: 0,
      stake: 0,
      seats,
      known: emptyMatrix(match.seatCount),
      active: null,
      ended: false,
      payoffs: null,
      blindStart: match.blindStart,
    };
  }

  function learn(state, viewer, seat, cards) {
    state.known[viewer][seat] = cards ? cards.slice() : null;
  }

  function learnAll(state, seat, cards) {
    for (let v = 0; v < state.seats.length; v++) learn(state, v, seat, cards);
  }

  // One function per engine event: how it changes the table.
  const APPLY = {
    hand_started(s, e) {
      s.dealer = e.dealer;
      s.pot = e.pot;
      s.stake = e.stake;
      for (const seat of s.seats) seat.put = e.boot;
    },
    dealt(s, e) {
      const seat = s.seats[e.seat];
      seat.cards = e.cards ? e.cards.slice() : null;
      seat.swappedIn = [];
      seat.wild = e.wild || null; // Lallan Kallan: the odd colour, named by the arena
      if (!s.blindStart) learn(s, e.seat, e.seat, e.cards);
    },
    dead(s, e) {
      for (const i of e.seats) {
        s.seats[i].status = 'dead';
        s.seats[i].action = 'dead hand';
      }
    },
    redeal(s, e) {
      s.pot = e.pot;
      s.known = emptyMatrix(s.seats.length);
      for (const seat of s.seats) {
        Object.assign(seat, { cards: null, swappedIn: [], wild: null, status: 'in', action: 'redeal', value: null });
      }
    },
    saw(s, e) {
      const seat = s.seats[e.seat];
      seat.seen = true;
      seat.action = 'sees';
      learn(s, e.seat, e.seat, e.cards || seat.cards);
    },
    swapped(s, e) {
      const seat = s.seats[e.seat];
      if (seat.cards && e.discarded) {
        const at = seat.cards.indexOf(e.discarded);
        if (at >= 0) seat.cards[at] = e.drawn;
        seat.swappedIn.push(e.drawn);
      }
      seat.swaps += 1;
      seat.put = add(seat.put, e.cost);
      s.pot = add(s.pot, e.cost);
      seat.action = 'swaps a card';
      // Others who knew the old hand no longer know which card changed.
      for (let v = 0; v < s.seats.length; v++) {
        learn(s, v, e.seat, v === e.seat ? seat.cards : null);
      }
    },
    kept(s, e) {
      s.seats[e.seat].action = 'keeps';
    },
    bet(s, e) {
      const seat = s.seats[e.seat];
      seat.put = add(seat.put, e.amount);
      s.pot = e.pot;
      s.stake = e.stake;
      seat.action = 'bets ' + e.amount + (e.blind ? ' blind' : '');
    },
    packed(s, e) {
      const seat = s.seats[e.seat];
      seat.status = e.reason === 'dead' ? 'dead' : 'packed';
      seat.action = e.reason === 'lost_sideshow' ? 'lost the sideshow' : 'packs';
    },
    show_asked(s, e) {
      s.seats[e.seat].put = add(s.seats[e.seat].put, e.cost);
      s.pot = e.pot;
      s.seats[e.seat].action = 'asks for a show';
    },
    sideshow_asked(s, e) {
      s.seats[e.seat].put = add(s.seats[e.seat].put, e.cost);
      s.pot = e.pot;
      s.seats[e.seat].action = 'asks for a sideshow';
    },
    sideshow_refused(s, e) {
      s.seats[e.target].action = 'refuses the sideshow';
    },
    sideshow_compared(s, e) {
      learn(s, e.seat, e.target, e.target_cards);
      learn(s, e.target, e.seat, e.seat_cards);
      s.seats[e.target].action = 'accepts the sideshow';
      // Shown only to whoever knows these cards (see renderSeat).
      if (e.seat_value) s.seats[e.seat].value = e.seat_value;
      if (e.target_value) s.seats[e.target].value = e.target_value;
    },
    revealed(s, e) {
      for (const h of e.hands) {
        learnAll(s, h.seat, h.cards);
        s.seats[h.seat].value = h.value;
      }
    },
    hand_ended(s, e) {
      s.ended = true;
      s.pot = e.pot;
      s.payoffs = e.payoffs.slice();
      for (const w of e.winners) s.seats[w].winner = true;
    },
  };

  // The seat an event or note is about (highlighted on the table).
  function stepSeat(step) {
    const r = step.rec;
    if (step.kind !== 'event') return r.seat;
    if (r.event === 'sideshow_refused' || r.event === 'sideshow_compared') return r.target;
    return typeof r.seat === 'number' ? r.seat : null;
  }

  function applyStep(state, step) {
    state.active = stepSeat(step);
    if (step.kind === 'fault') {
      state.seats[step.rec.seat].faults += 1;
      return;
    }
    if (step.kind !== 'event') return;
    const apply = APPLY[step.rec.event];
    if (apply) apply(state, step.rec);
  }

  // Every state of a hand: states[i] is the table after steps 0..=i.
  function computeStates(match, hand) {
    const state = freshState(match, hand);
    return hand.steps.map((step) => {
      applyStep(state, step);
      return clone(state);
    });
  }

  // ---------------------------------------------------------------- describing steps

  // A step as parts: strings, {seat}, {cards}, {value}; `viewer` is ALL or a seat number.
  function describe(step, viewer, match) {
    if (step.kind === 'fault') return describeFault(step.rec);
    if (step.kind === 'bot') return describeBot(step.rec);
    const e = step.rec;
    const describeEvent = DESCRIBE[e.event];
    const parts = describeEvent ? describeEvent(e, canSee(viewer), match) : [e.event];
    return { kind: e.event, parts, cls: e.event === 'hand_ended' ? 'end' : '' };
  }

  function canSee(viewer) {
    return (...seats) => viewer === ALL || seats.includes(viewer);
  }

  function describeFault(r) {
    const parts = ['Fault (' + r.fault.replace(/_/g, ' ') + ') by ', { seat: r.seat }, ': ' + r.detail];
    if (r.line) parts.push(' \u2014 sent: ' + r.line);
    if (r.stderr) parts.push({ stderr: r.stderr });
    return { kind: 'fault', parts, cls: 'fault' };
  }

  function describeBot(r) {
    const what = r.status === 'restarted' ? ' was restarted' : ' is disabled (out of restarts): it packs every hand';
    const parts = [{ seat: r.seat }, what];
    if (r.exit) parts.push(' (' + r.exit + ')');
    return { kind: 'bot', parts, cls: 'fault' };
  }

  const DESCRIBE = {
    hand_started: (e) => ['Hand starts: dealer ', { seat: e.dealer }, ', boot ' + e.boot + ', pot ' + e.pot],
    dealt: (e, see, m) =>
      e.cards && see(e.seat) && (!m.blindStart || see())
        ? [{ seat: e.seat }, ' is dealt ', { cards: e.cards, wild: e.wild }].concat(e.wild ? [' (wild ', { cards: [e.wild], wild: e.wild }, ')'] : [])
        : [{ seat: e.seat }, ' is dealt three cards'],
    dead: (e) => ['Dead hands (one colour): '].concat(seatList(e.seats)),
    redeal: (e) => ['Every hand is dead: redeal ' + e.redeal + ' (pot ' + e.pot + ' carried)'],
    saw: (e, see) => (e.cards && see(e.seat) ? [{ seat: e.seat }, ' sees ', { cards: e.cards, wild: e.wild }] : [{ seat: e.seat }, ' sees']),
    swapped: (e, see) => {
      const cost = e.cost > 0 ? ' (pays ' + e.cost + ')' : '';
      return e.discarded && see(e.seat)
        ? [{ seat: e.seat }, ' swaps ', { cards: [e.discarded] }, ' for ', { cards: [e.drawn] }, cost]
        : [{ seat: e.seat }, ' swaps a card' + cost];
    },
    kept: (e) => [{ seat: e.seat }, ' keeps its cards'],
    bet: (e) => [{ seat: e.seat }, ' bets ' + e.amount + (e.blind ? ' blind' : '') + ' (stake ' + e.stake + ', pot ' + e.pot + ')'],
    packed: (e) => [{ seat: e.seat }, e.reason === 'lost_sideshow' ? ' packs (lost the sideshow)' : e.reason === 'dead' ? ' is out (dead hand)' : ' packs'],
    show_asked: (e) => [{ seat: e.seat }, ' pays ' + e.cost + ' for a show against ', { seat: e.against }],
    sideshow_asked: (e) => [{ seat: e.seat }, ' pays ' + e.cost + ' and asks ', { seat: e.target }, ' for a sideshow'],
    sideshow_refused: (e) => [{ seat: e.target }, ' refuses the sideshow of ', { seat: e.seat }],
    sideshow_compared: (e, see) =>
      e.seat_cards && see(e.seat, e.target)
        ? ['Sideshow: ', { seat: e.seat }, ' ', { cards: e.seat_cards, wild: wildOf(e.seat_value) }].concat(
            e.seat_value ? [' = ', { value: e.seat_value }] : [],
            [' vs ', { seat: e.target }, ' ', { cards: e.target_cards, wild: wildOf(e.target_value) }],
            e.target_value ? [' = ', { value: e.target_value }] : [],
            ['; ', { seat: e.loser }, ' loses'],
          )
        : ['Sideshow accepted (cards seen by ', { seat: e.seat }, ' and ', { seat: e.target }, ' only): ', { seat: e.loser }, ' loses'],
    revealed: (e) => {
      const parts = [(REVEAL_REASONS[e.reason] || 'Revealed') + ': '];
      e.hands.forEach((h, i) => {
        if (i > 0) parts.push('; ');
        parts.push({ seat: h.seat }, ' ', { cards: h.cards, wild: wildOf(h.value) }, ' = ', { value: h.value });
      });
      return parts;
    },
    hand_ended: (e) => {
      const parts = seatList(e.winners);
      parts.push((e.winners.length > 1 ? ' share' : ' takes') + ' the pot of ' + e.pot + ' (' + (END_REASONS[e.reason] || e.reason) + '); net: ');
      e.payoffs.forEach((p, seat) => {
        if (seat > 0) parts.push(', ');
        parts.push({ name: seat }, ' ' + signed(p));
      });
      return parts;
    },
  };

  // The wild card named in a hand's value (Lallan Kallan), if any.
  function wildOf(value) {
    return value && value.wild ? value.wild : null;
  }

  function seatList(seats) {
    const parts = [];
    seats.forEach((s, i) => {
      if (i > 0) parts.push(i === seats.length - 1 ? ' and ' : ', ');
      parts.push({ seat: s });
    });
    return parts;
  }

  function describeValue(value) {
    if (!value) return '';
    if (value.kind === 'ranked') {
      let text = value.category.replace(/_/g, ' ');
      if (value.wild) text += ' (wild ' + cardText(value.wild) + ')';
      return text;
    }
    if (value.kind === 'closest555') return String(value.number).padStart(3, '0') + ' (distance ' + value.distance + ')';
    if (value.kind === 'dead') return 'dead';
    return JSON.stringify(value);
  }

  // ---------------------------------------------------------------- drawing cards and text

  function cardText(card) {
    return (RANK_LABELS[card[0]] || card[0]) + SUIT_SYMBOLS[card[1]];
  }

  function cardFace(card, swapped, wild) {
    const cls = 'card' + (RED_SUITS[card[1]] ? ' red' : '') + (swapped ? ' swapped' : '') + (wild ? ' wild' : '');
    return el('div', { class: cls, 'data-testid': 'card', 'data-card': card, 'data-face': 'up', 'data-wild': wild ? 'true' : null, title: wild ? card + ': wild card' : card }, [
      el('span', { class: 'rank', text: RANK_LABELS[card[0]] || card[0] }),
      el('span', { class: 'suit', text: SUIT_SYMBOLS[card[1]] }),
    ]);
  }

  function cardBack() {
    return el('div', { class: 'card back', 'data-testid': 'card', 'data-face': 'down', title: 'face down' });
  }

  function inlineCards(cards, wild) {
    const span = el('span', { class: 'cards-inline' });
    cards.forEach((card, i) => {
      if (i > 0) span.append(' ');
      const isWild = wild && card === wild;
      span.append(el('span', { class: 'c' + (RED_SUITS[card[1]] ? ' red' : '') + (isWild ? ' wild' : ''), 'data-wild': isWild ? 'true' : null, title: isWild ? 'wild card' : null, text: cardText(card) }));
    });
    return span;
  }

  function renderParts(node, parts, match) {
    for (const part of parts) {
      if (typeof part === 'string') node.append(part);
      else if ('seat' in part) node.append(el('span', { class: 'who', text: match.names[part.seat] + ' [' + seatLabel(part.seat) + ']' }));
      else if ('name' in part) node.append(el('span', { class: 'who', text: match.names[part.name] }));
      else if ('cards' in part) node.append(inlineCards(part.cards, part.wild));
      else if ('value' in part) node.append(describeValue(part.value));
      else if ('stderr' in part) node.append(stderrBlock(part.stderr));
    }
    return node;
  }

  // The last lines of a failed bot's stderr (a fault record's `stderr`), folded.
  function stderrBlock(text) {
    return el('details', { class: 'stderr', 'data-testid': 'fault-stderr' }, [
      el('summary', { text: 'its last stderr lines' }),
      el('pre', { text }),
    ]);
  }

  // 1234567 -> "1,234,567".
  function grouped(n) {
    return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  }

  // "random-bot: 12 ms, bank 9,988 ms" for the step of a bot's decision, else ''.
  function decisionTime(step, match) {
    const d = step.decision;
    if (!d || d.source !== 'bot' || d.elapsed_ms === undefined) return '';
    let text = match.names[d.seat] + ': ' + grouped(d.elapsed_ms) + ' ms';
    if (d.bank_ms !== undefined) text += ', bank ' + grouped(d.bank_ms) + ' ms';
    return text;
  }

  // The deciding bot's stderr lines of a step, if kept and `viewer` may read them.
  function decisionLines(step, viewer) {
    const d = step.decision;
    if (!d || (viewer !== ALL && viewer !== d.seat)) return null;
    const lines = Array.isArray(d.stderr_lines) ? d.stderr_lines.slice() : [];
    if (d.stderr_dropped > 0) lines.push('[' + d.stderr_dropped + ' more lines not kept]');
    return lines.length > 0 ? lines : null;
  }

  // ---------------------------------------------------------------- the viewer

  function Viewer(data) {
    this.data = data;
    this.match = buildMatch(data.records);
    this.hi = 0; // index into match.hands
    this.si = 0; // step index in the hand
    this.view = ALL;
    this.timer = null;
    this.cache = { hi: -1, states: [] };
    this.logKey = '';
    this.logHand = null; // the hand object the log was built from, and its step count
    this.logSteps = 0;
    this.scrollPending = false;
    this.typed = null; // a seat number being typed (see digitKey)
    this.showLogs = readLogsChoice();
  }

  function readLogsChoice() {
    try {
      return window.localStorage.getItem(LOGS_KEY) === 'on';
    } catch (_) {
      return false; // storage refused (a sandboxed frame): off, as by default
    }
  }

  Viewer.prototype.setShowLogs = function (on) {
    this.showLogs = Boolean(on);
    try {
      window.localStorage.setItem(LOGS_KEY, this.showLogs ? 'on' : 'off');
    } catch (_) {
      // Not remembered; still applied.
    }
    this.render();
  };

  Viewer.prototype.hand = function () {
    return this.match.hands[this.hi];
  };

  Viewer.prototype.states = function () {
    if (this.cache.hi !== this.hi) {
      this.cache = { hi: this.hi, states: computeStates(this.match, this.hand()) };
    }
    return this.cache.states;
  };

  Viewer.prototype.state = function () {
    return this.states()[this.si];
  };

  // ---- navigation

  // `si`: a step index, 'end' (the hand's last step) or 'deal' (see dealStep).
  Viewer.prototype.go = function (hi, si) {
    const hands = this.match.hands;
    if (hands.length === 0) return;
    this.hi = Math.max(0, Math.min(hands.length - 1, hi));
    const hand = hands[this.hi];
    const last = hand.steps.length - 1;
    if (si === 'end') this.si = last;
    else if (si === 'deal') this.si = dealStep(hand);
    else this.si = Math.max(0, Math.min(last, si));
    this.render();
  };

  // The step a hand opens on: its first deal's last card dealt, so that every seat has its
  // cards on the table (the steps before are the hand's start and the notes that came with
  // it). The first step if the hand has no deal (yet, in the live view).
  function dealStep(hand) {
    const steps = hand.steps;
    const isDeal = (i) => steps[i].kind === 'event' && steps[i].rec.event === 'dealt';
    let i = steps.findIndex((step, k) => isDeal(k));
    if (i < 0) return 0;
    while (i + 1 < steps.length && isDeal(i + 1)) i += 1;
    return i;
  }

  Viewer.prototype.atEnd = function () {
    return this.hi === this.match.hands.length - 1 && this.si === this.hand().steps.length - 1;
  };

  Viewer.prototype.stepNext = function () {
    if (this.si < this.hand().steps.length - 1) this.go(this.hi, this.si + 1);
    else if (this.hi < this.match.hands.length - 1) this.go(this.hi + 1, 0);
    else return false;
    return true;
  };

  Viewer.prototype.stepPrev = function () {
    if (this.si > 0) this.go(this.hi, this.si - 1);
    else if (this.hi > 0) this.go(this.hi - 1, 'end');
  };

  Viewer.prototype.handNext = function () {
    if (this.hi < this.match.hands.length - 1) this.go(this.hi + 1, 'deal');
    else this.go(this.hi, 'end');
  };

  Viewer.prototype.handPrev = function () {
    this.go(this.hi - 1, 'deal'); // the first hand: back to its deal
  };

  // `label`: a hand's number as shown (from 1), as text.
  Viewer.prototype.jumpToHand = function (label) {
    const wanted = String(label).trim();
    const index = this.match.hands.findIndex((h) => handLabel(h.number) === wanted);
    if (index >= 0) this.go(index, 'deal');
    return index >= 0;
  };

  // The next (step 1) or previous (-1) view: all cards, the first seat, the second, ...,
  // all cards.
  Viewer.prototype.cycleView = function (step) {
    const n = this.match.seatCount;
    const position = this.view === ALL ? n : this.view; // all cards sits after the last seat
    const next = (((position + step) % (n + 1)) + n + 1) % (n + 1);
    this.setView(next === n ? ALL : next);
  };

  Viewer.prototype.setView = function (view) {
    this.view = view === ALL || view === null ? ALL : Math.max(0, Math.min(this.match.seatCount - 1, view));
    this.render();
  };

  // ---- autoplay

  Viewer.prototype.playing = function () {
    return this.timer !== null;
  };

  Viewer.prototype.play = function () {
    if (this.playing()) return;
    if (this.atEnd()) this.go(0, 0);
    const delay = Number($('speed').value) || 1000;
    this.timer = setInterval(() => {
      if (!this.stepNext()) this.pause();
    }, delay);
    this.renderPlayButton();
  };

  Viewer.prototype.pause = function () {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    this.renderPlayButton();
  };

  Viewer.prototype.togglePlay = function () {
    if (this.playing()) this.pause();
    else this.play();
  };

  Viewer.prototype.restartTimer = function () {
    if (this.playing()) {
      this.pause();
      this.play();
    }
  };

  // ---- drawing

  Viewer.prototype.render = function () {
    if (this.match.hands.length === 0) return;
    const state = this.state();
    this.renderHeaderLine();
    this.renderCenter(state);
    this.renderSeats(state);
    this.renderScoreboard(state);
    this.renderLog();
    this.renderControls();
    this.renderResult();
  };

  Viewer.prototype.renderHeaderLine = function () {
    const hand = this.hand();
    const label = $('hand-number');
    label.textContent = 'Hand ' + handLabel(hand.number);
    label.dataset.hand = String(hand.number); // the replay's hand index, from 0
    $('step-counter').textContent =
      'step ' + (this.si + 1) + ' / ' + hand.steps.length + ' \u00b7 hand ' + (this.hi + 1) + ' of ' + this.match.hands.length;
  };

  Viewer.prototype.renderCenter = function (state) {
    $('pot').textContent = String(state.pot);
    $('stake').textContent = String(state.stake);
    const step = this.hand().steps[this.si];
    const text = describe(step, this.view, this.match);
    const box = $('last-event');
    box.replaceChildren();
    renderParts(box, text.parts, this.match);
    box.className = 'last-event' + (text.cls === 'fault' ? ' fault' : '');
    box.dataset.kind = text.kind;
    $('decision-time').textContent = decisionTime(step, this.match);
  };

  Viewer.prototype.buildSeats = function () {
    const container = $('seats');
    container.replaceChildren();
    const n = this.match.seatCount;
    $('table').classList.toggle('seats-many', n > 6 && n <= 10);
    $('table').classList.toggle('seats-crowd', n > 10);
    this.seatNodes = [];
    for (let i = 0; i < n; i++) {
      const node = el('div', { class: 'seat', 'data-testid': 'seat-' + i, 'data-seat': i }, [
        el('div', { class: 'seat-head' }, [
          el('span', { class: 'seat-tag', text: seatLabel(i) }),
          el('span', { class: 'seat-name', 'data-testid': 'seat-name', text: this.match.names[i], title: this.match.names[i] }),
          el('span', { class: 'dealer-button', 'data-testid': 'dealer-button', title: 'dealer', text: 'D', hidden: true }),
        ]),
        el('div', { class: 'cards', 'data-testid': 'seat-cards' }),
        el('div', { class: 'seat-value', 'data-testid': 'seat-value' }),
        el('div', { class: 'seat-info' }, [
          el('span', { class: 'badge', 'data-testid': 'seat-state' }),
          el('span', { class: 'seat-swaps', 'data-testid': 'seat-swaps' }),
          el('span', { class: 'chips', 'data-testid': 'seat-chips', title: 'net chips so far in the match' }),
        ]),
        el('div', { class: 'seat-sub' }, [
          el('span', { class: 'seat-action', 'data-testid': 'seat-action' }),
          el('span', { class: 'seat-put', 'data-testid': 'seat-put' }),
        ]),
      ]);
      container.append(node);
      this.seatNodes.push(node);
    }
  };

  // Seat i around the oval, clockwise on screen; the viewed seat (or seat 0) at the bottom.
  Viewer.prototype.placeSeat = function (node, i) {
    const n = this.match.seatCount;
    const bottom = this.view === ALL ? 0 : this.view;
    const angle = Math.PI / 2 + (2 * Math.PI * (i - bottom)) / n;
    node.style.left = (50 + 42 * Math.cos(angle)).toFixed(2) + '%';
    node.style.top = (50 + 40 * Math.sin(angle)).toFixed(2) + '%';
  };

  Viewer.prototype.shownCards = function (state, i) {
    const seat = state.seats[i];
    if (!seat.cards) return null;
    if (this.view === ALL) return seat.cards;
    return state.known[this.view][i];
  };

  Viewer.prototype.renderSeats = function (state) {
    state.seats.forEach((seat, i) => this.renderSeat(this.seatNodes[i], state, seat, i));
  };

  Viewer.prototype.renderSeat = function (node, state, seat, i) {
    this.placeSeat(node, i);
    node.dataset.status = seat.status;
    node.dataset.seen = String(seat.seen);
    node.dataset.dealer = String(state.dealer === i);
    node.dataset.active = String(state.active === i);
    node.dataset.winner = String(seat.winner);
    node.dataset.viewer = String(this.view === i);
    node.querySelector('.dealer-button').hidden = state.dealer !== i;
    this.renderSeatCards(node.querySelector('.cards'), state, seat, i);
    const shownValue = seat.value && (this.view === ALL || state.known[this.view][i]);
    node.querySelector('.seat-value').textContent = shownValue ? describeValue(seat.value) : '';
    const badge = node.querySelector('.badge');
    const label = seatState(seat);
    badge.textContent = label;
    badge.className = 'badge ' + label;
    const chips = this.chipsOf(state, i);
    const chipsNode = node.querySelector('.chips');
    chipsNode.textContent = signed(chips);
    chipsNode.className = 'chips ' + signClass(chips);
    node.querySelector('.seat-swaps').textContent = seat.swaps > 0 ? seat.swaps + (seat.swaps > 1 ? ' swaps' : ' swap') : '';
    node.querySelector('.seat-action').textContent = seat.action;
    node.querySelector('.seat-put').textContent = state.ended ? signed(state.payoffs[i]) : 'in pot ' + seat.put;
  };

  Viewer.prototype.renderSeatCards = function (box, state, seat, i) {
    box.replaceChildren();
    if (!seat.cards) return;
    const shown = this.shownCards(state, i);
    for (let k = 0; k < seat.cards.length; k++) {
      if (shown) box.append(cardFace(shown[k], this.view === ALL && seat.swappedIn.includes(shown[k]), seat.wild !== null && shown[k] === seat.wild));
      else box.append(cardBack());
    }
  };

  function seatState(seat) {
    if (seat.winner) return 'winner';
    if (seat.status !== 'in') return seat.status;
    return seat.seen ? 'seen' : 'blind';
  }

  // Net chips of seat i so far: before this hand, minus what it has put in (or plus its net
  // once the hand is over).
  Viewer.prototype.chipsOf = function (state, i) {
    const before = this.hand().totalsBefore[i];
    return state.ended ? add(before, state.payoffs[i]) : sub(before, state.seats[i].put);
  };

  Viewer.prototype.renderScoreboard = function (state) {
    const hand = this.hand();
    const rows = state.seats.map((seat, i) => {
      const chips = this.chipsOf(state, i);
      const thisHand = state.ended ? state.payoffs[i] : neg(seat.put);
      const won = hand.wonBefore[i] + (seat.winner ? 1 : 0);
      const faults = hand.faultsBefore[i] + seat.faults;
      return el('tr', { 'data-testid': 'score-row', 'data-seat': i, class: this.view === i ? 'viewer' : '' }, [
        el('td', { class: 'num', text: seatLabel(i) }),
        el('td', { class: 'name', text: this.match.names[i], title: this.match.names[i] }),
        el('td', { class: 'num ' + signClass(chips), 'data-testid': 'total-' + i, text: signed(chips) }),
        el('td', { class: 'num ' + signClass(thisHand), text: signed(thisHand) }),
        el('td', { class: 'num', text: won }),
        el('td', { class: 'num' + (faults > 0 ? ' neg' : ''), 'data-testid': 'faults-' + i, text: faults }),
      ]);
    });
    $('scoreboard').replaceChildren(...rows);
  };

  Viewer.prototype.renderResult = function () {
    const box = $('result');
    const result = this.match.result;
    if (!result || !this.atEnd()) {
      box.hidden = true;
      return;
    }
    box.hidden = false;
    box.replaceChildren(el('strong', { text: 'Match over after ' + result.hands + ' hands: ' }));
    result.seats.forEach((s, i) => {
      if (i > 0) box.append(', ');
      box.append(s.name + ' ' + signed(s.net));
    });
  };

  // The log holds every step of the hand, built once per hand and view; a step only shows
  // the entries up to it. "Once per hand" means per hand object with its steps: the live view
  // rebuilds the match as records arrive, and a log built from an earlier copy of the hand
  // would stop at the steps it had then while the table goes on.
  Viewer.prototype.renderLog = function () {
    const toggle = $('logs-toggle');
    toggle.parentElement.hidden = !this.match.hasLogs;
    toggle.checked = this.showLogs;
    const hand = this.hand();
    const key = this.view + ':' + (this.showLogs && this.match.hasLogs);
    const log = $('log');
    if (this.logKey !== key || this.logHand !== hand || this.logSteps !== hand.steps.length) {
      this.logKey = key;
      this.logHand = hand;
      this.logSteps = hand.steps.length;
      log.replaceChildren(...hand.steps.map((step, i) => this.logEntry(step, i)));
    }
    const entries = log.children;
    for (let i = 0; i < entries.length; i++) {
      entries[i].hidden = i > this.si;
      entries[i].classList.toggle('current', i === this.si);
    }
    this.scrollLogSoon();
  };

  // Keeps the current entry in sight. Reading positions forces a layout, so it is done once a
  // frame, not at every step (playing fast or stepping through many events stays cheap).
  Viewer.prototype.scrollLogSoon = function () {
    if (this.scrollPending) return;
    this.scrollPending = true;
    requestAnimationFrame(() => {
      this.scrollPending = false;
      const log = $('log');
      const current = log.children[this.si];
      if (current) log.scrollTop = Math.max(0, current.offsetTop - log.offsetTop - log.clientHeight + current.offsetHeight + 8);
    });
  };

  Viewer.prototype.logEntry = function (step, i) {
    const text = describe(step, this.view, this.match);
    const cls = [text.cls, step.byArena ? 'arena' : ''].filter(Boolean).join(' ');
    const li = el('li', { 'data-testid': 'log-entry', 'data-kind': text.kind, 'data-step': i, class: cls });
    const time = decisionTime(step, this.match);
    if (time) li.title = time;
    renderParts(li, text.parts, this.match);
    const lines = this.showLogs && decisionLines(step, this.view);
    if (lines) {
      li.append(el('pre', { class: 'bot-stderr', 'data-testid': 'step-stderr', 'data-seat': step.decision.seat, text: lines.join('\n') }));
    }
    return li;
  };

  Viewer.prototype.renderControls = function () {
    const first = this.hi === 0 && this.si === 0;
    $('step-prev').disabled = first;
    $('hand-prev').disabled = first;
    $('step-next').disabled = this.atEnd();
    $('hand-next').disabled = this.atEnd();
    const slider = $('step-slider');
    slider.max = String(this.hand().steps.length - 1);
    slider.value = String(this.si);
    $('hand-select').value = String(this.hi);
    if (document.activeElement !== $('hand-input')) $('hand-input').value = handLabel(this.hand().number);
    $('view-select').value = String(this.view);
    this.renderPlayButton();
  };

  Viewer.prototype.renderPlayButton = function () {
    const button = $('play-toggle');
    button.textContent = this.playing() ? 'Pause' : 'Play';
    button.dataset.playing = String(this.playing());
  };

  // ---------------------------------------------------------------- page setup

  function describeSettings(header) {
    const s = header.settings;
    const parts = [s.variant, header.bots.length + ' seats', header.hands + ' hands', 'seed ' + header.seed, 'boot ' + s.boot, 'max stake ' + s.max_stake, 'pot limit ' + s.pot_limit];
    if (!s.sideshow) parts.push('no sideshows');
    if (s.variant === 'classic') parts.push('blind limit ' + s.blind_limit);
    if (s.variant === 'closest-555' && s.swap_cost > 0) parts.push('swap cost ' + s.swap_cost);
    if (s.sequence_order !== 'a23-high') parts.push(s.sequence_order);
    return parts.join(' \u00b7 ');
  }

  // "Hand 3 — passive +501 (show)": each winner with its net for the hand (the pot less
  // what it put in), never the pot, which counts the winner's own chips too.
  function handSummary(match, hand) {
    const end = hand.end;
    if (!end) return 'Hand ' + handLabel(hand.number);
    const winners = end.winners.map((w) => match.names[w] + ' ' + signed(end.payoffs[w] || 0)).join(' & ');
    return 'Hand ' + handLabel(hand.number) + ' \u2014 ' + (winners || 'no winner') + ' (' + (END_REASONS[end.reason] || end.reason) + ')';
  }

  function fillSelects(viewer) {
    const match = viewer.match;
    $('hand-select').replaceChildren(...match.hands.map((hand, i) => el('option', { value: i, text: handSummary(match, hand) })));
    const views = [el('option', { value: ALL, text: 'All cards' })];
    match.names.forEach((name, i) => views.push(el('option', { value: i, text: 'As seat ' + seatLabel(i) + ': ' + name })));
    $('view-select').replaceChildren(...views);
  }

  function fillHeader(viewer, data) {
    $('match-info').textContent = describeSettings(viewer.match.header);
    if (data.back) {
      $('back-nav').append(el('a', { href: data.back.href, 'data-testid': 'back-link', text: '\u2190 ' + data.back.label }));
    }
    if (data.source) $('source').textContent = 'Replay file: ' + data.source;
  }

  function bindControls(viewer) {
    $('step-next').addEventListener('click', () => viewer.stepNext());
    $('step-prev').addEventListener('click', () => viewer.stepPrev());
    $('hand-next').addEventListener('click', () => viewer.handNext());
    $('hand-prev').addEventListener('click', () => viewer.handPrev());
    $('play-toggle').addEventListener('click', () => viewer.togglePlay());
    $('speed').addEventListener('change', () => viewer.restartTimer());
    $('step-slider').addEventListener('input', (e) => viewer.go(viewer.hi, Number(e.target.value)));
    $('hand-select').addEventListener('change', (e) => viewer.go(Number(e.target.value), 'deal'));
    $('view-select').addEventListener('change', (e) => viewer.setView(e.target.value === ALL ? ALL : Number(e.target.value)));
    $('logs-toggle').addEventListener('change', (e) => viewer.setShowLogs(e.target.checked));
    $('hand-jump').addEventListener('submit', (e) => {
      e.preventDefault();
      const input = $('hand-input');
      const ok = viewer.jumpToHand(input.value);
      input.setCustomValidity(ok ? '' : 'No hand ' + input.value + ' in this replay');
      if (!ok) input.reportValidity();
    });
  }

  const KEYS = {
    ArrowRight: (v) => v.stepNext(),
    ArrowLeft: (v) => v.stepPrev(),
    PageDown: (v) => v.handNext(),
    PageUp: (v) => v.handPrev(),
    ']': (v) => v.handNext(),
    '[': (v) => v.handPrev(),
    Home: (v) => v.go(v.hi, 0),
    End: (v) => v.go(v.hi, 'end'),
    ' ': (v) => v.togglePlay(),
    a: (v) => v.setView(ALL),
    A: (v) => v.setView(ALL),
    v: (v) => v.cycleView(1),
    V: (v) => v.cycleView(-1),
    l: (v) => v.match.hasLogs && v.setShowLogs(!v.showLogs),
    L: (v) => v.match.hasLogs && v.setShowLogs(!v.showLogs),
  };

  // Digit keys view the table as a seat: its number as shown on the seat (1 = seat 1, the
  // records' seat 0). At a table of ten or more seats a second digit typed within
  // DIGIT_WINDOW_MS extends the number (1 then 2 = seat 12; 1 then 0 = seat 10). 0 on its
  // own shows all cards.
  const DIGIT_WINDOW_MS = 1000;

  function digitKey(viewer, digit) {
    const count = viewer.match.seatCount;
    const now = Date.now();
    if (viewer.typed && now - viewer.typed.at < DIGIT_WINDOW_MS) {
      const n = Number(viewer.typed.text + digit);
      viewer.typed = null;
      if (n >= 1 && n <= count) {
        viewer.setView(n - 1);
        return;
      }
      // No such seat: the digit starts afresh.
    }
    const d = Number(digit);
    if (d === 0) {
      viewer.typed = null;
      viewer.setView(ALL);
      return;
    }
    if (d <= count) viewer.setView(d - 1);
    // Wait for a second digit only where one can follow (1 at ten to nineteen seats, ...).
    viewer.typed = d * 10 <= count ? { text: digit, at: now } : null;
  }

  function bindKeys(viewer) {
    document.addEventListener('keydown', (e) => {
      if (e.ctrlKey || e.metaKey || e.altKey) return;
      const target = e.target;
      if (target && (target.tagName === 'INPUT' || target.tagName === 'SELECT' || target.tagName === 'TEXTAREA')) return;
      if (/^[0-9]$/.test(e.key)) {
        e.preventDefault();
        digitKey(viewer, e.key);
        return;
      }
      viewer.typed = null;
      const action = KEYS[e.key];
      if (!action) return;
      e.preventDefault();
      action(viewer);
    });
  }

  // `#hand=N` in the address opens hand N (numbered from 1, as shown).
  function startHand(viewer) {
    if (viewer.match.hands.length === 0) {
      $('last-event').textContent = 'This replay has no hands.';
      return;
    }
    const found = /(?:^#|&)hand=(\d+)/.exec(location.hash);
    if (!found || !viewer.jumpToHand(found[1])) viewer.go(0, 'deal');
  }

  function showError(error) {
    const app = $('app');
    app.replaceChildren(el('div', { class: 'panel', 'data-testid': 'error', text: 'Cannot show this replay: ' + error.message }));
  }


  // ---------------------------------------------------------------- live view (`--watch`)

  // The page served by `arena match --watch` (and `arena tournament --watch`): the records
  // arrive as server-sent events, one replay line each, and the viewer is rebuilt from them
  // as they come. It shows the newest step while "Follow" is on; stepping or choosing a hand
  // turns it off. A match already over when the page joins it (a finished match of a
  // tournament, or `--keep-serving` after the end) opens on its first hand's deal instead,
  // ready to be played with Play. The access token is in the page's address and goes with
  // every request.
  function startLive() {
    const params = new URLSearchParams(location.search);
    const token = params.get('token') || '';
    const chosen = params.get('match');
    const live = { records: [], viewer: null, pending: false, info: null, opened: false };
    const badge = el('span', { class: 'live-badge', 'data-testid': 'live-status', 'data-state': 'connecting', text: 'connecting' });
    const follow = el('input', { type: 'checkbox', 'data-testid': 'live-follow' });
    follow.checked = true;
    const picker = el('select', { 'data-testid': 'live-match', 'aria-label': 'Match to watch' });
    $('back-nav').append(badge, el('label', { class: 'inline live-follow' }, [follow, ' Follow']), picker);
    $('match-title').textContent = 'Live';
    $('last-event').textContent = 'Waiting for the match\u2026';
    picker.addEventListener('change', () => {
      params.set('match', picker.value);
      location.search = params.toString();
    });
    // Moving by hand stops following; Play and the view keep it.
    $('controls').addEventListener('click', (e) => {
      if (e.target.closest('button') && e.target.closest('button').id !== 'play-toggle') follow.checked = false;
    });
    $('controls').addEventListener('input', (e) => {
      if (e.target.id === 'step-slider') follow.checked = false;
    });
    $('hand-select').addEventListener('change', () => { follow.checked = false; });
    document.addEventListener('keydown', (e) => {
      if (['ArrowLeft', 'ArrowRight', 'PageUp', 'PageDown', '[', ']', 'Home', 'End'].includes(e.key)) follow.checked = false;
    });
    follow.addEventListener('change', () => schedule());

    const setBadge = (state, text) => {
      badge.dataset.state = state;
      badge.textContent = text;
    };

    async function refreshMatches() {
      try {
        const response = await fetch('matches?token=' + encodeURIComponent(token), { cache: 'no-store' });
        if (!response.ok) return;
        const list = await response.json();
        const current = live.info ? String(live.info.id) : chosen;
        picker.replaceChildren(...list.map((m) => el('option', {
          value: m.id,
          text: m.label + (m.live ? ' (playing)' : ' (finished)'),
          selected: String(m.id) === current,
        })));
        picker.hidden = list.length < 2;
      } catch (_) {
        // The arena has stopped: the badge says so, and there is nothing more to ask.
        clearInterval(refreshing);
      }
    }

    function connect() {
      let url = 'events?token=' + encodeURIComponent(token);
      if (chosen !== null) url += '&match=' + encodeURIComponent(chosen);
      const source = new EventSource(url);
      source.addEventListener('reset', (e) => {
        live.info = JSON.parse(e.data);
        live.records = [];
        if (live.info.finished && !live.opened) follow.checked = false;
        setBadge('live', 'live');
        document.title = 'Live: ' + live.info.label;
        $('match-title').textContent = 'Live: ' + live.info.label;
        refreshMatches();
      });
      source.addEventListener('message', (e) => {
        live.records.push(window.ArenaJson.parse(e.data));
        schedule();
      });
      source.addEventListener('end', () => {
        source.close();
        setBadge('finished', 'finished');
        schedule();
        // A lone match's arena exits now (unless it keeps serving); a tournament's goes on
        // with other matches to pick.
        if (picker.options.length < 2) clearInterval(refreshing);
      });
      source.addEventListener('lagged', () => {
        // Too far behind: start again from the beginning.
        source.close();
        setTimeout(connect, 500);
      });
      source.addEventListener('error', () => {
        if (badge.dataset.state !== 'finished') setBadge('stopped', 'disconnected (has the arena stopped?)');
      });
    }

    function schedule() {
      if (live.pending) return;
      live.pending = true;
      setTimeout(update, 150);
    }

    function update() {
      live.pending = false;
      if (!live.records.some((r) => r.type === 'header')) return;
      let viewer = live.viewer;
      // The hand shown, by its number: a restarted stream (after `lagged`) may hold other hands.
      const shown = viewer && viewer.match.hands.length > 0 ? viewer.hand().number : null;
      if (!viewer) {
        viewer = new Viewer({ records: live.records });
        live.viewer = viewer;
        viewer.buildSeats();
        fillSelects(viewer);
        bindControls(viewer);
        bindKeys(viewer);
        window.replayViewer = viewer;
      } else {
        viewer.data = { records: live.records };
        viewer.match = buildMatch(live.records);
        viewer.cache = { hi: -1, states: [] };
        const view = $('view-select').value;
        const hand = $('hand-select').value;
        fillSelects(viewer);
        $('view-select').value = view;
        $('hand-select').value = hand;
      }
      let info = describeSettings(viewer.match.header);
      if (live.info && live.info.dropped_hands > 0) {
        info += ' \u00b7 joined late: the first ' + live.info.dropped_hands + ' hands are not shown (totals count from there)';
      }
      $('match-info').textContent = info;
      document.body.dataset.liveRecords = String(live.records.length);
      if (viewer.match.hands.length === 0) return;
      const hands = viewer.match.hands;
      const again = shown === null ? -1 : hands.findIndex((h) => h.number === shown);
      if (follow.checked) viewer.go(hands.length - 1, 'end');
      else if (!live.opened || again < 0) viewer.go(0, 'deal');
      else viewer.go(again, viewer.si);
      live.opened = true;
      document.body.dataset.ready = 'true';
    }

    refreshMatches();
    const refreshing = setInterval(refreshMatches, 3000);
    connect();
  }

  async function main() {
    let viewer;
    try {
      const data = await readData();
      if (data.live) {
        startLive();
        return;
      }
      viewer = new Viewer(data);
      fillHeader(viewer, data);
    } catch (error) {
      showError(error);
      throw error;
    }
    viewer.buildSeats();
    fillSelects(viewer);
    bindControls(viewer);
    bindKeys(viewer);
    startHand(viewer);
    document.body.dataset.ready = 'true';
    window.replayViewer = viewer; // for debugging from the console
  }

  main();
})();
