// Checks a replay page in headless Chromium against its replay file:
//
//   node check_replay.js REPLAY.jsonl PAGE.html [REPLAY2.jsonl PAGE2.html ...]
//
// * the page opens on the first hand's deal (every seat's cards on the table), and so does
//   every hand chosen with the hand buttons, the number box or the list; the list names each
//   winner's net for the hand (not the pot); seats are numbered from 1 on the table, in the
//   chips table, the view list and the log;
// * the controls, with real clicks and key presses: step forward and back, next and previous
//   hand, jump to a hand (input and list), play/pause, switching the view to seat 1 and back;
// * then every step of the match in the all-cards view (clicking "next step" inside the page):
//   hand number, the kind of the current log entry, the pot after every event that carries one
//   (the stake after bets), every seat's cards (as dealt, changed by swaps), packed/dead state,
//   the dealer, running chip totals after each hand, and at the end the result record's nets;
// * then every step again as seat 1: its own cards once it may see them, another seat's cards
//   face down until they are revealed to seat 1 (a show or group reveal, or a sideshow between
//   the two), and no hidden card named in the log;
// * the header line shows the seed exactly as the replay file has it (64-bit seeds lose digits
//   in a JavaScript number), hands are numbered from 1, names are never cut, every Lallan
//   Kallan wild card is marked from the deal on, sideshows and shows give hand values (a
//   Closest to 555 value with three digits), and at ten seats or more two digit keys choose a
//   seat;
// * no network request was attempted and no script error happened.
//
// The model below is written from the replay format (arena/src/replay/record.rs) and the rules
// (RULES.md, "What each seat may know"), not from the page's script.
'use strict';

const fs = require('fs');
const assert = require('assert/strict');
const { run, newPage, fileUrl } = require('./browser');

const VIEWER = 1;

// ---------------------------------------------------------------- the replay file

// The seed as written in the file (JSON.parse would round a 64-bit one).
function seedText(file) {
  const header = fs.readFileSync(file, 'utf8').split('\n')[0];
  return /"seed":(\d+)/.exec(header)[1];
}

// Lallan Kallan: the card of the odd colour in a live hand (RULES.md), or null.
function wildOf(cards) {
  const red = cards.filter((c) => c[1] === 'd' || c[1] === 'h');
  if (red.length === 1) return red[0];
  if (red.length === 2) return cards.find((c) => c[1] === 'c' || c[1] === 's');
  return null;
}

function readReplay(file) {
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line));
}

// Steps in the page's order: a hand's events, faults and bot restarts as they come; a fault
// or bot note that came before its hand started is shown right after the hand_started event.
function handsOf(records) {
  const hands = [];
  const byNumber = new Map();
  let pending = [];
  const note = (number, step) => {
    const hand = byNumber.get(number);
    if (hand && hand.steps.length > 0) hand.steps.push(step);
    else pending.push(step);
  };
  for (const r of records) {
    if (r.type === 'event') {
      if (!byNumber.has(r.hand)) {
        const hand = { number: r.hand, steps: [] };
        byNumber.set(r.hand, hand);
        hands.push(hand);
      }
      const hand = byNumber.get(r.hand);
      hand.steps.push({ kind: r.event, rec: r });
      if (r.event === 'hand_started') {
        hand.steps.push(...pending);
        pending = [];
      }
    } else if (r.type === 'fault') {
      note(r.hand, { kind: 'fault', rec: r });
    } else if (r.type === 'bot' && (r.status === 'restarted' || r.status === 'disabled')) {
      note(r.hand, { kind: 'bot', rec: r });
    }
  }
  if (pending.length > 0) hands[hands.length - 1].steps.push(...pending);
  return hands;
}

// The step a hand opens on: the last of its first deal's `dealt` events (0 without one).
function dealIndex(hand) {
  let i = hand.steps.findIndex((s) => s.kind === 'dealt');
  if (i < 0) return 0;
  while (i + 1 < hand.steps.length && hand.steps[i + 1].kind === 'dealt') i += 1;
  return i;
}

