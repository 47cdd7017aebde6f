// Shared by the browser checks: launching Debian's Chromium headless through playwright-core,
// with every network request blocked (only file: and data: URLs may load) and recorded.
'use strict';

const fs = require('fs');
const os = require('os');
const path = require('path');
const { pathToFileURL } = require('url');
const { chromium } = require('playwright-core');

const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

// A browser context in a fresh user-data-dir. `blocked` collects every request that was not
// file: or data: (each was aborted), nor under `allowed` (an origin such as the live view's
// http://127.0.0.1:PORT/); `errors` collects page errors and console errors.
async function launch(viewport, allowed) {
  const mayLoad = (url) =>
    url.startsWith('file:') || url.startsWith('data:') || (allowed !== undefined && url.startsWith(allowed));
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arena-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: ARGS,
    viewport: viewport || { width: 1280, height: 800 },
    offline: false,
  });
  const session = { context, userDataDir, blocked: [], errors: [] };
  await context.route('**', (route) => {
    const url = route.request().url();
    if (mayLoad(url)) return route.continue();
    session.blocked.push(url);
    return route.abort();
  });
  context.on('request', (request) => {
    const url = request.url();
    if (!mayLoad(url) && !session.blocked.includes(url)) {
      session.blocked.push(url);
    }
  });
  return session;
}

function watch(session, page) {
  page.on('pageerror', (error) => session.errors.push('page error: ' + error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') session.errors.push('console error: ' + message.text());
  });
  return page;
}

async function newPage(session) {
  return watch(session, await session.context.newPage());
}

async function close(session) {
  await session.context.close();
  fs.rmSync(session.userDataDir, { recursive: true, force: true });
}

function fileUrl(file) {
  return pathToFileURL(path.resolve(file)).href;
}

// Throws unless the page made no network request and logged no error.
function assertClean(session) {
  if (session.blocked.length > 0) throw new Error('network requests were attempted: ' + session.blocked.join(', '));
  if (session.errors.length > 0) throw new Error(session.errors.join('\n'));
}

// Proves that the guard works: a page asking for an http: URL (on the loopback address,
// port 9) must be stopped and recorded. The probe is then forgotten.
async function probeBlocking(session) {
  const probe = 'http://127.0.0.1:9/arena-network-probe.png';
  const page = await session.context.newPage();
  await page.setContent('<img src="' + probe + '">');
  await page.waitForFunction(() => document.images[0].complete);
  await page.close();
  if (!session.blocked.includes(probe)) throw new Error('the network guard did not see a request to ' + probe);
  session.blocked = session.blocked.filter((url) => url !== probe);
}

// Runs `body(session)` in a browser, closes it, and exits non-zero on failure.
function run(body, viewport, allowed) {
  (async () => {
    const session = await launch(viewport, allowed);
    try {
      await probeBlocking(session);
      await body(session);
      assertClean(session);
    } catch (error) {
      if (session.errors.length > 0) error.message += '\n' + session.errors.join('\n');
      throw error;
    } finally {
      await close(session);
    }
  })().then(
    () => process.exit(0),
    (error) => {
      console.error('FAILED: ' + (error && error.stack ? error.stack : error));
      process.exit(1);
    },
  );
}

module.exports = { launch, newPage, close, fileUrl, assertClean, run };
