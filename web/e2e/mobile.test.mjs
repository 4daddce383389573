// The mobile layout under 992 px: the sidebar becomes a drawer, opened from the top bar.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, loginWithPassword, newPage, shot, startServer } from './support.mjs';

describe('mobile layout at 800 px', () => {
  let server;
  let browser;
  let page;

  before(async () => {
    server = await startServer({ brand: 0 });
    browser = await launchBrowser();
    page = await newPage(browser, { width: 800, height: 900 });
  });

  after(async () => {
    await browser?.close();
    server?.stop();
  });

  it('logs in on a narrow screen', async () => {
    await page.goto(`${server.base}/login`);
    await page.getByTestId('login-submit').waitFor();
    await shot(page, '30-mobile-login');
    await loginWithPassword(page);
    await page.waitForURL(/\/dashboard$/);
    await page.getByTestId('dashboard').waitFor();
  });

  it('hides the sidebar and opens it as a drawer', async () => {
    const layout = page.getByTestId('app-layout');
    assert.equal(await layout.getAttribute('data-device'), 'mobile');
    assert.equal(await page.getByTestId('sidebar').count(), 0, 'no fixed sider on mobile');
    await shot(page, '31-mobile-dashboard');
    await page.getByTestId('hamburger').click();
    const drawer = page.locator('.pp-mobile-sidebar .ant-drawer-content-wrapper');
    await drawer.waitFor();
    const box = await drawer.boundingBox();
    assert.equal(Math.round(box.width), 210);
    await shot(page, '32-mobile-drawer');
    await drawer.getByText('系统管理').click();
    await page.waitForURL(/\/setting\/project-list$/);
    await drawer.waitFor({ state: 'hidden' });
    await page.getByTestId('setting-menu').waitFor();
    await shot(page, '33-mobile-setting');
  });

  it('shows the operation log on a narrow screen', async () => {
    await page.goto(`${server.base}/user-manage/setting/operate-list`);
    await page.getByRole('cell', { name: '登录' }).first().waitFor();
    await shot(page, '34-mobile-operate-list');
  });

  it('returns to the desktop layout when widened, the sidebar open as it was', async () => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.getByTestId('sidebar').waitFor();
    assert.equal(await page.getByTestId('app-layout').getAttribute('data-device'), 'desktop');
    // The drawer opened and closed on the phone layout; the desktop sidebar is still open (cookie untouched).
    await page.waitForTimeout(300);
    assert.equal(Math.round((await page.getByTestId('sidebar').boundingBox()).width), 210);
    const cookies = await page.context().cookies();
    assert.ok(!cookies.some((c) => c.name === 'sidebarStatus' && c.value === '0'), 'the phone drawer did not save the sidebar as closed');
    assert.deepEqual(page.errors, []);
  });
});
