// Checks a tournament report in headless Chromium against the tournament's output directory:
//
//   node check_report.js DIR REPORT.html [all|none|sample:N]
//
// * the standings rows equal DIR/standings.json (order, rank, name, chips per hand, interval,
//   total chips, W-L-D, rating, hands, faults), each with its interval bar;
// * the crosstable cells equal its crosstable entries (edge and significance mark);
// * one chips-over-time line per bot, ending at its total chips;
// * the faults table's totals; one match row per line of DIR/results.jsonl;
// * every replay link opens a replay page that loads (no script error, the right bots and
//   number of hands, the exact seed of its replay file, opened on the first hand's deal)
//   through the shared viewer beside it, and the first one is followed by a real click and
//   its back link; with `--replays` given as the third argument, exactly the matches it
//   selects have a link and the others say so;
// * the tournament's seed exactly as in DIR/plan.json;
// * no network request was attempted and no script error happened.
'use strict';

const fs = require('fs');
const path = require('path');
const assert = require('assert/strict');
const { run, newPage, fileUrl } = require('./browser');

function signed(x, digits) {
  const text = x.toFixed(digits);
  return x > 0 || (x === 0 && !text.startsWith('-')) ? '+' + text : text;
}

function close(a, b, where) {
  assert.ok(Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b)), where + ': ' + a + ' != ' + b);
}

function totalFaults(faults) {
  return Object.values(faults || {}).reduce((a, b) => a + b, 0);
}

// An integer field as written in a JSON file (JSON.parse would round a 64-bit one).
function integerText(file, field) {
  return new RegExp('"' + field + '":\\s*(\\d+)').exec(fs.readFileSync(file, 'utf8'))[1];
}

// The match indices that `--replays` gives a page (arena/src/html/report_page.rs: N spread
// evenly, the first included).
function selected(selection, indices) {
  if (selection === 'all') return indices;
  if (selection === 'none') return [];
  const n = Number(/^sample:(\d+)$/.exec(selection)[1]);
  if (n >= indices.length) return indices;
  return Array.from({ length: n }, (_, i) => indices[Math.floor((i * indices.length) / n)]);
}

