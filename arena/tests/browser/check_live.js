// Checks the live view of `arena match --watch` in headless Chromium while the match is
// played:
//
//   node check_live.js URL REPLAY.jsonl SEED
//
// * the page loads from the arena's own server (no other network request, no script error),
//   says it is live, and shows the seed exactly;
// * records keep arriving, and with "Follow" on the table shows the newest hand;
// * the hand log is in step with the table while records arrive (the match is paced, so a
//   hand gets many records after the page first drew it): its current entry is the step on
//   the table, it has an entry for every step of the hand, and the pot it names is the table's;
// * stepping back turns "Follow" off and keeps the chosen step while records arrive;
// * when the match ends the page says "finished" and holds every line of the replay file;
// * a page opened after the end (the arena keeps serving) opens on the first hand's deal,
//   not following;
// * a request without the token is refused.
'use strict';

const fs = require('fs');
const assert = require('assert/strict');
const { run, newPage } = require('./browser');

const [url, replayFile, seed] = process.argv.slice(2);
const origin = new URL(url).origin + '/';

// The log and the table, read in the page at one moment: whether they show the same step.
function logAndTableInPage() {
  const v = window.replayViewer;
  const hand = v.match.hands[v.hi];
  const entries = [...document.querySelectorAll('#log li')];
  const current = document.querySelector('#log li.current');
  const text = current ? current.textContent : null;
  const pot = text && /pot (?:of )?(\d+)/.exec(text);
  return {
    hand: hand.number,
    step: v.si,
    steps: hand.steps.length,
    entries: entries.length,
    visible: entries.filter((li) => !li.hidden).length,
    currentStep: current ? Number(current.dataset.step) : -1,
    currentText: text,
    lastEvent: document.getElementById('last-event').textContent,
    logPot: pot ? Number(pot[1]) : null,
    tablePot: Number(document.getElementById('pot').textContent),
  };
}

function checkLogAndTable(at, where) {
  const what = where + ': ' + JSON.stringify(at);
  assert.equal(at.entries, at.steps, 'one log entry per step of the hand shown: ' + what);
  assert.equal(at.currentStep, at.step, 'the current log entry is the step on the table: ' + what);
  assert.equal(at.visible, at.step + 1, 'the log shows the steps up to the table\'s: ' + what);
  assert.equal(at.currentText, at.lastEvent, 'the log and the table describe the same step: ' + what);
  if (at.logPot !== null) assert.equal(at.logPot, at.tablePot, 'the pot in the log is the table\'s: ' + what);
}

async function records(page) {
  return Number(await page.evaluate(() => document.body.dataset.liveRecords || '0'));
}

run(async (session) => {
  const page = await newPage(session);
  await page.goto(url);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 20000 });
  assert.equal(await page.textContent('[data-testid="live-status"]'), 'live');
  assert.match(await page.textContent('[data-testid="match-title"]'), /^Live: /);
  const info = await page.textContent('[data-testid="match-info"]');
  assert.ok(info.includes('seed ' + seed), 'the exact seed in: ' + info);

  // Without the token: refused (asked from Node, so the page's console stays clean).
  for (const path of ['', 'events', 'matches', 'events?token=0']) {
    assert.equal((await fetch(origin + path)).status, 403, path);
  }

  // Records keep coming, and the newest hand is on the table.
  const first = await records(page);
  await page.waitForFunction((n) => Number(document.body.dataset.liveRecords) > n + 50, first, { timeout: 20000 });
  await page.waitForTimeout(400);
  const following = await page.evaluate(() => {
    const v = window.replayViewer;
    return { hi: v.hi, hands: v.match.hands.length, label: document.getElementById('hand-number').textContent };
  });
  assert.ok(following.hi >= following.hands - 2, 'follows the newest hand: ' + JSON.stringify(following));

  // While following, the log keeps up with the table: sampled as records arrive, within
  // hands the page had drawn before (the paced match sends a hand's steps one at a time).
  let sameHand = 0;
  let previous = null;
  for (let i = 0; i < 24; i++) {
    await page.waitForTimeout(230);
    const at = await page.evaluate(logAndTableInPage);
    checkLogAndTable(at, 'following, sample ' + i);
    if (previous && previous.hand === at.hand && previous.step !== at.step) sameHand += 1;
    previous = at;
  }
  assert.ok(sameHand >= 3, 'the samples saw hands grow while shown (' + sameHand + ' times): pace the match');

  // Stepping back stops following; the step stays while the match goes on.
  await page.click('[data-testid="hand-prev"]');
  assert.equal(await page.isChecked('[data-testid="live-follow"]'), false);
  const held = await page.evaluate(() => window.replayViewer.hi);
  const before = await records(page);
  await page.waitForFunction((n) => Number(document.body.dataset.liveRecords) > n + 20, before, { timeout: 20000 });
  await page.waitForTimeout(400);
  assert.equal(await page.evaluate(() => window.replayViewer.hi), held, 'the chosen hand stays');

  // The end: every line of the replay file is in the page.
  await page.waitForFunction(
    () => document.querySelector('[data-testid="live-status"]').textContent === 'finished',
    null,
    { timeout: 60000 },
  );
  await page.waitForTimeout(300);
  const lines = fs.readFileSync(replayFile, 'utf8').split('\n').filter((l) => l.trim() !== '');
  assert.equal(await records(page), lines.length, 'every replay line reached the page');
  const result = await page.evaluate(() => window.replayViewer.match.result && window.replayViewer.match.result.type);
  assert.equal(result, 'result');

  // Opened after the end: the first hand's deal, every seat's cards on the table.
  const late = await newPage(session);
  await late.goto(url);
  await late.waitForSelector('body[data-ready="true"]', { timeout: 20000 });
  await late.waitForFunction(
    () => document.querySelector('[data-testid="live-status"]').textContent === 'finished',
    null,
    { timeout: 20000 },
  );
  assert.equal(await late.isChecked('[data-testid="live-follow"]'), false, 'a finished match is not followed');
  const opened = await late.evaluate(() => ({
    hi: window.replayViewer.hi,
    kind: document.querySelector('#log li.current').dataset.kind,
    cards: [...document.querySelectorAll('[data-testid^="seat-"][data-seat]')].map((s) => s.querySelectorAll('[data-testid="card"]').length),
  }));
  assert.deepEqual(opened, { hi: 0, kind: 'dealt', cards: [3, 3] }, 'opens on the first hand\'s deal');
  checkLogAndTable(await late.evaluate(logAndTableInPage), 'opened after the end');
  await late.close();
  console.log('live view: ' + lines.length + ' lines streamed, followed in step, held, finished and reopened');
}, undefined, origin);