// What the hand list says of a hand: each winner's net for the hand, never the pot.
function checkHandOptions(options, records, names) {
  const ends = records.filter((r) => r.type === 'event' && r.event === 'hand_ended');
  assert.equal(options.length, ends.length, 'one hand list entry per hand');
  ends.forEach((end, i) => {
    const text = options[i];
    assert.ok(text.startsWith('Hand ' + (end.hand + 1) + ' \u2014 '), 'hand list entry ' + i + ': ' + text);
    for (const w of end.winners) {
      const net = end.payoffs[w] > 0 ? '+' + end.payoffs[w] : String(end.payoffs[w]);
      assert.ok(text.includes(names[w] + ' ' + net), 'the net win of ' + names[w] + ' in: ' + text + ' (pot ' + end.pot + ')');
    }
    assert.ok(!/ (wins|share) /.test(text), 'no pot said to be won: ' + text);
  });
}

// The expected table after every step, for the all-cards view and for `viewer`.
function expectations(records, viewer) {
  const header = records.find((r) => r.type === 'header');
  const n = header.bots.length;
  const classic = header.settings.variant === 'classic';
  const lallan = header.settings.variant === 'lallan-kallan';
  const totals = Array(n).fill(0);
  const out = [];
  for (const hand of handsOf(records)) {
    let pot = 0;
    let stake = 0;
    let dealer = null;
    let cards = Array(n).fill(null);
    let wild = Array(n).fill(null);
    let status = Array(n).fill('in');
    let visible = Array(n).fill(null); // what `viewer` may see of each seat
    let ended = null;
    hand.steps.forEach((step, index) => {
      const e = step.rec;
      if (step.kind === 'hand_started') {
        pot = e.pot;
        stake = e.stake;
        dealer = e.dealer;
      } else if (step.kind === 'dealt') {
        cards[e.seat] = e.cards.slice();
        wild[e.seat] = lallan ? wildOf(e.cards) : null;
        if (e.seat === viewer && !classic) visible[viewer] = e.cards.slice();
      } else if (step.kind === 'redeal') {
        pot = e.pot;
        cards = Array(n).fill(null);
        wild = Array(n).fill(null);
        status = Array(n).fill('in');
        visible = Array(n).fill(null);
      } else if (step.kind === 'dead') {
        for (const s of e.seats) status[s] = 'dead';
      } else if (step.kind === 'saw') {
        if (e.seat === viewer) visible[viewer] = cards[viewer].slice();
      } else if (step.kind === 'swapped') {
        cards[e.seat][cards[e.seat].indexOf(e.discarded)] = e.drawn;
        pot += e.cost;
        // The viewer knows its own new card; of another seat's swap only that it happened.
        visible[e.seat] = e.seat === viewer ? cards[e.seat].slice() : null;
      } else if (step.kind === 'bet') {
        assert.equal(e.pot, pot + e.amount, 'the replay itself: pot after a bet');
        pot = e.pot;
        stake = e.stake;
      } else if (step.kind === 'show_asked' || step.kind === 'sideshow_asked') {
        pot = e.pot;
      } else if (step.kind === 'packed') {
        status[e.seat] = 'packed';
      } else if (step.kind === 'sideshow_compared') {
        if (e.seat === viewer) visible[e.target] = e.target_cards.slice();
        if (e.target === viewer) visible[e.seat] = e.seat_cards.slice();
      } else if (step.kind === 'revealed') {
        for (const h of e.hands) visible[h.seat] = h.cards.slice();
      } else if (step.kind === 'hand_ended') {
        pot = e.pot;
        ended = e;
        e.payoffs.forEach((p, i) => (totals[i] += p));
      }
      out.push({
        hand: hand.number,
        index,
        classic,
        variant: header.settings.variant,
        wild: wild.slice(),
        kind: step.kind,
        rec: e,
        pot,
        stake,
        dealer,
        cards: cards.map((c) => (c ? c.slice() : null)),
        status: status.slice(),
        visible: visible.map((c) => (c ? c.slice() : null)),
        totals: ended ? totals.slice() : null,
      });
    });
  }
  const result = records.find((r) => r.type === 'result');
  return { header, records, steps: out, hands: handsOf(records), result };
}

// ---------------------------------------------------------------- reading the page