function readResults(dir) {
  return fs
    .readFileSync(path.join(dir, 'results.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line))
    .sort((a, b) => a.index - b.index);
}

// ---------------------------------------------------------------- in the page

function standingsInPage() {
  return [...document.querySelectorAll('[data-testid="standings-row"]')].map((row) => {
    const cell = (col) => row.querySelector('[data-col="' + col + '"]');
    const ci = cell('ci');
    return {
      bot: row.dataset.bot,
      rank: cell('rank').textContent,
      tier: cell('tier').textContent,
      name: cell('name').textContent,
      chips_per_hand: cell('chips_per_hand').textContent,
      ci: ci.dataset.low === '' ? null : { low: Number(ci.dataset.low), high: Number(ci.dataset.high) },
      ciText: ci.querySelector('.ci-text').textContent,
      bars: ci.querySelectorAll('[data-testid="ci-bar"]').length,
      chips: cell('chips').textContent,
      wld: cell('wld').textContent,
      rating: cell('rating').textContent,
      hands: cell('hands').textContent,
      faults: cell('faults').textContent,
    };
  });
}

function otherSectionsInPage() {
  return {
    cross: [...document.querySelectorAll('[data-testid="crosstable-cell"]')].map((c) => ({
      bot: c.dataset.bot,
      opponent: c.dataset.opponent,
      edge: Number(c.dataset.edge),
      mark: c.dataset.mark,
    })),
    lines: [...document.querySelectorAll('[data-testid="chips-line"]')].map((l) => ({
      bot: l.dataset.bot,
      final: Number(l.dataset.final),
      points: l.getAttribute('points').trim().split(/\s+/).length,
    })),
    faults: [...document.querySelectorAll('[data-testid="faults-row"]')].map((r) => ({
      bot: r.dataset.bot,
      total: Number(r.querySelector('[data-col="total"]').textContent),
    })),
    matches: [...document.querySelectorAll('[data-testid="match-row"]')].map((r) => Number(r.dataset.index)),
    links: [...document.querySelectorAll('[data-testid="replay-link"]')].map((a) => ({ index: Number(a.dataset.index), href: a.href })),
    omitted: [...document.querySelectorAll('[data-testid="replay-omitted"]')].map((s) => Number(s.closest('tr').dataset.index)),
    legend: (document.querySelector('[data-testid="standings-legend"]') || { textContent: '' }).textContent,
  };
}

// ---------------------------------------------------------------- checks

function checkStandings(rows, standings) {
  assert.equal(rows.length, standings.bots.length, 'one standings row per bot');
  standings.bots.forEach((bot, i) => {
    const row = rows[i];
    const where = 'standings row ' + (i + 1) + ' (' + bot.name + ')';
    assert.equal(row.bot, bot.name, where + ': bot');
    assert.equal(row.name, bot.name, where + ': name');
    assert.equal(row.rank, String(bot.rank), where + ': rank');
    assert.equal(row.tier, String(bot.tier), where + ': tier');
    assert.equal(row.chips_per_hand, signed(bot.chips_per_hand, 3), where + ': chips per hand');
    if (bot.ci === null) {
      assert.equal(row.ci, null, where + ': interval');
      assert.equal(row.ciText, 'unbounded', where + ': interval text');
    } else {
      close(row.ci.low, bot.ci.low, where + ': interval low');
      close(row.ci.high, bot.ci.high, where + ': interval high');
      assert.equal(row.ciText, '[' + signed(bot.ci.low, 3) + ', ' + signed(bot.ci.high, 3) + ']', where + ': interval text');
    }
    assert.equal(row.bars, 1, where + ': interval bar');
    assert.equal(row.chips, signed(bot.chips, 0), where + ': total chips');
    assert.equal(row.wld, bot.won + '-' + bot.lost + '-' + bot.drawn, where + ': W-L-D');
    const error = bot.rating_error === null ? 'inf' : bot.rating_error.toFixed(0);
    assert.equal(row.rating, signed(bot.rating, 0) + ' \u00b1 ' + error, where + ': rating');
    assert.equal(row.hands, String(bot.hands), where + ': hands');
    assert.equal(row.faults, String(totalFaults(bot.faults)), where + ': faults');
  });
}

function checkSections(shown, standings, results) {
  assert.equal(shown.cross.length, standings.crosstable.length, 'one crosstable cell per pair that met');
  for (const entry of standings.crosstable) {
    const cell = shown.cross.find((c) => c.bot === entry.bot && c.opponent === entry.opponent);
    assert.ok(cell, 'crosstable cell ' + entry.bot + ' vs ' + entry.opponent);
    close(cell.edge, entry.edge_per_hand, 'crosstable ' + entry.bot + ' vs ' + entry.opponent);
    assert.equal(cell.mark, entry.mark, 'crosstable mark ' + entry.bot + ' vs ' + entry.opponent);
  }
  assert.equal(shown.lines.length, standings.bots.length, 'one chips line per bot');
  for (const bot of standings.bots) {
    const line = shown.lines.find((l) => l.bot === bot.name);
    assert.equal(line.final, bot.chips, 'chips line of ' + bot.name + ' ends at its total');
    assert.equal(line.points, results.length + 1, 'chips line of ' + bot.name + ': a point per match');
  }
  for (const bot of standings.bots) {
    const row = shown.faults.find((f) => f.bot === bot.name);
    assert.equal(row.total, totalFaults(bot.faults), 'faults of ' + bot.name);
  }
  assert.deepEqual(shown.matches, results.map((r) => r.index), 'one match row per result, in index order');
}

// Opens every replay link in a tab of its own and checks that the page loads.
async function checkReplayPages(session, shown, results, dir, selection) {
  const links = shown.links;
  const withReplay = results.filter((r) => r.replay && fs.existsSync(path.join(dir, r.replay))).map((r) => r.index);
  const chosen = selected(selection, withReplay);
  assert.deepEqual(links.map((l) => l.index), chosen, 'a replay link per selected match with a replay (' + selection + ')');
  assert.deepEqual(shown.omitted, withReplay.filter((i) => !chosen.includes(i)), 'the other matches say their replay is not included');
  const tab = await newPage(session);
  for (const link of links) {
    const record = results.find((r) => r.index === link.index);
    await tab.goto(link.href);
    await tab.waitForSelector('body[data-ready="true"]', { state: 'attached', timeout: 10000 });
    assert.equal(await tab.locator('[data-testid="error"]').count(), 0, link.href + ' shows an error');
    const names = await tab.$$eval('[data-testid="seat-name"]', (nodes) => nodes.map((n) => n.textContent));
    assert.deepEqual(names, record.seats, link.href + ': the bots of match ' + record.index);
    const hands = await tab.$$eval('[data-testid="hand-select"] option', (options) => options.length);
    assert.equal(hands, record.hands, link.href + ': hands');
    // It opens on the first hand's deal: every seat has its three cards on the table.
    const opened = await tab.evaluate(() => ({
      kind: document.querySelector('#log li.current').dataset.kind,
      cards: [...document.querySelectorAll('[data-testid^="seat-"][data-seat]')].map((seat) => seat.querySelectorAll('[data-testid="card"]').length),
    }));
    assert.equal(opened.kind, 'dealt', link.href + ': opens on the deal');
    assert.deepEqual(opened.cards, record.seats.map(() => 3), link.href + ': every seat has its cards as it opens');
    const seed = integerText(path.join(dir, record.replay), 'seed');
    const info = await tab.textContent('[data-testid="match-info"]');
    assert.ok(info.includes('seed ' + seed + ' '), link.href + ': the exact seed ' + seed + ' in: ' + info);
    // One viewer for all: the page links viewer.js and holds no script of its own.
    const scripts = await tab.$$eval('script', (nodes) => nodes.map((n) => ({ src: n.getAttribute('src'), type: n.type, inline: n.textContent.length })));
    assert.deepEqual(scripts.filter((x) => x.type !== 'application/json'), [{ src: 'viewer.js', type: '', inline: 0 }], link.href + ': the shared viewer');
    assert.ok(await tab.locator('[data-testid="back-link"]').isVisible(), link.href + ': back link');
  }
  await tab.close();
}

// Follows the first replay link with a real click, then its back link.
async function followFirstLink(page, reportUrl) {
  const first = page.locator('[data-testid="replay-link"]').first();
  if ((await first.count()) === 0) return;
  await Promise.all([page.waitForURL(/match-\d{6}\.html/), first.click()]);
  await page.waitForSelector('body[data-ready="true"]', { state: 'attached', timeout: 10000 });
  await page.click('[data-testid="step-next"]');
  await Promise.all([page.waitForURL(reportUrl), page.click('[data-testid="back-link"]')]);
  await page.waitForSelector('body[data-ready="true"]', { state: 'attached', timeout: 10000 });
}

const [dir, report, selection = 'all'] = process.argv.slice(2);
if (!dir || !report) {
  console.error('usage: node check_report.js TOURNAMENT_DIR REPORT.html');
  process.exit(2);
}

run(async (session) => {
  const standings = JSON.parse(fs.readFileSync(path.join(dir, 'standings.json'), 'utf8'));
  const results = readResults(dir);
  const page = await newPage(session);
  const url = fileUrl(report);
  await page.goto(url);
  await page.waitForSelector('body[data-ready="true"]', { state: 'attached', timeout: 10000 });
  checkStandings(await page.evaluate(standingsInPage), standings);
  const shown = await page.evaluate(otherSectionsInPage);
  for (const column of ['Rating', 'Tier', 'Chips/hand', 'W-L-D']) {
    assert.ok(shown.legend.includes(column), 'the standings legend explains ' + column);
  }
  checkSections(shown, standings, results);
  const seed = integerText(path.join(dir, 'plan.json'), 'seed');
  const info = await page.textContent('[data-testid="report-info"]');
  assert.ok(info.includes('seed ' + seed), 'the tournament seed ' + seed + ' exactly in: ' + info);
  assert.ok(await page.locator('[data-testid="chips-chart"]').isVisible(), 'the chips chart is shown');
  assert.ok(await page.locator('[data-testid="crosstable"]').isVisible(), 'the crosstable is shown');
  assert.ok(await page.locator('[data-testid="faults-table"]').isVisible(), 'the faults table is shown');
  await checkReplayPages(session, shown, results, dir, selection);
  await followFirstLink(page, url);
  console.log(report + ': OK (' + standings.bots.length + ' bots, ' + results.length + ' matches, ' + shown.links.length + ' replay pages opened)');
});
