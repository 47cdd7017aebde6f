// Checks the ladder server's public pages in headless Chromium:
//
//   node check_ladder.js BASE_URL EXPECTED.json
//
// BASE_URL is the server (http://127.0.0.1:PORT); EXPECTED.json is written by
// server/tests/it/browser.rs from the database and the stored replays: the bots, the bot whose
// page to open ("focus"), the match whose replay to open ("replay"), every played match
// (seat names, net chips, faults) and the text the leaky bot writes to its stderr ("secret").
//
// * `/`, `/login` and `/register` render with their stylesheets, and their links lead there;
// * `/leaderboard` shows every bot of `/api/leaderboard`, in its order, with its rank (or,
//   provisional, a dash and a tag), owner, version, rating and ± 2 deviations, rated pairs
//   and a last-played time;
// * a bot's link leads to its page, which lists every match it played with the stored seat,
//   opponent and chips, and a replay link for each; its versions and crosstable show what
//   `/api/leaderboard/BOT` says, and an opponent's link leads to that opponent's page;
// * that replay link opens the arena's viewer under the replay's own CSP: the seats are named
//   as stored, every seat's three cards are dealt, the steps advance and go back with the
//   buttons and the keyboard, the chip totals at the end equal the stored result, the faults
//   are shown, and the bot's stderr is nowhere in the page (the served HTML and the replay
//   embedded in it, gzipped, included);
// * the forms work from a real browser (its Origin header, the form token): a new account
//   signs up, uploads a bot, sees its version and file, logs out and logs in again;
// * no page logs a console error, throws, breaks its CSP or asks another origin for anything.
//
// Uses the arena's browser harness (arena/tests/browser/browser.js and its node_modules).
'use strict';

const fs = require('fs');
const path = require('path');
const assert = require('assert/strict');
const { run, newPage } = require(path.join(__dirname, '../../../arena/tests/browser/browser.js'));

const [base, expectedFile] = process.argv.slice(2);
if (!base || !expectedFile) {
  console.error('usage: node check_ladder.js BASE_URL EXPECTED.json');
  process.exit(2);
}
const origin = new URL(base).origin;
const expected = JSON.parse(fs.readFileSync(expectedFile, 'utf8'));

// Every CSP violation becomes a console error, which the harness counts as a failure
// (Chromium logs most of them itself; this also catches those it reports only as events).
async function reportCspViolations(context) {
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      console.error('CSP violation: ' + e.violatedDirective + ' blocked ' + (e.blockedURI || 'inline') + ' in ' + e.documentURI);
    });
  });
}

// Opens `url` and checks it answered 200 and its stylesheets loaded.
async function open(page, url) {
  const response = await page.goto(url);
  assert.equal(response.status(), 200, url);
  return response;
}

async function assertStyled(page, count) {
  const sheets = await page.evaluate(() => [...document.styleSheets].map((s) => ({ href: s.href, rules: s.cssRules.length })));
  assert.equal(sheets.filter((s) => s.rules > 0).length, count, page.url() + ': stylesheets applied: ' + JSON.stringify(sheets));
}

async function heading(page) {
  return (await page.textContent('main h2')).trim();
}

// Clicks the link matching `selector` and waits for the page it leads to.
async function follow(page, selector, pathname) {
  const [response] = await Promise.all([
    page.waitForResponse((r) => new URL(r.url()).pathname === pathname && r.request().isNavigationRequest()),
    page.click(selector),
  ]);
  await page.waitForLoadState('load');
  assert.equal(new URL(page.url()).pathname, pathname, 'followed ' + selector);
  assert.equal(response.status(), 200, pathname);
  return response;
}

// ---------------------------------------------------------------- home, log in, sign up

async function checkMainPages(page) {
  await open(page, base + '/');
  await assertStyled(page, 2);
  assert.equal(await heading(page), 'The contest');
  assert.match(await page.textContent('main'), /Game: classic, 2 seats\. Languages: python\./);
  await follow(page, 'main a[href="/register"]', '/register');
  assert.equal(await heading(page), 'Sign up');
  await assertStyled(page, 2);
  for (const field of ['name', 'display_name', 'password', 'confirm']) {
    assert.equal(await page.locator('form[action="/register"] [name="' + field + '"]').count(), 1, 'sign-up field ' + field);
  }
  await follow(page, 'header a[href="/login"]', '/login');
  assert.equal(await heading(page), 'Log in');
  await assertStyled(page, 2);
  assert.equal(await page.locator('form[action="/login"] input[type="password"]').count(), 1);
  await follow(page, 'header h1 a[href="/"]', '/');
  await follow(page, 'main a[href="/leaderboard"]', '/leaderboard');
}

