// Checks the SPRT panel of an SPRT tournament's report in headless Chromium:
//
//   node check_sprt_report.js REPORT.html STANDINGS.json [CAVEAT]
//
// * the panel is shown, with the verdict sentence of STANDINGS.json's `sprt` object exactly;
// * its details give H0, H1, the LLR with its bounds, and the estimator with its revision;
// * with CAVEAT, a note holding that text is shown; without it, no note;
// * no network request was attempted and no script error happened.
'use strict';

const fs = require('fs');
const assert = require('assert/strict');
const { run, newPage, fileUrl } = require('./browser');

const [report, standingsFile, caveat] = process.argv.slice(2);
if (!report || !standingsFile) {
  console.error('usage: node check_sprt_report.js REPORT.html STANDINGS.json [CAVEAT]');
  process.exit(2);
}

run(async (session) => {
  const sprt = JSON.parse(fs.readFileSync(standingsFile, 'utf8')).sprt;
  assert.ok(sprt, standingsFile + ' has no sprt object');
  const page = await newPage(session);
  await page.goto(fileUrl(report));
  await page.waitForSelector('body[data-ready="true"]', { state: 'attached', timeout: 10000 });
  assert.ok(await page.locator('[data-testid="sprt"]').isVisible(), 'the SPRT panel is shown');
  assert.equal(await page.textContent('[data-testid="sprt-verdict"]'), sprt.verdict);
  const details = await page.$$eval('#sprt-details li', (nodes) => nodes.map((n) => n.textContent));
  assert.equal(details[0], sprt.h0);
  assert.equal(details[1], sprt.h1);
  assert.ok(details[2].startsWith('LLR ') && details[2].includes('after ' + sprt.blocks + ' duplicate blocks'), details[2]);
  const estimator = details.find((d) => d.startsWith("Each block's observation: "));
  assert.ok(estimator && estimator.includes(sprt.estimator), 'the estimator in: ' + details.join(' | '));
  if (sprt.estimator_revision !== undefined) {
    assert.ok(estimator.endsWith('. Estimator revision ' + sprt.estimator_revision + '.'), estimator);
  }
  const notes = await page.$$eval('[data-testid="sprt-caveat"]', (nodes) => nodes.map((n) => n.textContent));
  if (caveat) {
    assert.equal(notes.length, 1, 'one note');
    assert.ok(notes[0].startsWith('Note: ') && notes[0].includes(caveat), notes[0]);
  } else {
    assert.deepEqual(notes, [], 'no note');
  }
  console.log(report + ': OK (SPRT panel' + (caveat ? ', with its note' : '') + ')');
});
