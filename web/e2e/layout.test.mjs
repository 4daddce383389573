// Every screen at 1440×900, 1280×800 and 390×844: nothing wider than the page, every list's key
// columns inside the screen. One server, one browser, one page; screens are reached by client-side
// navigation so the run stays short.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { launchBrowser, loginWithPassword, newPage, shot, startServer, WEB_DIR } from './support.mjs';

const VIEWPORTS = [
  { width: 1440, height: 900 },
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
];

const PUBLIC = ['/login', '/register', '/findpsw'];
const SETTING = [
  'project-list',
  'gateway-list',
  'share-list',
  'operate-list',
  'tariff-list',
  'offline-list',
  'stat-list',
  'cmd-list',
  'SmsTemplate',
  'SmsNotification',
  'SmsRecharge',
];
const USER_MANAGE = ['devices-manage', 'eng', 'report', 'timing-task', 'group-control', 'alarm-manage', 'electricity', 'alarm', 'load-identify'];
const SCREENS = [
  '/dashboard',
  ...USER_MANAGE.map((name) => `/user-manage/${name}`),
  ...SETTING.map((name) => `/user-manage/setting/${name}`),
  '/404',
  '/401',
];

/** Waits until the screen has drawn: no spinner, no skeleton, for a moment. */
async function settle(page) {
  await page.waitForFunction(
    () => !document.querySelector('.ant-spin-spinning, .ant-skeleton-active, .ant-table-placeholder .ant-spin'),
    null,
    { timeout: 15_000 },
  );
  await page.waitForTimeout(250);
}