// ---------------------------------------------------------------- the leaderboard

async function checkLeaderboard(page) {
  const api = await (await fetch(base + '/api/leaderboard')).json();
  const board = api.leaderboard;
  assert.deepEqual(board.map((r) => r.bot).sort(), expected.bots.slice().sort(), 'the API lists every bot');
  // Ranked (settled) ratings first, from 1, then the provisional ones without a rank; each
  // group best rating first.
  const ranked = board.filter((r) => !r.provisional);
  assert.deepEqual(board.slice(0, ranked.length), ranked, 'the ranked bots come first');
  ranked.forEach((r, i) => assert.equal(r.rank, i + 1, r.bot + ': the API ranks in order'));
  board.slice(ranked.length).forEach((r) => assert.equal(r.rank, null, r.bot + ': provisional, unranked'));
  for (let i = 1; i < board.length; i++) {
    if (board[i - 1].provisional === board[i].provisional) {
      assert.ok(board[i - 1].rating >= board[i].rating, 'the API lists the best rating first');
    }
  }
  assert.equal(new URL(page.url()).pathname, '/leaderboard');
  assert.equal(await heading(page), 'Leaderboard');
  await assertStyled(page, 2);
  const rows = await page.$$eval('main table.list tr', (trs) =>
    trs.slice(1).map((tr) => ({
      cells: [...tr.cells].map((td) => td.textContent.trim()),
      link: tr.cells[1].querySelector('a') && tr.cells[1].querySelector('a').getAttribute('href'),
    })),
  );
  assert.equal(rows.length, board.length, 'one row per bot');
  rows.forEach((row, i) => {
    const want = board[i];
    const where = 'row ' + (i + 1) + ' (' + want.bot + ')';
    const [rank, bot, owner, rating, games, last] = row.cells;
    assert.equal(rank, want.provisional ? '–' : String(want.rank), where + ': rank');
    assert.equal(bot, want.bot + ' v' + want.version, where + ': bot and version');
    assert.equal(row.link, '/leaderboard/' + want.bot, where + ': link');
    assert.equal(owner, want.owner, where + ': owner');
    const m = /^(-?\d+) ± (\d+)( provisional)?$/.exec(rating);
    assert.ok(m, where + ': rating ± 2σ: ' + rating);
    assert.equal(Boolean(m[3]), want.provisional, where + ': marked provisional as the API says');
    // Whole numbers on the page; the API's have one decimal.
    assert.ok(Math.abs(Number(m[1]) - want.rating) <= 0.5, where + ': rating ' + m[1] + ' vs ' + want.rating);
    assert.ok(Math.abs(Number(m[2]) - 2 * want.deviation) <= 0.5, where + ': 2σ ' + m[2] + ' vs 2 × ' + want.deviation);
    assert.ok(want.deviation < 350, where + ': rated, so the deviation shrank from 350: ' + want.deviation);
    assert.equal(games, String(want.games), where + ': rated pairs');
    assert.ok(want.games > 0, where + ': played');
    assert.match(last, /^\d{4}-\d\d-\d\d \d\d:\d\d UTC$/, where + ': last played');
  });
  console.log('leaderboard: ' + rows.map((r) => r.cells.slice(1, 4).join(' ')).join('; '));
}

// ---------------------------------------------------------------- a bot's page

function signed(n) {
  return (n >= 0 ? '+' : '') + n;
}

// The matches a bot played, from EXPECTED.json, by id. Match ids are random 64-bit numbers:
// strings here, as a JavaScript number would round them.
function matchesOf(bot) {
  const out = new Map();
  for (const [id, m] of Object.entries(expected.matches)) {
    const seat = m.seats.findIndex((s) => s.replace(/-v\d+$/, '') === bot);
    if (seat >= 0) out.set(id, { ...m, seat });
  }
  return out;
}

