// Session, account menu and operation log against the real server (brand 0, SMS codes on).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DEMO, launchBrowser, latestSmsCode, loginLink, loginWithPassword, newPage, openUserMenu, shot, startServer } from './support.mjs';

describe('session and account (brand 0)', () => {
  let server;
  let browser;
  let page;

  before(async () => {
    server = await startServer({ brand: 0 });
    browser = await launchBrowser();
    page = await newPage(browser);
  });

  after(async () => {
    await browser?.close();
    server?.stop();
  });

  it('sends an unauthenticated visitor to /login?redirect= and back after login', async () => {
    await page.goto(`${server.base}/user-manage/setting/operate-list`);
    await page.waitForURL(/\/login\?redirect=/);
    assert.equal(new URL(page.url()).searchParams.get('redirect'), '/user-manage/setting/operate-list');
    await page.getByTestId('login-submit').waitFor();
    assert.ok(await page.getByTestId('login-mode').getByText('短信登录').isVisible(), 'brand 0 offers the SMS login tab');
    await shot(page, '01-login');
    await loginWithPassword(page);
    await page.waitForURL(/\/user-manage\/setting\/operate-list$/);
    await page.getByRole('cell', { name: '登录' }).first().waitFor();
    assert.equal(await page.title(), '操作日志 - PowerPortal 智慧用电');
    await shot(page, '02-operate-list');
  });

  it('filters the operation log by type', async () => {
    await page.getByLabel('操作类型').click();
    await page.getByTitle('登录', { exact: true }).click();
    await page.getByRole('button', { name: /查\s*询/ }).click();
    await page.waitForTimeout(500);
    // The type column, wherever the list places it (an expand column may come first).
    const headers = await page.locator('thead th').allTextContents();
    const column = headers.findIndex((text) => text.includes('操作类型'));
    assert.ok(column >= 0, `操作类型 is a column: ${headers.join('|')}`);
    const types = await page.locator(`tbody tr.ant-table-row td:nth-child(${column + 1})`).allInnerTexts();
    assert.ok(types.length > 0 && types.every((t) => t === '登录'), `only 登录 rows: ${types}`);
  });

  it('goes to /login while logged in → root', async () => {
    await page.goto(`${server.base}/login`);
    await page.waitForURL(/\/dashboard$/);
    await page.getByTestId('dashboard').waitFor();
    await shot(page, '03-dashboard');
  });

  it('shows the API document browser from its own files (no CDN), within its security policy', async () => {
    const docs = await newPage(browser);
    const external = [];
    docs.on('request', (request) => {
      if (!request.url().startsWith(server.base)) external.push(request.url());
    });
    await docs.goto(`${server.base}/api/docs`);
    await docs.locator('.swagger-ui .info .title').waitFor();
    await docs.getByText('/api/CustomerCenter/LoginByPass').first().waitFor();
    await shot(docs, '04-api-docs');
    assert.deepEqual(external, []);
    assert.deepEqual(docs.errors, []);
    await docs.close();
  });

  it('opens every route of the product with its page title', async () => {
    const routes = {
      'devices-manage': '设备监控',
      'alarm-manage': '设备告警',
      alarm: '告警统计',
      eng: '能耗统计',
      'timing-task': '定时控制',
      'group-control': '分组控制',
      'load-identify': '负载识别',
      report: '报表统计',
      'setting/project-list': '项目管理',
      'setting/gateway-list': '网关管理',
      'setting/share-list': '分享管理',
      'setting/offline-list': '离线日志',
      'setting/operate-list': '操作日志',
      'setting/stat-list': '状态日志',
      'setting/cmd-list': '命令日志',
      'setting/SmsTemplate': '短信模板',
    };
    for (const [path, title] of Object.entries(routes)) {
      await page.goto(`${server.base}/user-manage/${path}`);
      await page
        .waitForFunction((expected) => document.title === expected, `${title} - PowerPortal 智慧用电`)
        .catch(async () => assert.fail(`${path}: title is "${await page.title()}"`));
      await page.getByTestId('tags-view').getByText(title, { exact: true }).waitFor();
      assert.equal(new URL(page.url()).pathname, `/user-manage/${path}`);
    }
    await page.goto(`${server.base}/user-manage/setting`);
    await page.waitForURL(/\/setting\/project-list$/);
    await page.getByTestId('setting-menu').waitFor();
    assert.ok(await page.getByTestId('setting-menu').getByText('短信模板').isVisible(), 'SmsConfig shows SMS settings');
    await page.getByTestId('setting-menu').getByText('分享管理').click();
    await page.waitForURL(/\/setting\/share-list$/);
    await shot(page, '04-setting-share-list');
    assert.ok((await page.getByTestId('tags-view').innerText()).includes('报表统计'), 'tags view remembers pages');
    await page.getByTestId('tags-view').getByText('分享管理', { exact: true }).click({ button: 'right' });
    await page.getByRole('menuitem', { name: '关闭其他' }).click();
    await page.waitForFunction(() => document.querySelector('[data-testid="tags-view"]').innerText.replace(/\s+/g, '') === '数据监控分享管理');
    await page.goto(`${server.base}/no/such/page`);
    await page.waitForURL(/\/404$/);
    await shot(page, '05-404');
  });

  it('remembers the sidebar in a cookie and applies the settings panel', async () => {
    await page.goto(`${server.base}/dashboard`);
    await page.getByTestId('sidebar').waitFor();
    assert.equal(Math.round((await page.getByTestId('sidebar').boundingBox()).width), 210);
    await page.getByTestId('hamburger').click();
    await page.waitForFunction(() => document.cookie.includes('sidebarStatus=0'));
    await page.reload();
    await page.getByTestId('sidebar').waitFor();
    await page.waitForFunction(() => document.querySelector('[data-testid="sidebar"]').getBoundingClientRect().width < 100);
    await page.getByTestId('hamburger').click();
    await page.getByRole('button', { name: '系统布局配置' }).click();
    const drawer = page.getByRole('dialog', { name: '系统布局配置' });
    await drawer.waitFor();
    await shot(page, '12-settings-panel');
    await drawer.getByRole('switch').first().click();
    await page.getByTestId('tags-view').waitFor({ state: 'detached' });
    await drawer.getByRole('switch').first().click();
    await page.getByTestId('tags-view').waitFor();
    await page.keyboard.press('Escape');
  });

  it('edits the profile', async () => {
    await page.goto(`${server.base}/dashboard`);
    await openUserMenu(page, '编辑信息');
    const dialog = page.getByRole('dialog');
    const name = dialog.getByLabel('名称');
    await assert.doesNotReject(async () => name.waitFor());
    await page.waitForFunction(() => document.querySelector('#edit-info_name')?.value === '演示用户');
    await name.fill('');
    await dialog.getByRole('button', { name: /确\s*定/ }).click();
    await dialog.getByText('请输入名称').waitFor();
    await shot(page, '06-edit-info-validation');
    await name.fill('张工');
    await dialog.getByLabel('邮箱').fill('zhang@example.com');
    await dialog.getByRole('button', { name: /确\s*定/ }).click();
    await page.getByText('保存成功').waitFor();
    await page.getByTestId('user-menu').getByText('张工').waitFor();
  });

  it('validates the transfer form', async () => {
    await openUserMenu(page, '转移账号');
    const dialog = page.getByRole('dialog', { name: '转移账号' });
    await dialog.getByLabel('当前账号', { exact: true }).fill('');
    await dialog.getByTestId('send-current-code').click();
    await page.getByText('请输入当前账号手机号').waitFor();
    await dialog.getByTestId('send-target-code').click();
    await page.getByText('请输入目标账号手机号').waitFor();
    await dialog.getByRole('button', { name: /确\s*定/ }).click();
    await dialog.getByText('请输入当前账号', { exact: true }).waitFor();
    await dialog.getByText('请输入目标手机号').waitFor();
    assert.equal(await dialog.getByText('请输入验证码').count(), 2);
    await dialog.getByLabel('当前账号', { exact: true }).fill(DEMO.mobile);
    await dialog.getByLabel('目标手机号').fill(DEMO.mobile);
    await dialog.getByText('新旧账号不能相同').waitFor();
    await dialog.getByTestId('send-current-code').click();
    await page.getByText('短信发送成功').first().waitFor();
    await dialog.getByText(/\d+秒后重新获取/).waitFor();
    assert.match(await latestSmsCode(server, DEMO.mobile), /^\d+$/);
    await shot(page, '07-transfer-validation');
    await dialog.getByRole('button', { name: /取\s*消/ }).click();
  });

  it('changes the password, then forces a new login', async () => {
    await openUserMenu(page, '修改密码');
    const dialog = page.getByRole('dialog', { name: '修改密码' });
    await dialog.getByLabel('原密码').fill(DEMO.password);
    await dialog.getByLabel('新密码').fill('newpass789');
    await dialog.getByLabel('确认密码').fill('newpass789');
    await dialog.getByLabel('手机号').fill(DEMO.mobile);
    await dialog.getByRole('button', { name: '获取验证码' }).click();
    await dialog.getByText(/\d+秒后重新获取/).waitFor();
    await dialog.getByLabel('验证码').fill(await latestSmsCode(server, DEMO.mobile));
    await shot(page, '08-change-password');
    await dialog.getByRole('button', { name: /确\s*定/ }).click();
    await page.waitForURL(/\/login$/);
    await page.getByText('密码修改成功，请重新登录').waitFor();
    assert.equal(await page.evaluate(() => sessionStorage.getItem('SYSTOKEN')), null);
    await shot(page, '09-after-password-change');
    await loginWithPassword(page, { password: 'newpass789' });
    await page.waitForURL(/\/dashboard$/);
  });

  it('logs out from the user menu', async () => {
    await openUserMenu(page, '退出登录');
    await page.waitForURL(/\/login$/);
    await page.goto(`${server.base}/user-manage/eng`);
    await page.waitForURL(/\/login\?redirect=%2Fuser-manage%2Feng$/);
    assert.deepEqual(page.errors, []);
  });

  it('logs in with an SMS code', async () => {
    await page.goto(`${server.base}/login`);
    await page.getByTestId('login-mode').getByText('短信登录').click();
    await page.getByPlaceholder('手机号').fill(DEMO.mobile);
    await page.getByRole('button', { name: '获取验证码' }).click();
    await page.getByText(/\d+秒后重新获取/).waitFor();
    await page.getByPlaceholder('验证码').fill(await latestSmsCode(server, DEMO.mobile));
    await shot(page, '10-login-sms');
    await page.getByTestId('login-submit').click();
    await page.waitForURL(/\/dashboard$/);
    await openUserMenu(page, '退出登录');
    await page.waitForURL(/\/login$/);
  });

  it('lands a passwordless login link on /auth-redirect', async () => {
    const link = await loginLink(server, DEMO.mobile);
    assert.match(link, /\/auth-redirect\?param=/);
    await page.goto(link);
    await page.waitForURL(/\/dashboard$/);
    await page.getByTestId('app-layout').waitFor();
    await page.goto(`${server.base}/auth-redirect?param=not-a-valid-link`);
    await page.getByText('免密登录失败').waitFor();
    await shot(page, '11-auth-redirect-failed');
  });
});
