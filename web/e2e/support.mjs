// Shared helpers of the browser tests: a real server on a temporary database, and Debian's Chromium.
import { spawn, execFile } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { chromium } from 'playwright-core';

const here = dirname(fileURLToPath(import.meta.url));
export const WEB_DIR = resolve(here, '..');
export const PROJECT_DIR = resolve(WEB_DIR, '..');
export const ARTIFACTS = join(here, 'artifacts');
export const DEMO = { mobile: '13800000000', password: 'demo123456' };
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/** A TCP port free on the loopback address now. */
export async function freePort() {
  return new Promise((ok, fail) => {
    const probe = createServer();
    probe.unref();
    probe.on('error', fail);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => ok(port));
    });
  });
}

/** Starts `powerportal serve` on a free port with a fresh SQLite database and the demo account. */
export async function startServer({ brand = 0 } = {}) {
  if (!existsSync(join(WEB_DIR, 'dist', 'index.html'))) {
    throw new Error('web/dist is missing: run `npm run build` first');
  }
  const dir = mkdtempSync(join(tmpdir(), 'pp-e2e-'));
  // Serve a copy of the build: another run rebuilding web/dist meanwhile would swap the chunks under the page.
  const webDist = join(dir, 'web-dist');
  cpSync(join(WEB_DIR, 'dist'), webDist, { recursive: true });
  const port = await freePort();
  const env = {
    ...process.env,
    POWERPORTAL_DATABASE_URL: `sqlite+aiosqlite:///${join(dir, 'e2e.db')}`,
    POWERPORTAL_SEED_DEMO: '1',
    // A week of demo history (a year takes a minute of CPU the browser tests would wait through).
    POWERPORTAL_DEMO_HISTORY_DAYS: process.env.POWERPORTAL_DEMO_HISTORY_DAYS ?? '7',
    POWERPORTAL_BRAND: String(brand),
    POWERPORTAL_WEB_DIST: webDist,
  };
  const child = spawn('uv', ['run', '--project', PROJECT_DIR, 'powerportal', 'serve', '--host', '127.0.0.1', '--port', String(port)], {
    cwd: dir,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const base = `http://127.0.0.1:${port}`;
  const stop = () => {
    // A browser test fails on what the page shows; an exception the server logged meanwhile is said here.
    const traceback = output.indexOf('Traceback');
    if (traceback >= 0) console.error(`server logged an exception:\n${output.slice(Math.max(0, traceback - 600), traceback + 4000)}`);
    try {
      // The server runs in its own process group (uv plus the Python child): end that group.
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      /* already gone */
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    try {
      const answer = await fetch(`${base}/api/health`);
      if (answer.ok) return { base, env, stop, dir };
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  stop();
  throw new Error(`server did not start:\n${output}`);
}

/** The latest SMS code the development SMS provider "sent" to a number. */
export async function latestSmsCode(server, mobile) {
  const run = promisify(execFile);
  const { stdout } = await run('uv', ['run', '--project', PROJECT_DIR, 'powerportal', 'sms-outbox', '--mobile', mobile], {
    cwd: server.dir,
    env: server.env,
  });
  const code = stdout.match(/\d{4,6}/);
  if (!code) throw new Error(`no code in: ${stdout}`);
  return code[0];
}

/** A fresh passwordless login link for the account, from the server's command line. */
export async function loginLink(server, mobile) {
  const run = promisify(execFile);
  const { stdout } = await run(
    'uv',
    ['run', '--project', PROJECT_DIR, 'powerportal', 'login-link', '--mobile', mobile, '--base-url', server.base],
    { cwd: server.dir, env: server.env },
  );
  return stdout.trim().split('\n')[0];
}

/** Debian's Chromium; playwright-core gives every launch a fresh temporary profile. */
export async function launchBrowser() {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** A page in a fresh context; `timezoneId` sets the browser's time zone (the machine's by default). */
export async function newPage(browser, { width = 1366, height = 860, timezoneId } = {}) {
  const context = await browser.newContext({ viewport: { width, height }, locale: 'zh-CN', ...(timezoneId ? { timezoneId } : {}) });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  page.errors = [];
  page.on('pageerror', (error) => page.errors.push(String(error)));
  // The server's Content-Security-Policy: anything the page needs and the policy refuses is an error too.
  page.on('console', (message) => {
    if (message.type() === 'error' && message.text().includes('Content Security Policy')) page.errors.push(message.text());
  });
  return page;
}

export async function shot(page, name) {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.waitForTimeout(300);
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: false });
}

/** Logs in through the password form of the page currently showing /login. */
/** Calls the API as the logged-in page does (its token is in session storage). */
export async function api(page, method, path, body) {
  return page.evaluate(
    async ([verb, url, payload]) => {
      const answer = await fetch(url, {
        method: verb,
        headers: { 'Content-Type': 'application/json', SYSTOKEN: sessionStorage.getItem('SYSTOKEN') ?? '' },
        body: payload === null ? undefined : JSON.stringify(payload),
      });
      return answer.json();
    },
    [method, path, body ?? null],
  );
}

export async function loginWithPassword(page, { mobile = DEMO.mobile, password = DEMO.password } = {}) {
  await page.getByPlaceholder('手机号').fill(mobile);
  await page.getByPlaceholder('密码', { exact: true }).fill(password);
  await page.getByTestId('login-submit').click();
}

/**
 * Waits until the page's finite animations (antd's zooms and slides, not its spinners) have ended:
 * on a loaded machine a click taken while a dialog still zooms in can go unheard.
 */
export async function animationsDone(page) {
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => a.effect?.getComputedTiming().endTime !== Infinity)
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );
}

/**
 * Opens an entry of the user menu in the top bar. On a loaded machine a click can reach the entry
 * while the menu is still sliding in and go unheard (CI saw the menu left open, no dialog): the
 * entry is clicked again until the menu closes, which it does once the click is taken.
 */
export async function openUserMenu(page, entry) {
  const item = page.getByRole('menuitem', { name: entry });
  await page.getByTestId('user-menu').click();
  for (let attempt = 1; ; attempt += 1) {
    await item.click();
    try {
      await item.waitFor({ state: 'hidden', timeout: 3_000 });
      return;
    } catch (error) {
      if (attempt === 3) throw error;
    }
  }
}