// What the page shows now (runs in the page).
function snapshotInPage() {
  const q = (sel, root) => (root || document).querySelector(sel);
  const seats = [...document.querySelectorAll('[data-testid^="seat-"][data-seat]')].map((seat) => ({
    seat: Number(seat.dataset.seat),
    cards: [...seat.querySelectorAll('[data-testid="card"]')].map((c) => (c.dataset.face === 'up' ? c.dataset.card : 'down')),
    status: seat.dataset.status,
    dealer: seat.dataset.dealer === 'true',
    wild: [...seat.querySelectorAll('[data-testid="card"][data-wild="true"]')].map((c) => c.dataset.card),
    chips: Number(q('[data-testid="seat-chips"]', seat).textContent),
  }));
  seats.sort((a, b) => a.seat - b.seat);
  const current = q('#log li.current');
  return {
    hand: Number(q('[data-testid="hand-number"]').dataset.hand),
    handText: q('[data-testid="hand-number"]').textContent,
    pot: Number(q('[data-testid="pot"]').textContent),
    stake: Number(q('[data-testid="stake"]').textContent),
    step: current ? Number(current.dataset.step) : -1,
    kind: current ? current.dataset.kind : null,
    fault: current ? current.classList.contains('fault') : false,
    logCards: current ? [...current.querySelectorAll('.c')].map((c) => c.textContent) : [],
    logWild: current ? [...current.querySelectorAll('.c[data-wild="true"]')].map((c) => c.textContent) : [],
    logText: current ? current.textContent : '',
    visibleEntries: [...document.querySelectorAll('#log li')].filter((li) => !li.hidden).length,
    seats,
    totals: seats.map((s) => Number(q('[data-testid="total-' + s.seat + '"]').textContent)),
    nextDisabled: q('[data-testid="step-next"]').disabled,
    playing: q('[data-testid="play-toggle"]').dataset.playing === 'true',
  };
}

// Clicks "next step" until the end, snapshotting after every click (runs in the page).
function traverseInPage(snapshotSource) {
  const snapshot = new Function('return (' + snapshotSource + ')()');
  const next = document.querySelector('[data-testid="step-next"]');
  const snaps = [snapshot()];
  while (!next.disabled) {
    next.click();
    snaps.push(snapshot());
  }
  return snaps;
}

async function snapshot(page) {
  return page.evaluate(snapshotInPage);
}

// ---------------------------------------------------------------- checks

function cardText(card) {
  return ({ T: '10' }[card[0]] || card[0]) + { c: '\u2663', d: '\u2666', h: '\u2665', s: '\u2660' }[card[1]];
}

function checkAllCardsStep(snap, want, where) {
  assert.equal(snap.hand, want.hand, where + ': hand number');
  assert.equal(snap.step, want.index, where + ': current step');
  assert.equal(snap.kind, want.kind, where + ': current log entry');
  assert.equal(snap.visibleEntries, want.index + 1, where + ': log entries shown');
  if (want.kind === 'fault' || want.kind === 'bot') assert.ok(snap.fault, where + ': fault not highlighted');
  if (want.rec && typeof want.rec.pot === 'number') assert.equal(snap.pot, want.rec.pot, where + ': pot after ' + want.kind);
  assert.equal(snap.pot, want.pot, where + ': pot');
  if (want.kind === 'bet') assert.equal(snap.stake, want.rec.stake, where + ': stake after a bet');
  assert.equal(snap.stake, want.stake, where + ': stake');
  want.cards.forEach((cards, seat) => {
    const shown = snap.seats[seat].cards;
    if (cards) assert.deepEqual(shown, cards, where + ': cards of seat ' + seat);
    else assert.deepEqual(shown, [], where + ': seat ' + seat + ' has no cards yet');
  });
  want.status.forEach((status, seat) => {
    if (status !== 'in') assert.equal(snap.seats[seat].status, status, where + ': seat ' + seat + ' state');
    else assert.equal(snap.seats[seat].status, 'in', where + ': seat ' + seat + ' state');
    assert.equal(snap.seats[seat].dealer, want.dealer === seat, where + ': dealer button at seat ' + seat);
  });
  // Lallan Kallan: the wild card is marked on the table from the deal on, and in the deal's line.
  want.wild.forEach((wild, seat) => {
    const shown = want.cards[seat] ? (wild ? [wild] : []) : [];
    assert.deepEqual(snap.seats[seat].wild, shown, where + ': wild card marked at seat ' + seat);
  });
  if (want.kind === 'dealt' && want.wild[want.rec.seat]) {
    assert.ok(snap.logWild.includes(cardText(want.wild[want.rec.seat])), where + ': the deal line marks the wild card: ' + snap.logText);
    assert.ok(snap.logText.includes('(wild ' + cardText(want.wild[want.rec.seat]) + ')'), where + ': the deal line names the wild card: ' + snap.logText);
  }
  // Hand values at a sideshow, as at a show; a Closest to 555 value has three digits.
  const values = snap.logText.split(' = ').length - 1;
  if (want.kind === 'sideshow_compared') assert.equal(values, 2, where + ': both values at a sideshow: ' + snap.logText);
  if (want.kind === 'revealed') assert.equal(values, want.rec.hands.length, where + ': a value per revealed hand: ' + snap.logText);
  if (want.variant === 'closest-555' && values > 0) {
    const numbers = snap.logText.match(/ = \d{3} \(distance \d+\)/g) || [];
    assert.equal(numbers.length, values, where + ': three-digit Closest to 555 values: ' + snap.logText);
  }
  if (want.totals) {
    assert.deepEqual(snap.totals, want.totals, where + ': running totals');
    assert.deepEqual(snap.seats.map((s) => s.chips), want.totals, where + ': chips at the seats');
  }
}

