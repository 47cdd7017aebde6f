// Takes a screenshot of a page: node screenshot.js PAGE.html OUT.png [WIDTHxHEIGHT] [ACTIONS]
// ACTIONS is a comma-separated list run before the shot: "next:N" (step N times),
// "until:KIND" (step to the next event of that kind), "hand:N" (jump to hand N),
// "view:S" (view as seat S or "all"), "full" (the whole page, not just the window).
'use strict';

const { run, newPage, fileUrl } = require('./browser');

const [page, out, size = '1280x800', actions = ''] = process.argv.slice(2);
if (!page || !out) {
  console.error('usage: node screenshot.js PAGE.html OUT.png [WIDTHxHEIGHT] [ACTIONS]');
  process.exit(2);
}
const [width, height] = size.split('x').map(Number);

run(async (session) => {
  const tab = await newPage(session);
  await tab.goto(fileUrl(page));
  await tab.waitForSelector('body[data-ready="true"]', { state: 'attached', timeout: 10000 });
  let fullPage = false;
  for (const action of actions.split(',').filter(Boolean)) {
    const [name, arg] = action.split(':');
    if (name === 'next') for (let i = 0; i < Number(arg); i++) await tab.click('[data-testid="step-next"]');
    else if (name === 'hand') {
      await tab.fill('[data-testid="hand-input"]', arg);
      await tab.click('[data-testid="hand-go"]');
    } else if (name === 'view') await tab.selectOption('[data-testid="view-select"]', arg);
    else if (name === 'until') {
      // Step forward to the next event of this kind (e.g. until:revealed).
      await tab.evaluate((kind) => {
        const next = document.querySelector('[data-testid="step-next"]');
        do next.click();
        while (!next.disabled && document.querySelector('#log li.current').dataset.kind !== kind);
      }, arg);
    } else if (name === 'full') fullPage = true;
    else throw new Error('unknown action ' + action);
  }
  await tab.waitForTimeout(400); // let the seats' highlight transitions finish
  await tab.screenshot({ path: out, fullPage });
}, { width, height });