/** Client-side navigation (react-router follows popstate), so the app is not loaded again. */
async function visit(page, path) {
  await page.evaluate((to) => {
    window.history.pushState({}, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
  await page.waitForFunction((to) => window.location.pathname === to, path);
  await settle(page);
}

/** What the layout test measures on the screen now. */
async function measure(page) {
  return page.evaluate(() => {
    const visible = (el) => {
      const box = el.getBoundingClientRect();
      return box.width > 0 && box.height > 0 && getComputedStyle(el).visibility !== 'hidden';
    };
    const tables = [...document.querySelectorAll('.ant-table-wrapper')].filter(visible);
    return {
      scrollWidth: document.scrollingElement.scrollWidth,
      innerWidth: window.innerWidth,
      unmanaged: tables.filter((t) => !t.closest('[data-list-table]')).map((t) => t.textContent.slice(0, 60)),
      lists: [...document.querySelectorAll('[data-list-table]')].filter(visible).map((list) => ({
        id: list.dataset.listTable,
        // The list's own box: a key column scrolled out of it is out of sight too.
        box: { left: list.getBoundingClientRect().left, right: list.getBoundingClientRect().right },
        keys: [...list.querySelectorAll('th[data-key-column]')].map((th) => {
          const box = th.getBoundingClientRect();
          return { name: th.textContent.trim() || th.dataset.keyColumn, left: box.left, right: box.right };
        }),
      })),
    };
  });
}

function checkLayout(found, where) {
  assert.ok(found.scrollWidth <= found.innerWidth, `${where}: page is ${found.scrollWidth} px wide in a ${found.innerWidth} px window`);
  assert.deepEqual(found.unmanaged, [], `${where}: every table is a ListTable`);
  for (const list of found.lists) {
    assert.ok(list.keys.length > 0, `${where}: ${list.id} names its key columns`);
    for (const key of list.keys) {
      const left = Math.max(0, list.box.left);
      const right = Math.min(found.innerWidth, list.box.right);
      assert.ok(key.left >= left - 1 && key.right <= right + 1, `${where}: ${list.id} key column ${key.name} at ${key.left}–${key.right}, box ${left}–${right}`);
    }
  }
}

const slug = (path) => path.replace(/^\//, '').replaceAll('/', '_') || 'root';

describe('layout of every screen at 1440, 1280 and 390 px', () => {
  let server;
  let browser;
  let page;

  before(async () => {
    server = await startServer({ brand: 0 });
    browser = await launchBrowser();
    page = await newPage(browser, VIEWPORTS[0]);
  });

  after(async () => {
    await browser?.close();
    server?.stop();
  });

  it('covers every route of the router', () => {
    const source = readFileSync(join(WEB_DIR, 'src/router/routes.tsx'), 'utf8');
    const named = [...source.matchAll(/handle\('([^']+)'\)/g)].map((m) => m[1]);
    const later = [...source.matchAll(/_LATER: RouteName\[\] = \[([^\]]*)\]/g)].flatMap((m) => [...m[1].matchAll(/'([^']+)'/g)].map((n) => n[1]));
    const covered = [...PUBLIC, ...SCREENS, '/auth-redirect'].map((p) => p.split('/').pop());
    for (const name of [...named, ...later]) {
      if (name === 'setting') continue; // the parent of the setting screens, which redirects to project-list
      assert.ok(covered.includes(name), `route ${name} is visited by the layout test`);
    }
  });

  it('lays out the public screens', async () => {
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      for (const path of PUBLIC) {
        await page.goto(`${server.base}${path}`);
        await page.locator('form').first().waitFor();
        await settle(page);
        checkLayout(await measure(page), `${path} at ${viewport.width}`);
      }
      await shot(page, `layout-${viewport.width}-findpsw`);
    }
  });

  for (const viewport of VIEWPORTS) {
    it(`lays out every screen at ${viewport.width}×${viewport.height}`, async () => {
      await page.setViewportSize(viewport);
      if (!page.url().includes('/dashboard') && !(await page.evaluate(() => sessionStorage.getItem('SYSTOKEN')))) {
        await page.goto(`${server.base}/login`);
        await loginWithPassword(page);
        await page.waitForURL(/\/dashboard$/);
      }
      for (const path of SCREENS) {
        await visit(page, path);
        await shot(page, `layout-${viewport.width}-${slug(path)}`);
        checkLayout(await measure(page), `${path} at ${viewport.width}`);
        // A screen's other tabs (report kinds, tariff projects) hold lists too.
        const tabs = page.locator('main .ant-tabs-nav-list > .ant-tabs-tab');
        const count = await tabs.count();
        for (let i = 1; i < count; i += 1) {
          if (!(await tabs.nth(i).isVisible())) continue;
          await tabs.nth(i).click();
          await settle(page);
          await shot(page, `layout-${viewport.width}-${slug(path)}-tab${i}`);
          checkLayout(await measure(page), `${path} tab ${i} at ${viewport.width}`);
        }
      }
      assert.deepEqual(page.errors, []);
    });
  }

  it('lets the user choose a folded column, and keeps the choice', async () => {
    await page.setViewportSize(VIEWPORTS[1]);
    await visit(page, '/user-manage/alarm-manage');
    const list = page.locator('[data-list-table="alarm-manage"]');
    const remark = list.locator('th', { hasText: '处理备注' });
    assert.equal(await remark.count(), 0, '处理备注 is folded at 1280 px');
    await list.locator('tbody tr.ant-table-row').first().getByRole('button').first().click();
    await list.locator('.ant-descriptions-item-label', { hasText: '处理备注' }).first().waitFor();
    await list.getByTestId('column-setting').first().click();
    const setting = page.getByTestId('column-setting-alarm-manage');
    await setting.getByRole('checkbox', { name: '处理备注' }).click();
    await remark.first().waitFor();
    await shot(page, 'layout-1280-column-setting');
    await page.reload();
    await remark.first().waitFor();
    assert.ok(await page.evaluate(() => localStorage.getItem('pp.columns.alarm-manage')), 'the choice is kept in localStorage');
    await list.getByTestId('column-setting').first().click();
    await setting.getByRole('button', { name: '重置' }).click();
    await remark.waitFor({ state: 'detached' });
    await page.keyboard.press('Escape');
  });

  it('folds the filters into a drawer on a phone, the date picker inside the screen', async () => {
    await page.setViewportSize(VIEWPORTS[2]);
    await visit(page, '/user-manage/alarm-manage');
    await page.getByTestId('filter-open').click();
    const drawer = page.getByRole('dialog', { name: '筛选条件' });
    await drawer.waitFor().catch(async (error) => {
      await shot(page, 'layout-390-filter-drawer-missing');
      throw error;
    });
    await drawer.getByPlaceholder('开始时间').click();
    const panel = page.locator('.ant-picker-dropdown:not(.ant-picker-dropdown-hidden)');
    await panel.waitFor();
    await page.waitForTimeout(300);
    await shot(page, 'layout-390-filter-drawer');
    const box = await panel.locator('.ant-picker-panel-container').boundingBox();
    assert.ok(box.x >= 0 && box.x + box.width <= 390, `the date panel at ${box.x}+${box.width}`);
    assert.ok(box.y >= 0 && box.y + box.height <= 844, `the date panel from ${box.y} to ${box.y + box.height}`);
    checkLayout(await measure(page), 'alarm filters at 390');
    await page.keyboard.press('Escape');
    await drawer.getByRole('button', { name: /查\s*询/ }).click();
    await drawer.waitFor({ state: 'hidden' });
  });

  it('shows the bell dialog full width on a phone, its message readable', async () => {
    await page.setViewportSize(VIEWPORTS[2]);
    await visit(page, '/dashboard');
    await page.getByRole('button', { name: '系统消息' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    await settle(page);
    await shot(page, 'layout-390-notices');
    const found = await measure(page);
    checkLayout(found, 'notice dialog at 390');
    const box = await dialog.boundingBox();
    assert.ok(box.x >= 0 && box.x + box.width <= 390, `dialog at ${box.x}+${box.width}`);
    const content = await dialog.locator('th[data-key-column="notice_detail"]').boundingBox();
    assert.ok(content.width >= 120, `消息内容 is ${content.width} px wide`);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
  });

  it('opening the mobile menu leaves the desktop sidebar open', async () => {
    await page.setViewportSize(VIEWPORTS[2]);
    await page.goto(`${server.base}/dashboard`);
    await page.getByTestId('hamburger').click();
    const drawer = page.locator('.pp-mobile-sidebar .ant-drawer-content-wrapper');
    await drawer.waitFor();
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'hidden' });
    await page.setViewportSize(VIEWPORTS[0]);
    const sidebar = page.getByTestId('sidebar');
    await sidebar.waitFor();
    await page.waitForTimeout(300);
    assert.equal(Math.round((await sidebar.boundingBox()).width), 210);
    await page.reload();
    await sidebar.waitFor();
    await page.waitForTimeout(300);
    assert.equal(Math.round((await sidebar.boundingBox()).width), 210, 'the cookie still says open');
  });
});
