// Checks the decision lines of a replay page in headless Chromium against its replay file
// (a match played with `--logs`, whose bots write to stderr at every decision):
//
//   node check_decision_logs.js REPLAY.jsonl PAGE.html
//
// * at every step of the first hand, the line under the last event names the deciding bot,
//   its time and its bank left ("name: 12 ms, bank 10,000 ms") exactly when the step is the
//   event of a bot's action, and is empty otherwise;
// * the Logs toggle is shown (the replay kept lines), off by default: no stderr in the log;
// * switched on, each decision's entry in the log holds exactly its recorded lines; the
//   choice is remembered across a reload;
// * viewed as seat 1, only seat 1's lines are shown; back to all cards, every seat's again.
'use strict';

const fs = require('fs');
const assert = require('assert/strict');
const { run, newPage, fileUrl } = require('./browser');

const [replayFile, pageFile] = process.argv.slice(2);
const records = fs
  .readFileSync(replayFile, 'utf8')
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line) => JSON.parse(line));
const names = records[0].bots.map((b) => b.name);
const grouped = (n) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

// The first hand's steps (this match has no faults), each with the action record before it.
const firstHand = records.find((r) => r.type === 'event').hand;
const steps = [];
let decision = null;
for (const r of records) {
  if (r.type === 'action') decision = r;
  if (r.type === 'event' && r.hand === firstHand) {
    steps.push({ event: r.event, decision });
    decision = null;
  } else if (r.type === 'event') {
    decision = null;
  }
}
const timeOf = (d) =>
  d && d.source === 'bot' ? names[d.seat] + ': ' + grouped(d.elapsed_ms) + ' ms, bank ' + grouped(d.bank_ms) + ' ms' : '';
const linesOf = (d) => {
  const lines = (d && d.stderr_lines) || [];
  return d && d.stderr_dropped ? lines.concat(['[' + d.stderr_dropped + ' more lines not kept]']) : lines;
};
assert.ok(steps.some((s) => s.decision && s.decision.source === 'bot'), 'the first hand has bot decisions');
assert.ok(steps.some((s) => linesOf(s.decision).length > 0), 'the replay kept stderr lines');

async function shownLines(page) {
  return page.$$eval('[data-testid="log-entry"]:not([hidden])', (entries) =>
    entries.map((li) => {
      const pre = li.querySelector('[data-testid="step-stderr"]');
      return pre ? { seat: Number(pre.dataset.seat), text: pre.textContent } : null;
    }),
  );
}

async function open(page) {
  await page.goto(fileUrl(pageFile));
  await page.waitForSelector('body[data-ready="true"]', { state: 'attached', timeout: 10000 });
}

run(async (session) => {
  const page = await newPage(session);
  await open(page);
  const toggle = page.getByTestId('logs-toggle');
  assert.ok(await toggle.isVisible(), 'the Logs toggle is offered');
  assert.equal(await toggle.isChecked(), false, 'logs are off by default');
  // The page opens on the deal; the hand's first step is one Home away.
  await page.keyboard.press('Home');
  for (let i = 0; i < steps.length; i++) {
    if (i > 0) await page.keyboard.press('ArrowRight');
    const time = (await page.getByTestId('decision-time').textContent()).trim();
    assert.equal(time, timeOf(steps[i].decision), 'step ' + (i + 1) + ' (' + steps[i].event + ')');
    assert.ok((await shownLines(page)).every((l) => l === null), 'no stderr while logs are off');
  }
  // At the end of the hand every entry is shown.
  await toggle.click();
  const expected = steps.map((s) => {
    const lines = linesOf(s.decision);
    return lines.length > 0 ? { seat: s.decision.seat, text: lines.join('\n') } : null;
  });
  assert.deepEqual(await shownLines(page), expected);
  // Remembered: a reload shows the lines again (after stepping to the hand's end).
  await open(page);
  assert.equal(await page.getByTestId('logs-toggle').isChecked(), true, 'the choice is remembered');
  await page.keyboard.press('End');
  assert.deepEqual(await shownLines(page), expected);
  // As seat 1: its own lines only; the times stay.
  await page.getByTestId('view-select').selectOption('1');
  const mine = expected.map((l) => (l && l.seat === 1 ? l : null));
  assert.ok(mine.some((l) => l !== null), 'seat 1 decided in the first hand');
  assert.ok(expected.some((l) => l !== null && l.seat !== 1), 'another seat decided too');
  assert.deepEqual(await shownLines(page), mine);
  await page.getByTestId('view-select').selectOption('all');
  assert.deepEqual(await shownLines(page), expected);
  // Off again: gone.
  await page.getByTestId('logs-toggle').click();
  assert.ok((await shownLines(page)).every((l) => l === null));
  console.log('decision logs: ' + steps.length + ' steps checked');
});