function checkSeatViewStep(snap, want, where) {
  assert.equal(snap.hand, want.hand, where + ': hand number');
  assert.equal(snap.kind, want.kind, where + ': current log entry');
  want.cards.forEach((cards, seat) => {
    const shown = snap.seats[seat].cards;
    if (!cards) return assert.deepEqual(shown, [], where + ': seat ' + seat + ' has no cards yet');
    const visible = want.visible[seat];
    if (visible) assert.deepEqual(shown, visible, where + ': seat ' + seat + ' as seen by seat ' + VIEWER);
    else assert.deepEqual(shown, ['down', 'down', 'down'], where + ': seat ' + seat + ' must be face down for seat ' + VIEWER);
  });
  // The log names no card that seat 1 may not know.
  const e = want.rec;
  const hidden = [];
  if (want.kind === 'dealt' && (e.seat !== VIEWER || want.classic)) hidden.push(...e.cards);
  if (want.kind === 'saw' && e.seat !== VIEWER) hidden.push(...e.cards);
  if (want.kind === 'swapped' && e.seat !== VIEWER) hidden.push(e.discarded, e.drawn);
  if (want.kind === 'sideshow_compared' && e.seat !== VIEWER && e.target !== VIEWER) hidden.push(...e.seat_cards, ...e.target_cards);
  for (const card of hidden) {
    assert.ok(!snap.logCards.includes(cardText(card)), where + ': the log shows ' + card + ' to seat ' + VIEWER);
  }
}

// ---------------------------------------------------------------- interactive checks

async function click(page, testid) {
  await page.click('[data-testid="' + testid + '"]');
}

// A key press on the page itself (the shortcuts do not act while a form field has the focus).
async function key(page, name) {
  await page.evaluate(() => document.activeElement && document.activeElement.blur());
  await page.keyboard.press(name);
}

