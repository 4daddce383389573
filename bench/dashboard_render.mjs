// 数据大屏 in the browser: its first render against the target (1.5 s, issue 15), beside the login page's
// (the app shell with no data: the ceiling this machine and browser set, measured in the same run).
//
// Starts `powerportal serve` with the demo on a scratch SQLite database and Debian's Chromium, as the
// browser tests do (needs `cd web && npm ci && npm run build`, and uv on the PATH). Each load is a new
// tab, in a context that keeps its cache (a screen opened again) and in a fresh one (an empty cache, a
// first visit), timed from navigation until the map's canvas and the top-ten tile are drawn; the login
// page until its form shows. Rounds take turns.
//
//     node bench/dashboard_render.mjs [--rounds 7] [--rtt 80]
//
// `--rtt` adds that many milliseconds to every request (Chromium's network emulation): a screen far
// from its server, where chunks and calls that wait on each other cost a round trip each.
//
// The JS heap over 100 refresh cycles is a test (`web/e2e/dashboard.test.mjs`): a leak is a bug at any speed.
import { launchBrowser, loginWithPassword, newPage, startServer } from '../web/e2e/support.mjs';

const TARGET_MS = 1_500;
const at = process.argv.indexOf('--rounds');
const ROUNDS = at > 0 ? Number(process.argv[at + 1]) : 7;
const rttAt = process.argv.indexOf('--rtt');
const RTT_MS = rttAt > 0 ? Number(process.argv[rttAt + 1]) : 0;

/** A logged-in session's token (session storage), so that a new page can start logged in. */
async function token(browser, server) {
  const page = await newPage(browser);
  await page.goto(`${server.base}/login`);
  await loginWithPassword(page);
  await page.waitForURL(/\/dashboard$/);
  const value = await page.evaluate(() => sessionStorage.getItem('SYSTOKEN'));
  await page.context().close();
  return value;
}

/** Milliseconds from navigating a new page of `context` to `url` until `ready`. */
async function timed(context, url, ready) {
  const page = await context.newPage();
  if (RTT_MS > 0) {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false, latency: RTT_MS, downloadThroughput: -1, uploadThroughput: -1,
    });
  }
  const errors = [];
  page.on('pageerror', (error) => errors.push(String(error)));
  const started = performance.now();
  await page.goto(url);
  await ready(page);
  const ms = performance.now() - started;
  await page.close();
  if (errors.length) throw new Error(errors.join('\n'));
  return ms;
}

const loginReady = (page) => page.getByTestId('login-submit').waitFor();

async function mapDrawn(page) {
  await page.getByTestId('china-map').locator('canvas').first().waitFor();
  await page.getByTestId('tile-top').waitFor();
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

function summary(values) {
  return `median ${median(values).toFixed(0)} ms, best ${Math.min(...values).toFixed(0)}, worst ${Math.max(...values).toFixed(0)}`;
}

const server = await startServer();
const browser = await launchBrowser();
try {
  const systoken = await token(browser, server);
  // The login page's contexts carry no token (logged in, /login goes on to the dashboard).
  const newContext = async (name) => {
    const context = await browser.newContext({ viewport: { width: 1920, height: 1080 }, locale: 'zh-CN' });
    if (name === 'dashboard') await context.addInitScript((t) => sessionStorage.setItem('SYSTOKEN', t), systoken);
    return context;
  };
  const pages = { login: ['/login', loginReady], dashboard: ['/dashboard', mapDrawn] };
  const times = { cold: { login: [], dashboard: [] }, warm: { login: [], dashboard: [] } };
  const warm = {};
  for (const [name, [url, ready]] of Object.entries(pages)) {
    warm[name] = await newContext(name);
    await timed(warm[name], `${server.base}${url}`, ready); // fills the warm context's cache
  }
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const [name, [url, ready]] of Object.entries(pages)) {
      const cold = await newContext(name);
      times.cold[name].push(await timed(cold, `${server.base}${url}`, ready));
      await cold.close();
      times.warm[name].push(await timed(warm[name], `${server.base}${url}`, ready));
    }
  }
  const network = RTT_MS > 0 ? `, ${RTT_MS} ms added to every request` : '';
  console.log(`数据大屏 first render, ${ROUNDS} loads of each at 1920×1080 (demo, Debian Chromium headless${network})`);
  for (const [state, label] of [['warm', 'cached scripts (a returning screen)'], ['cold', 'empty cache (a first visit)']]) {
    const { login, dashboard } = times[state];
    console.log(`  ${label}:`);
    console.log(`    /dashboard to the map drawn: ${summary(dashboard)}`);
    console.log(`    /login to its form (ceiling: the app shell alone): ${summary(login)}`);
    console.log(`    the data and the map add ${(median(dashboard) - median(login)).toFixed(0)} ms to the shell`);
  }
  const drawn = median(times.warm.dashboard);
  console.log(`  target: under ${TARGET_MS} ms with cached scripts, ${drawn < TARGET_MS ? 'met' : 'NOT met'} by the median`);
  await Promise.all(Object.values(warm).map((context) => context.close()));
} finally {
  await browser.close();
  server.stop();
}
