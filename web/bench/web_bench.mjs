// Web benchmark: gzipped JS of the login page, the largest route chunk, and the time to first
// render of the logged-in layout in headless Chromium against a local server started here.
import { execSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { DEMO, WEB_DIR, launchBrowser, newPage, startServer } from '../e2e/support.mjs';

const TARGET_KB = 300;
const RUNS = 5;
const DIST = join(WEB_DIR, 'dist');
const MANIFEST = join(DIST, '.vite', 'manifest.json');

const kb = (bytes) => bytes / 1024;
const gzipBytes = (file) => gzipSync(readFileSync(join(DIST, file)), { level: 9 }).length;
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

if (!existsSync(MANIFEST)) {
  execSync('npm run build', { cwd: WEB_DIR, stdio: 'inherit' });
}
const manifest = JSON.parse(readFileSync(MANIFEST, 'utf8'));

/** Every JS file a chunk pulls in statically (itself included). */
function staticClosure(key, seen = new Set()) {
  if (seen.has(key)) return seen;
  seen.add(key);
  for (const dep of manifest[key].imports ?? []) staticClosure(dep, seen);
  return seen;
}

const entryKey = Object.keys(manifest).find((key) => manifest[key].isEntry);
const entryFiles = staticClosure(entryKey);

/** What opening a route adds on top of the entry: its chunk and the shared chunks it needs. */
const routeChunks = Object.keys(manifest)
  .filter((key) => manifest[key].isDynamicEntry)
  .map((key) => {
    const files = [...staticClosure(key)].filter((k) => !entryFiles.has(k)).map((k) => manifest[k].file);
    return { name: key, own: gzipBytes(manifest[key].file), total: files.reduce((sum, f) => sum + gzipBytes(f), 0) };
  })
  .sort((a, b) => b.own - a.own);

const server = await startServer({ brand: 0 });
const browser = await launchBrowser();
try {
  // JS the login page loads (entry plus the login route), measured as gzip of the served files.
  const page = await newPage(browser);
  const loaded = new Set();
  page.on('response', (response) => {
    const path = new URL(response.url()).pathname;
    if (path.endsWith('.js')) loaded.add(path.replace(/^\//, ''));
  });
  await page.goto(`${server.base}/login`, { waitUntil: 'networkidle' });
  await page.getByTestId('login-submit').waitFor();
  const loginJs = [...loaded].reduce((sum, file) => sum + gzipBytes(file), 0);
  await page.context().close();

  // Time to first render of the logged-in layout, with a token already in session storage.
  const stamp = Date.now();
  const login = await fetch(`${server.base}/api/CustomerCenter/LoginByPass`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ mobile: DEMO.mobile, password: `${stamp}${DEMO.password}${stamp}` }),
  }).then((r) => r.json());
  const token = login.data.token;
  const renders = [];
  for (let run = 0; run < RUNS; run += 1) {
    const timed = await newPage(browser);
    await timed.addInitScript((value) => {
      sessionStorage.setItem('SYSTOKEN', value);
      sessionStorage.setItem('LOGIN_NAME', 'bench');
      new MutationObserver((_, observer) => {
        if (document.querySelector('[data-testid="app-layout"]')) {
          window.__layoutRenderedAt = performance.now();
          observer.disconnect();
        }
      }).observe(document, { childList: true, subtree: true });
    }, token);
    await timed.goto(`${server.base}/dashboard`);
    await timed.getByTestId('app-layout').waitFor();
    renders.push(await timed.evaluate(() => window.__layoutRenderedAt));
    await timed.context().close();
  }

  const largest = routeChunks[0];
  const heaviest = [...routeChunks].sort((a, b) => b.total - a.total)[0];
  const lines = [
    'PowerPortal web benchmark (headless Chromium, local server, gzip -9 of the built files)',
    `  login page JS (gzip):          ${kb(loginJs).toFixed(1)} KB  (${loaded.size} files)  target < ${TARGET_KB} KB: ${kb(loginJs) < TARGET_KB ? 'PASS' : 'FAIL'}`,
    `  largest route chunk (gzip):    ${kb(largest.own).toFixed(1)} KB  ${largest.name}`,
    `  heaviest route to open (gzip): ${kb(heaviest.total).toFixed(1)} KB  ${heaviest.name} (its chunk plus the shared chunks it adds to the entry)`,
    `  logged-in layout first render: ${median(renders).toFixed(0)} ms median of ${RUNS} (min ${Math.min(...renders).toFixed(0)}, max ${Math.max(...renders).toFixed(0)})`,
  ];
  console.log(lines.join('\n'));
  if (process.argv.includes('--files')) {
    for (const file of [...loaded].sort((a, b) => gzipBytes(b) - gzipBytes(a))) {
      console.log(`    ${kb(gzipBytes(file)).toFixed(1).padStart(6)} KB  ${file}`);
    }
  }
} finally {
  await browser.close();
  server.stop();
}
