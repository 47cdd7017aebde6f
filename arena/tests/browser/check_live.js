// Checks the live view of `arena match --watch` in headless Chromium while the match is
// played:
//
//   node check_live.js URL REPLAY.jsonl SEED
//
// * the page loads from the arena's own server (no other network request, no script error),
//   says it is live, and shows the seed exactly;
// * records keep arriving, and with "Follow" on the table shows the newest hand;
// * stepping back turns "Follow" off and keeps the chosen step while records arrive;
// * when the match ends the page says "finished" and holds every line of the replay file;
// * a request without the token is refused.
'use strict';

const fs = require('fs');
const assert = require('assert/strict');
const { run, newPage } = require('./browser');

const [url, replayFile, seed] = process.argv.slice(2);
const origin = new URL(url).origin + '/';

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
  console.log('live view: ' + lines.length + ' lines streamed, followed, held and finished');
}, undefined, origin);