async function checkBotPage(page, bot) {
  await follow(page, 'main table.list a[href="/leaderboard/' + bot + '"]', '/leaderboard/' + bot);
  assert.equal(await heading(page), bot);
  await assertStyled(page, 2);
  assert.equal(await page.locator('main h3', { hasText: 'Recent matches' }).count(), 1, 'the recent matches');
  const rows = await page.$$eval('main table#recent tr', (trs) =>
    trs.slice(1).map((tr) => ({
      cells: [...tr.cells].map((td) => td.textContent.trim()),
      opponent: tr.cells[3].querySelector('a') && tr.cells[3].querySelector('a').getAttribute('href'),
      replay: tr.cells[5].querySelector('a') && tr.cells[5].querySelector('a').getAttribute('href'),
    })),
  );
  const want = matchesOf(bot);
  assert.equal(rows.length, want.size, bot + ' played ' + want.size + ' matches: ' + JSON.stringify(rows));
  const seen = new Set();
  for (const row of rows) {
    const id = (/^\/matches\/(\d+)\/replay$/.exec(row.replay || '') || [])[1];
    const m = want.get(id);
    assert.ok(m, 'a replay link of a match ' + bot + ' played: ' + JSON.stringify(row));
    seen.add(id);
    const other = 1 - m.seat;
    const opponent = m.seats[other].replace(/-v\d+$/, '');
    const [finished, version, seat, opp, chips] = row.cells;
    assert.match(finished, /^\d{4}-\d\d-\d\d \d\d:\d\d UTC$/, 'match ' + id + ': finished');
    assert.equal(version, m.seats[m.seat].replace(/^.*-(v\d+)$/, '$1'), 'match ' + id + ': version');
    assert.equal(seat, String(m.seat + 1), 'match ' + id + ': seat, from 1');
    assert.equal(opp, opponent, 'match ' + id + ': opponent');
    assert.equal(row.opponent, '/leaderboard/' + opponent, 'match ' + id + ': opponent link');
    assert.equal(chips, signed(m.chips[m.seat]) + ' / ' + signed(m.chips[other]), 'match ' + id + ': stored chips');
  }
  assert.equal(seen.size, want.size, 'each match once');
  const opponents = await checkRecord(page, bot);
  console.log(bot + "'s page: " + rows.length + ' matches with replay links, ' + opponents + ' opponents in its crosstable');
}

// A bot's versions and crosstable as the page shows them, against `/api/leaderboard/BOT`
// (whose numbers server/tests/it/ladder.rs checks against the stored results).
async function checkRecord(page, bot) {
  const api = await (await fetch(base + '/api/leaderboard/' + bot)).json();
  assert.equal(api.bot, bot);
  const table = (id) =>
    page.$$eval('main table#' + id + ' tr', (trs) =>
      trs.slice(1).map((tr) => ({
        cells: [...tr.cells].map((td) => td.textContent.trim()),
        link: tr.querySelector('a') && tr.querySelector('a').getAttribute('href'),
      })),
    );
  const perHand = (x) => (x === null ? '—' : (x >= 0 ? '+' : '') + x.toFixed(2));
  const versions = await table('versions');
  assert.equal(versions.length, api.versions.length, 'one row per version');
  versions.forEach((row, i) => {
    const v = api.versions[i];
    const [version, uploaded, state, rating, games, wdl, chips] = row.cells;
    assert.equal(version, 'v' + v.version, 'version');
    assert.match(uploaded, /^\d{4}-\d\d-\d\d \d\d:\d\d UTC$/, 'uploaded');
    assert.equal(state, v.state, 'v' + v.version + ': state');
    if (v.rating === null) assert.equal(rating, 'not rated yet');
    else {
      assert.match(rating, /^-?\d+ ± \d+( provisional)?$/, 'v' + v.version + ': rating');
      assert.equal(rating.endsWith(' provisional'), v.provisional, 'v' + v.version + ': marked provisional as the API says');
    }
    assert.equal(games, String(v.games), 'v' + v.version + ': games');
    assert.equal(wdl, v.pairs_won + '–' + v.pairs_drawn + '–' + v.pairs_lost, 'v' + v.version + ': W–D–L');
    // Two decimals on both sides; the page's from the exact ratio, the API's rounded.
    if (v.chips_per_hand === null) assert.equal(chips, '—');
    else assert.ok(Math.abs(Number(chips) - v.chips_per_hand) <= 0.011, 'v' + v.version + ': chips per hand ' + chips);
  });
  const cross = await table('crosstable');
  assert.equal(cross.length, api.crosstable.length, 'one row per opponent');
  assert.ok(cross.length > 0, bot + ' played rated pairs');
  cross.forEach((row, i) => {
    const c = api.crosstable[i];
    const [opponent, pairs, wdl, margin, perHandCell] = row.cells;
    assert.equal(opponent, c.opponent);
    assert.equal(row.link, '/leaderboard/' + c.opponent, c.opponent + ': link');
    assert.equal(pairs, String(c.pairs));
    assert.equal(wdl, c.won + '–' + c.drawn + '–' + c.lost);
    assert.equal(margin, (c.margin >= 0 ? '+' : '') + c.margin);
    assert.ok(Math.abs(Number(perHandCell) - c.margin_per_hand) <= 0.011, c.opponent + ': margin per hand ' + perHandCell + ' vs ' + perHand(c.margin_per_hand));
    if (i > 0) assert.ok(api.crosstable[i - 1].pairs >= c.pairs, 'most pairs first');
  });
  // The crosstable's first link leads to that opponent's page.
  const first = api.crosstable[0].opponent;
  await follow(page, 'main table#crosstable a[href="/leaderboard/' + first + '"]', '/leaderboard/' + first);
  assert.equal(await heading(page), first);
  await page.goBack();
  await page.waitForLoadState('load');
  assert.equal(await heading(page), bot);
  return cross.length;
}