async function checkControls(page, model) {
  const hands = model.hands;
  let snap = await snapshot(page);
  assert.equal(snap.hand, hands[0].number, 'the page opens at the first hand');
  assert.equal(snap.step, dealIndex(hands[0]), 'the page opens on the first hand\'s deal');
  assert.equal(snap.kind, 'dealt');
  const openedOn = model.steps.find((s) => s.hand === hands[0].number && s.index === snap.step);
  checkAllCardsStep(snap, openedOn, 'the page as it opens');
  assert.ok(snap.seats.every((seat) => seat.cards.length === 3), 'every seat has its cards as the page opens: ' + JSON.stringify(snap.seats.map((x) => x.cards)));
  assert.ok(await page.locator('[data-testid="help"]').isVisible(), 'the keyboard help line is shown');

  // Step forward with real clicks from the start of the first hand (Home), checking each step.
  await key(page, 'Home');
  snap = await snapshot(page);
  assert.equal(snap.step, 0, 'Home goes to the first step of the hand');
  const first = model.steps.filter((s) => s.hand === hands[0].number).slice(0, 10);
  checkAllCardsStep(snap, first[0], 'hand ' + hands[0].number + ' step 0 (click)');
  for (let i = 1; i < first.length; i++) {
    await click(page, 'step-next');
    checkAllCardsStep(await snapshot(page), first[i], 'hand ' + hands[0].number + ' step ' + i + ' (click)');
  }
  await click(page, 'step-prev');
  assert.equal((await snapshot(page)).step, first.length - 2, 'step back');

  if (hands.length > 1) {
    await click(page, 'hand-next');
    snap = await snapshot(page);
    assert.equal(snap.hand, hands[1].number, 'next hand');
    assert.equal(snap.step, dealIndex(hands[1]), 'the next hand opens on its deal');
    await click(page, 'hand-prev');
    assert.equal((await snapshot(page)).hand, hands[0].number, 'previous hand');
  }

  // Jump with the input, then with the list.
  const last = hands[hands.length - 1].number;
  // Hands are numbered from 1 on the page (the replay's index plus one).
  await page.fill('[data-testid="hand-input"]', String(last + 1));
  await click(page, 'hand-go');
  snap = await snapshot(page);
  assert.equal(snap.hand, last, 'jump to the last hand');
  assert.equal(snap.step, dealIndex(hands[hands.length - 1]), 'a jump opens the hand on its deal');
  assert.equal(snap.handText, 'Hand ' + (last + 1));
  const counter = await page.textContent('[data-testid="step-counter"]');
  assert.ok(counter.includes('hand ' + hands.length + ' of ' + hands.length), 'step counter: ' + counter);
  const firstOption = await page.textContent('[data-testid="hand-select"] option');
  assert.ok(firstOption.startsWith('Hand ' + (hands[0].number + 1)), 'the hand list numbers from 1: ' + firstOption);
  const options = await page.$$eval('[data-testid="hand-select"] option', (o) => o.map((x) => x.textContent));
  checkHandOptions(options, model.records, model.header.bots.map((b) => b.name));
  const middle = Math.floor(hands.length / 2);
  await page.selectOption('[data-testid="hand-select"]', String(middle));
  snap = await snapshot(page);
  assert.equal(snap.hand, hands[middle].number, 'jump with the hand list');
  assert.equal(snap.step, dealIndex(hands[middle]), 'the hand list opens the hand on its deal');

  // Keys: ] and [ for hands, arrows for steps, Home/End.
  await key(page, 'Home');
  if (middle + 1 < hands.length) {
    await key(page, ']');
    snap = await snapshot(page);
    assert.equal(snap.hand, hands[middle + 1].number, '] goes to the next hand');
    assert.equal(snap.step, dealIndex(hands[middle + 1]), '] opens the hand on its deal');
    await key(page, 'PageUp');
    assert.equal((await snapshot(page)).hand, hands[middle].number, 'PageUp goes to the previous hand');
    await key(page, 'Home');
  }
  await key(page, 'ArrowRight');
  await key(page, 'ArrowRight');
  assert.equal((await snapshot(page)).step, 2, 'ArrowRight steps forward');
  await key(page, 'ArrowLeft');
  assert.equal((await snapshot(page)).step, 1, 'ArrowLeft steps back');
  await key(page, 'End');
  assert.equal((await snapshot(page)).step, hands[middle].steps.length - 1, 'End goes to the end of the hand');

  // The view: the select, then the keys (2 = seat 1, 0 and A = all cards).
  await page.selectOption('[data-testid="view-select"]', String(VIEWER));
  assert.equal(await page.getAttribute('[data-testid="seat-' + VIEWER + '"]', 'data-viewer'), 'true', 'viewing as seat 1');
  await checkSeatViewHere(page, model, 'view select');
  await page.selectOption('[data-testid="view-select"]', 'all');
  snap = await snapshot(page);
  assert.ok(snap.seats.every((s) => s.cards.every((c) => c !== 'down')), 'all cards face up in the all-cards view');
  await key(page, '2');
  assert.equal(await page.inputValue('[data-testid="view-select"]'), String(VIEWER), 'key 2 views as seat 1');
  await checkSeatViewHere(page, model, 'key 2');
  await key(page, '0');
  assert.equal(await page.inputValue('[data-testid="view-select"]'), 'all', 'key 0 shows all cards');
  await key(page, '2');
  await key(page, 'a');
  assert.equal(await page.inputValue('[data-testid="view-select"]'), 'all', 'key A shows all cards');
  await checkSeatKeys(page, model.header.bots.length);

  // Play at the fastest speed for a moment, then pause (button and space bar).
  await key(page, 'Home');
  await page.selectOption('[data-testid="speed"]', '100');
  const before = await snapshot(page);
  await click(page, 'play-toggle');
  assert.ok((await snapshot(page)).playing, 'playing');
  await page.waitForFunction(
    ([hand, step]) => Number(document.querySelector('[data-testid="hand-number"]').dataset.hand) !== hand || Number(document.querySelector('#log li.current').dataset.step) !== step,
    [before.hand, before.step],
    { timeout: 10000 },
  );
  await click(page, 'play-toggle');
  const after = await snapshot(page);
  assert.ok(!after.playing, 'paused');
  assert.ok(after.step > before.step || after.hand !== before.hand, 'playing moved forward');
  await key(page, ' ');
  assert.ok((await snapshot(page)).playing, 'space plays');
  await key(page, ' ');
  assert.ok(!(await snapshot(page)).playing, 'space pauses');
}