// ---------------------------------------------------------------- a replay

// A key press on the page itself (the viewer's shortcuts do not act inside form fields).
async function key(page, name) {
  await page.evaluate(() => document.activeElement && document.activeElement.blur());
  await page.keyboard.press(name);
}

async function position(page) {
  return page.evaluate(() => ({
    hand: Number(document.querySelector('[data-testid="hand-number"]').dataset.hand),
    step: Number(document.querySelector('#log li.current').dataset.step),
  }));
}

// The kind of the step the page shows (`dealt`, `bet`, ...), from the log's current line.
async function currentKind(page) {
  return page.evaluate(() => document.querySelector('#log li.current').dataset.kind);
}

// Each seat's cards in the all-cards view: card codes, or 'down'.
async function cards(page) {
  return page.$$eval('[data-testid^="seat-"][data-seat]', (seats) =>
    seats
      .sort((a, b) => Number(a.dataset.seat) - Number(b.dataset.seat))
      .map((seat) => [...seat.querySelectorAll('[data-testid="card"]')].map((c) => (c.dataset.face === 'up' ? c.dataset.card : 'down'))),
  );
}

async function checkReplay(page, id) {
  const m = expected.matches[id];
  const url = '/matches/' + id + '/replay';
  const response = await follow(page, 'main table.list a[href="' + url + '"]', url);
  const csp = response.headers()['content-security-policy'] || '';
  // The viewer's script comes from this site (/assets/viewer.js), none is inline.
  assert.ok(csp.includes("default-src 'none'") && csp.includes("script-src 'self';"), 'the replay CSP: ' + csp);
  assert.ok(!/script-src[^;]*unsafe-inline/.test(csp), 'no inline script in the replay CSP: ' + csp);
  await page.waitForSelector('body[data-ready="true"]', { state: 'attached', timeout: 10000 });
  assert.equal(await page.locator('[data-testid="error"]').count(), 0, 'the viewer shows an error');

  // The seats, as stored.
  const names = await page.$$eval('[data-testid="seat-name"]', (n) => n.map((x) => x.textContent));
  assert.deepEqual(names, m.seats, 'seat names');

  // Steps: buttons and keys. A hand opens on its deal (the last card dealt: every seat's
  // cards on the table), as the arena's viewer opens every hand.
  await page.selectOption('[data-testid="view-select"]', 'all');
  let at = await position(page);
  const opened = at.step;
  assert.equal(at.hand, 0, 'opens on the first hand');
  assert.ok(opened > 0, 'opens after the hand\'s start, on its deal: ' + JSON.stringify(at));
  assert.equal(await currentKind(page), 'dealt', 'opens on the deal');
  assert.ok((await cards(page)).every((c) => c.length === 3), 'every seat has its cards as the page opens');
  await page.click('[data-testid="step-next"]');
  assert.deepEqual(await position(page), { hand: 0, step: opened + 1 }, 'the next-step button');
  await key(page, 'ArrowRight');
  assert.deepEqual(await position(page), { hand: 0, step: opened + 2 }, 'ArrowRight');
  await key(page, 'ArrowLeft');
  assert.deepEqual(await position(page), { hand: 0, step: opened + 1 }, 'ArrowLeft');
  await key(page, 'End');
  at = await position(page);
  // The log holds the hand's steps: End shows the last (a hand can end two steps after its
  // deal, when a bot packs at once).
  const steps = await page.evaluate(() => document.querySelectorAll('#log li').length);
  assert.deepEqual(at, { hand: 0, step: steps - 1 }, 'End goes to the end of the hand (' + steps + ' steps)');
  // The hands: three cards a seat, all different.
  const dealt = await cards(page);
  assert.equal(dealt.length, 2);
  dealt.forEach((c, seat) => {
    assert.equal(c.length, 3, 'seat ' + seat + ' has three cards: ' + JSON.stringify(dealt));
    c.forEach((card) => assert.match(card, /^[2-9TJQKA][cdhs]$/, 'seat ' + seat + ' card face up'));
  });
  assert.equal(new Set(dealt.flat()).size, 6, 'six different cards: ' + JSON.stringify(dealt));
  await key(page, ']');
  at = await position(page);
  assert.ok(at.hand === 1 && at.step > 0, '] goes to the next hand, on its deal: ' + JSON.stringify(at));
  assert.equal(await currentKind(page), 'dealt', '] opens the hand on its deal');
  await page.click('[data-testid="hand-prev"]');
  assert.deepEqual(await position(page), { hand: 0, step: opened }, 'the previous-hand button, back to the deal');

  // The faults: shown in their hands, without the bot's stderr.
  assert.ok(m.fault_hands.length > 0, 'the chosen match has faults');
  for (const hand of new Set(m.fault_hands)) {
    await page.fill('[data-testid="hand-input"]', String(hand + 1));
    await page.click('[data-testid="hand-go"]');
    await key(page, 'End');
    assert.equal((await position(page)).hand, hand, 'jumped to hand ' + (hand + 1));
    const faults = await page.locator('#log li[data-kind="fault"]').count();
    assert.ok(faults > 0, 'hand ' + (hand + 1) + ' shows its faults');
    assert.equal(await page.locator('[data-testid="fault-stderr"], [data-testid="step-stderr"]').count(), 0, 'no stderr block');
  }

  // The end: the totals and faults equal the stored result.
  await page.evaluate(() => {
    const next = document.querySelector('[data-testid="step-next"]');
    while (!next.disabled) next.click();
  });
  assert.ok(await page.locator('[data-testid="result"]').isVisible(), 'the result is shown at the end');
  const totals = await page.$$eval('[data-testid^="total-"]', (t) => t.map((x) => Number(x.textContent)));
  assert.deepEqual(totals, m.chips, 'chip totals at the end equal the stored result');
  const chips = await page.$$eval('[data-testid="seat-chips"]', (t) => t.map((x) => Number(x.textContent)));
  assert.deepEqual(chips, m.chips, 'chips at the seats at the end');
  const faults = await page.$$eval('[data-testid^="faults-"]', (t) => t.map((x) => Number(x.textContent)));
  assert.deepEqual(faults, m.faults, 'faults per seat');

  // No stderr anywhere: not in the rendered page, not in the HTML served to anyone.
  const text = await page.evaluate(() => document.body.innerText);
  const html = await (await fetch(origin + url)).text();
  // The replay travels gzipped in the page: inflated as the viewer inflates it.
  const embedded = await page.evaluate(async () => {
    const data = JSON.parse(document.getElementById('replay-data').textContent);
    const bytes = Uint8Array.from(atob(data.replay_gzip_base64), (c) => c.charCodeAt(0));
    return new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'))).text();
  });
  assert.ok(embedded.includes('"type":"result"'), 'the page embeds the whole replay');
  for (const [what, content] of [['the page', text], ['the served HTML', html], ['the embedded replay', embedded], ['the DOM', await page.content()]]) {
    assert.ok(!content.includes(expected.secret), what + ' shows the bot\'s stderr');
    assert.ok(!content.includes('Traceback'), what + ' shows a traceback');
  }

  // Back to the leaderboard.
  await follow(page, '#back-nav a[href="/leaderboard"]', '/leaderboard');
  console.log('replay of match ' + id + ': ' + m.seats.join(' v ') + ', totals ' + totals.join(' / ') + ', faults ' + faults.join(' / ') + ', no stderr');
}

// ---------------------------------------------------------------- signing up, in and out

const ACCOUNT = { name: 'erin', password: 'a long enough password' };
const UPLOAD = '# erin\'s first bot\nimport sys\n';

// Submits the form `form` and waits for the page it leads to.
async function submit(page, form, pathname) {
  await page.click(form + ' button[type="submit"]');
  try {
    await page.waitForURL((url) => url.pathname === pathname, { timeout: 10000 });
  } catch (error) {
    throw new Error('submitting ' + form + ' led to ' + page.url() + ', not ' + pathname + ': ' + (await page.textContent('body')));
  }
  await page.waitForLoadState('load');
}

// The forms as a browser sends them (with its Origin header and the page's form token): a
// new account signs up, uploads a bot, sees the version and its file, logs out, logs in.
async function checkAccount(page) {
  await open(page, base + '/register');
  await page.fill('form[action="/register"] [name="name"]', ACCOUNT.name);
  await page.fill('form[action="/register"] [name="display_name"]', 'Erin');
  await page.fill('form[action="/register"] [name="password"]', ACCOUNT.password);
  await page.fill('form[action="/register"] [name="confirm"]', ACCOUNT.password);
  await submit(page, 'form[action="/register"]', '/bots');
  assert.equal(await heading(page), 'My bots', 'signed up: ' + (await page.textContent('main')));
  await assertStyled(page, 2);
  assert.equal((await page.textContent('header .who')).trim(), ACCOUNT.name, 'logged in');

  await page.fill('form[action="/bots/upload"] [name="bot"]', 'erinbot');
  await page.selectOption('form[action="/bots/upload"] [name="language"]', 'python');
  await page.setInputFiles('form[action="/bots/upload"] [name="file"]', {
    name: 'bot.py',
    mimeType: 'text/x-python',
    buffer: Buffer.from(UPLOAD),
  });
  await submit(page, 'form[action="/bots/upload"]', '/bots/erinbot/versions/1');
  assert.equal(await heading(page), 'erinbot v1', 'uploaded: ' + (await page.textContent('main')));
  await assertStyled(page, 2);
  // No builder runs in this test: the version waits in the queue.
  assert.equal((await page.textContent('main .state')).trim(), 'uploaded');
  const file = '/bots/erinbot/versions/1/files/bot.py';
  const response = await follow(page, 'main a[href="' + file + '"]', file);
  assert.equal(await response.text(), UPLOAD, 'the uploaded file, as uploaded');
  assert.match(response.headers()['content-type'], /^text\/plain/, 'an uploaded file is shown as text');

  await open(page, base + '/leaderboard');
  assert.equal(await page.locator('main table.list tr').count(), expected.bots.length + 1, 'the leaderboard when logged in');
  await submit(page, 'header form[action="/logout"]', '/');
  assert.equal(await page.locator('header a[href="/login"]').count(), 1, 'logged out');
  assert.equal(await page.locator('header .who').count(), 0, 'logged out');

  await open(page, base + '/login');
  await page.fill('form[action="/login"] [name="name"]', ACCOUNT.name);
  await page.fill('form[action="/login"] [name="password"]', ACCOUNT.password);
  await submit(page, 'form[action="/login"]', '/bots');
  assert.equal((await page.textContent('header .who')).trim(), ACCOUNT.name, 'logged in again');
  assert.equal(await page.locator('main a[href="/bots/erinbot/versions/1"]').count(), 1, 'the upload is listed');
  console.log('signed up, uploaded a bot, saw its version and file, logged out and in');
}

run(
  async (session) => {
    await reportCspViolations(session.context);
    const page = await newPage(session);
    await checkMainPages(page);
    await checkLeaderboard(page);
    await checkBotPage(page, expected.focus);
    await checkReplay(page, expected.replay);
    await checkAccount(page);
    await page.close();
  },
  undefined,
  origin + '/',
);