// Views by key beyond seat 8 (two digits at ten seats or more) and V / Shift+V to cycle.
async function checkSeatKeys(page, seats) {
  const view = () => page.inputValue('[data-testid="view-select"]');
  if (seats >= 10) {
    await key(page, '1');
    await page.keyboard.press('0');
    assert.equal(await view(), '9', 'keys 1 0 view as seat 10 (index 9)');
  }
  if (seats >= 12) {
    await key(page, '1');
    await page.keyboard.press('2');
    assert.equal(await view(), '11', 'keys 1 2 view as seat 12 (index 11)');
  }
  await key(page, 'a');
  await key(page, 'v');
  assert.equal(await view(), '0', 'V from all cards views as the first seat');
  await key(page, 'Shift+V');
  assert.equal(await view(), 'all', 'Shift+V goes back to all cards');
  await key(page, 'Shift+V');
  assert.equal(await view(), String(seats - 1), 'Shift+V from all cards views as the last seat');
  await key(page, 'a');
  const help = await page.textContent('[data-testid="help"]');
  assert.ok(help.includes('two digits') && help.includes('V'), 'the help line explains the seat keys: ' + help);
}

// Every name is shown whole: as the seat's text and title and in the chips table, and never
// cut by its box (no ellipsis, no clipping).
async function checkNames(page, names) {
  const shown = await page.evaluate(() => {
    const fits = (node) => node.scrollWidth <= node.clientWidth + 1 && node.scrollHeight <= node.clientHeight + 1;
    return {
      seats: [...document.querySelectorAll('[data-testid="seat-name"]')].map((n) => ({
        text: n.textContent,
        title: n.title,
        fits: fits(n) && fits(n.closest('.seat')),
        ellipsis: getComputedStyle(n).textOverflow === 'ellipsis',
      })),
      rows: [...document.querySelectorAll('[data-testid="score-row"] .name')].map((n) => ({ text: n.textContent, fits: fits(n) })),
    };
  });
  assert.deepEqual(shown.seats.map((s) => s.text), names, 'seat names in full');
  assert.deepEqual(shown.seats.map((s) => s.title), names, 'seat names on hover');
  assert.deepEqual(shown.rows.map((r) => r.text), names, 'names in the chips table');
  shown.seats.forEach((s, i) => assert.ok(s.fits && !s.ellipsis, 'the name of seat ' + i + ' is cut: ' + names[i]));
  shown.rows.forEach((r, i) => assert.ok(r.fits, 'the name of seat ' + i + ' is cut in the chips table'));
}

// Seats are numbered from 1 for people: on the table, in the chips table, in the view list
// and in the log (the records' seat 0 is seat 1).
async function checkSeatNumbers(page, names) {
  const shown = await page.evaluate(() => ({
    tags: [...document.querySelectorAll('[data-testid^="seat-"][data-seat] .seat-tag')].map((n) => n.textContent),
    rows: [...document.querySelectorAll('[data-testid="score-row"] td:first-child')].map((n) => n.textContent),
    views: [...document.querySelectorAll('[data-testid="view-select"] option')].map((n) => n.textContent),
    log: [...document.querySelectorAll('#log li:not([hidden]) .who')].map((n) => n.textContent),
  }));
  const numbers = names.map((_, i) => String(i + 1));
  assert.deepEqual(shown.tags, numbers, 'seat tags from 1');
  assert.deepEqual(shown.rows, numbers, 'the chips table numbers seats from 1');
  assert.deepEqual(shown.views, ['All cards'].concat(names.map((n, i) => 'As seat ' + (i + 1) + ': ' + n)), 'the view list');
  // The deal's lines name every seat, as "name [number]".
  for (const [i, name] of names.entries()) {
    assert.ok(shown.log.includes(name + ' [' + (i + 1) + ']'), 'the log names ' + name + ' [' + (i + 1) + ']: ' + JSON.stringify(shown.log));
  }
}

// In the seat view at the current step: compare with the model's step.
async function checkSeatViewHere(page, model, label) {
  const snap = await snapshot(page);
  const want = model.steps.find((s) => s.hand === snap.hand && s.index === snap.step);
  checkSeatViewStep(snap, want, label + ' at hand ' + snap.hand + ' step ' + snap.step);
}

// ---------------------------------------------------------------- full traversals

async function traverse(page) {
  await page.selectOption('[data-testid="hand-select"]', '0');
  await key(page, 'Home');
  return page.evaluate(traverseInPage, snapshotInPage.toString());
}

async function checkEverything(page, model) {
  await page.selectOption('[data-testid="view-select"]', 'all');
  const all = await traverse(page);
  assert.equal(all.length, model.steps.length, 'one step per event, fault and bot note');
  all.forEach((snap, i) => checkAllCardsStep(snap, model.steps[i], 'all cards: hand ' + model.steps[i].hand + ' step ' + model.steps[i].index));
  const end = all[all.length - 1];
  assert.ok(end.nextDisabled, 'next is disabled at the end');
  if (model.result) {
    assert.deepEqual(end.totals, model.result.seats.map((s) => s.net), 'running totals at the end equal the result');
  }
  assert.ok(await page.locator('[data-testid="result"]').isVisible(), 'the result is shown at the end');

  await page.selectOption('[data-testid="view-select"]', String(VIEWER));
  const seen = await traverse(page);
  assert.equal(seen.length, model.steps.length);
  seen.forEach((snap, i) => checkSeatViewStep(snap, model.steps[i], 'seat ' + VIEWER + ': hand ' + model.steps[i].hand + ' step ' + model.steps[i].index));
  return all.length;
}

async function checkReplay(session, replayFile, pageFile) {
  const records = readReplay(replayFile);
  const model = expectations(records, VIEWER);
  assert.ok(model.header.bots.length > VIEWER, 'the replay needs at least two seats');
  const page = await newPage(session);
  await page.goto(fileUrl(pageFile));
  await page.waitForSelector('body[data-ready="true"]', { state: 'attached', timeout: 10000 });
  assert.equal(await page.locator('[data-testid="error"]').count(), 0, 'the page shows an error');
  const seed = seedText(replayFile);
  const info = await page.textContent('[data-testid="match-info"]');
  assert.ok(info.includes('seed ' + seed + ' '), 'the exact seed ' + seed + ' in: ' + info);
  assert.ok((await page.textContent('[data-testid="match-title"]')).includes('seed ' + seed + ')'), 'the exact seed in the title');
  await checkNames(page, model.header.bots.map((b) => b.name));
  await checkSeatNumbers(page, model.header.bots.map((b) => b.name));
  await checkControls(page, model);
  const steps = await checkEverything(page, model);
  const faults = model.steps.filter((s) => s.kind === 'fault').length;
  await page.close();
  console.log(pageFile + ': OK (' + model.hands.length + ' hands, ' + steps + ' steps, ' + faults + ' faults checked)');
}

const args = process.argv.slice(2);
if (args.length < 2 || args.length % 2 !== 0) {
  console.error('usage: node check_replay.js REPLAY.jsonl PAGE.html [REPLAY.jsonl PAGE.html ...]');
  process.exit(2);
}

run(async (session) => {
  for (let i = 0; i < args.length; i += 2) await checkReplay(session, args[i], args[i + 1]);
});
