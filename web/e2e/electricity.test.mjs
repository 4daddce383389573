// 电费管理 against the real server (brand 0 has eletricList): an account is opened on a demo device
// through the 开户 dialog, recharged from the list (the balance and the ledger entry show in the
// list and the detail drawer), a 补电 order is made and approved (the balance moves again), a
// cut-off rule is saved, the accounts list is exported and read back with openpyxl, the 编辑 and
// 新建业务 dialogs opened on two rows in turn show each its own row, and neither
// 1440 nor 390 px scrolls sideways. Screenshots at 1440×900 and 390×844.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { api, launchBrowser, loginWithPassword, newPage, PROJECT_DIR, shot, startServer } from './support.mjs';

const run = promisify(execFile);
const B = '/api/CustomerElectricity';
const HOLDER = '测试户主';
const OK = /确\s*定|OK/;
const CANCEL = /取\s*消|Cancel/;

async function noSideways(page, where) {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.scrollingElement.scrollWidth, innerWidth: window.innerWidth }));
  assert.ok(scrollWidth <= innerWidth, `${where}: page is ${scrollWidth} px wide in a ${innerWidth} px window`);
}

/** The demo breaker draws power, so the account is charged as the test runs: a balance is checked to within a yuan. */
function near(actual, expected, where) {
  assert.ok(Math.abs(actual - expected) < 1, `${where}: balance ${actual}, expected about ${expected}`);
}

/** The balance the list shows in an account's row. */
async function shownBalance(row) {
  return Number((await row.getByTestId('account-balance').textContent()).replace(/[¥,]/g, ''));
}

/** The tab's pane has drawn and nothing is loading any more. */
async function settle(page) {
  await page.getByTestId('electricity-page').getByRole('tabpanel').first().waitFor();
  await page.waitForFunction(() => !document.querySelector('.ant-spin-spinning, .ant-skeleton-active'));
  await page.waitForTimeout(300);
}

/** A breaker the customer may switch that has no account yet (the demo may have opened some). */
async function freeDevice(page) {
  const devices = (await api(page, 'POST', '/api/CustomerControl/GetControllableDeviceList', { keyword: null })).data;
  const accounts = (await api(page, 'POST', `${B}/GetAccountList`, { pageIndex: 1, pageSize: 200 })).data.dataSource;
  const taken = new Set(accounts.map((a) => a.device_sysno));
  const free = devices.find((d) => !taken.has(d.sysno));
  assert.ok(free, 'a demo device without an account');
  return free;
}

async function account(page) {
  const list = (await api(page, 'POST', `${B}/GetAccountList`, { pageIndex: 1, pageSize: 10, keyword: HOLDER })).data;
  assert.equal(list.totalCount, 1);
  return list.dataSource[0];
}

describe('电费管理', () => {
  let server;
  let browser;
  let page;

  before(async () => {
    server = await startServer({ brand: 0 });
    browser = await launchBrowser();
    page = await newPage(browser, { width: 1440, height: 900 });
    await page.goto(`${server.base}/login`);
    await loginWithPassword(page);
    await page.waitForURL((url) => !url.pathname.startsWith('/login'));
  });

  after(async () => {
    await browser?.close();
    server?.stop();
  });

  it('opens an account on a demo device through 开户', async () => {
    await page.getByRole('menuitem', { name: '电费管理' }).click();
    await page.waitForURL((url) => url.pathname === '/user-manage/electricity');
    await page.waitForFunction(() => document.title.startsWith('电费管理'));
    await page.getByTestId('account-table').waitFor();
    await page.getByTestId('account-open').click();
    const dialog = page.getByTestId('account-modal');
    const device = await freeDevice(page);
    await dialog.getByTestId('account-device').click();
    await page.keyboard.type(device.gateway_sn);
    await page.locator(`.ant-select-dropdown:visible .ant-select-item-option[title="${device.name}（${device.gateway_name} #${device.device_id}）"]`).click();
    await dialog.getByTestId('account-holder').fill(HOLDER);
    await dialog.getByTestId('account-mobile').fill('1390000');
    await page.getByRole('button', { name: OK }).click();
    await dialog.getByText('手机号格式不正确').or(dialog.locator('.ant-form-item-explain-error')).first().waitFor();
    await dialog.getByTestId('account-mobile').fill('13900000001');
    await dialog.getByTestId('account-opening').fill('30');
    await shot(page, 'electricity-01-open');
    await page.getByRole('button', { name: OK }).click();
    await dialog.waitFor({ state: 'hidden' });
    const row = page.getByTestId('account-table').locator('tr.ant-table-row', { hasText: HOLDER });
    await row.getByTestId('account-balance').waitFor();
    near(await shownBalance(row), 30, 'list after 开户');
    const opened = await account(page);
    near(opened.balance, 30, 'server after 开户');
    assert.equal(opened.holder_mobile, '13900000001');
    assert.equal(opened.power, 'on');
    assert.equal(opened.device_sysno, device.sysno);
    await row.getByText('供电').waitFor();
    assert.deepEqual(page.errors, []);
  });

  it('recharges from the list; the balance and the ledger entry show in the detail', async () => {
    const row = page.getByTestId('account-table').locator('tr.ant-table-row', { hasText: HOLDER });
    await row.getByTestId('row-recharge').click();
    const dialog = page.getByTestId('recharge-modal');
    await dialog.getByTestId('recharge-amount').fill('50.5');
    const before = (await account(page)).balance;
    await page.getByRole('button', { name: OK }).click();
    await page.getByText('已充值 1 个账户').waitFor();
    await dialog.waitFor({ state: 'hidden' });
    const after = (await account(page)).balance;
    near(after, before + 50.5, 'server after 充值');
    near(await shownBalance(row), after, 'list after 充值');

    await row.getByTestId('row-detail').click();
    const drawer = page.getByTestId('account-drawer');
    await page.waitForURL((url) => url.searchParams.has('account'));
    await drawer.getByText(`电费账户 · ${HOLDER}`).waitFor();
    near(Number((await drawer.getByTestId('account-balance').textContent()).replace(/[¥,]/g, '')), after, 'detail');
    const ledger = drawer.getByTestId('detail-ledger');
    await ledger.locator('tr.ant-table-row', { hasText: '充值' }).getByText('+50.50').waitFor();
    await ledger.locator('tr.ant-table-row', { hasText: '充值' }).getByText('+30.00').waitFor();
    await drawer.getByTestId('detail-days').locator('canvas').waitFor();
    await shot(page, 'electricity-02-detail');

    // 调整余额 with its reason: an adjustment entry in the ledger.
    await drawer.getByTestId('detail-adjust').click();
    const adjust = page.getByTestId('adjust-modal');
    await adjust.getByTestId('adjust-amount').fill('-0.5');
    await page.getByRole('button', { name: OK }).click();
    await adjust.getByText('请输入调整原因').waitFor();
    await adjust.getByTestId('adjust-reason').fill('抄表误差');
    await page.getByRole('button', { name: OK }).click();
    await page.getByText('余额已调整').waitFor();
    await adjust.waitFor({ state: 'hidden' });
    const entry = ledger.locator('tr.ant-table-row', { hasText: '调整' });
    await entry.getByText('-0.50').waitFor();
    await drawer.getByRole('button', { name: /close|关闭/i }).click();
    await drawer.waitFor({ state: 'hidden' });
    assert.deepEqual(page.errors, []);
  });

  it('creates a 补电 order and approves it', async () => {
    await page.getByRole('tab', { name: '业务办理' }).click();
    await page.waitForURL((url) => url.searchParams.get('tab') === 'orders');
    await page.getByTestId('order-add').click();
    const dialog = page.getByTestId('order-modal');
    await dialog.getByTestId('order-account').click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: HOLDER }).click();
    await dialog.getByTestId('order-amount').fill('20');
    await page.getByRole('button', { name: OK }).click();
    await dialog.waitFor({ state: 'hidden' });
    const row = page.getByTestId('order-table').locator('tr.ant-table-row', { hasText: HOLDER });
    await row.getByText('未审核').waitFor();
    await row.getByTestId('order-review').click();
    const review = page.getByTestId('review-modal');
    await review.locator('textarea').fill('同意补电');
    await shot(page, 'electricity-03-review');
    const before = (await account(page)).balance;
    await review.getByTestId('review-approve').click();
    await review.waitFor({ state: 'hidden' });
    await row.getByText('已通过').waitFor();
    near((await account(page)).balance, before + 20, 'server after 补电');
    const orders = (await api(page, 'POST', `${B}/GetOrderList`, { pageIndex: 1, pageSize: 10 })).data.dataSource;
    assert.equal(orders[0].review_remark, '同意补电');
    assert.equal(orders[0].business_type, 1);
  });

  it('saves a cut-off rule', async () => {
    await page.getByRole('tab', { name: '断电规则' }).click();
    const form = page.getByTestId('cutoff-rule');
    await form.getByText('保电账户从不断电').waitFor();
    const start = form.getByPlaceholder('开始');
    await start.click();
    await start.fill('22:00');
    await start.press('Enter');
    const end = form.getByPlaceholder('结束');
    await end.fill('06:30');
    await end.press('Enter');
    await form.getByTestId('rule-weekends').click();
    await form.getByTestId('rule-add-holiday').click();
    const holiday = form.locator('.ant-picker:not(.ant-picker-range) input').first();
    await holiday.click();
    await holiday.fill('2026-10-01');
    await holiday.press('Enter');
    await shot(page, 'electricity-04-rule');
    await form.getByTestId('rule-save').click();
    // Saved once: Enter confirming the time and the date in their pickers does not save the rule too.
    await page.getByText('断电规则已保存').waitFor();
    const rule = (await api(page, 'GET', `${B}/GetCutoffRule`)).data;
    assert.equal(rule.quiet_start, '22:00');
    assert.equal(rule.quiet_end, '06:30');
    assert.equal(rule.quiet_weekends, true);
    assert.deepEqual(rule.holidays, ['2026-10-01']);
  });

  it('exports the accounts list as a workbook', async () => {
    await page.getByRole('tab', { name: '电费账户' }).click();
    await page.getByTestId('account-table').locator('tr.ant-table-row', { hasText: HOLDER }).waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-list').click()]);
    assert.match(download.suggestedFilename(), /\.xlsx$/);
    const file = join(server.dir, 'accounts.xlsx');
    await download.saveAs(file);
    const read = [
      'import json, sys, openpyxl',
      'book = openpyxl.load_workbook(sys.argv[1], read_only=True)',
      'print(json.dumps([list(r) for r in book[book.sheetnames[0]].iter_rows(values_only=True)], default=str))',
    ].join('\n');
    const { stdout } = await run('uv', ['run', '--project', PROJECT_DIR, 'python', '-c', read, file], { cwd: server.dir, env: server.env });
    const rows = JSON.parse(stdout);
    const header = rows.find((r) => r.some((cell) => typeof cell === 'string' && cell.includes('户主')));
    assert.ok(header, `a header row names the holder: ${JSON.stringify(rows.slice(0, 6))}`);
    const line = rows.find((r) => r.includes(HOLDER));
    assert.ok(line, 'the account is a row of the workbook');
    assert.ok(line.includes('13900000001') && line.includes('预付费'), `the holder's mobile and charge type are in the row: ${JSON.stringify(line)}`);
    const balance = line.find((cell) => typeof cell === 'number' && cell > 99 && cell <= 100.5);
    assert.ok(balance !== undefined, `the balance (about 100.50) is in the row: ${JSON.stringify(line)}`);
  });

  it('edits an account: its dialogs show the row they are opened on, 保电 shows in the list', async () => {
    const rows = page.getByTestId('account-table').locator('tr.ant-table-row');
    const row = rows.filter({ hasText: HOLDER });
    const dialog = page.getByTestId('account-modal');
    // The dialog shows the account it was opened on, not the one it was last opened on (开户 above).
    const other = rows.filter({ hasNotText: HOLDER }).first();
    const otherHolder = (await other.getByTestId('holder-name').textContent()).trim();
    await other.getByTestId('row-edit').click();
    assert.equal(await dialog.getByTestId('account-holder').inputValue(), otherHolder);
    await shot(page, 'electricity-04b-edit-other');
    await page.getByRole('button', { name: CANCEL }).click();
    await dialog.waitFor({ state: 'hidden' });
    await row.getByTestId('row-edit').click();
    assert.equal(await dialog.getByTestId('account-holder').inputValue(), HOLDER);
    assert.equal(await dialog.getByTestId('account-mobile').inputValue(), '13900000001');
    await dialog.getByTestId('account-keep-power').click();
    assert.equal(await dialog.getByTestId('account-keep-power').getAttribute('aria-checked'), 'true');
    await page.getByRole('button', { name: OK }).click();
    await dialog.waitFor({ state: 'hidden' });
    assert.equal((await account(page)).keep_power, true);
    assert.deepEqual(page.errors, []);
    await row.getByText('保电', { exact: true }).waitFor();

    // 新建业务 from a row is for that row's account, whichever row it was opened from before.
    const order = page.getByTestId('order-modal');
    for (const [from, holder] of [[other, otherHolder], [row, HOLDER]]) {
      await from.getByTestId('row-order').click();
      await order.getByText(new RegExp(`^${holder} · `)).waitFor();
      await page.getByRole('button', { name: CANCEL }).click();
      await order.waitFor({ state: 'hidden' });
    }
  });

  it('cuts the selected account by hand after a confirmation', async () => {
    const row = page.getByTestId('account-table').locator('tr.ant-table-row', { hasText: HOLDER });
    await row.locator('.ant-checkbox-input').check();
    await page.getByText('已选 1 个账户').waitFor();
    await page.getByTestId('batch-off').click();
    await page.locator('.ant-modal-confirm-title', { hasText: '确定对所选 1 个账户断电？' }).waitFor();
    await page.locator('.ant-modal-confirm').getByRole('button', { name: OK }).click();
    // The answer waits for the breaker's reply, for up to the 10 s command timeout on a busy machine.
    await page.getByText(/断电：\d+ 个已下发/).waitFor({ timeout: 30_000 });
    // A cut by hand goes through the command path: the command log has it for the account's breaker.
    const { device_sysno } = await account(page);
    const commands = (await api(page, 'POST', '/api/CustomerCommandLog/GetCommandLogList', { pageIndex: 1, pageSize: 50 })).data.dataSource;
    assert.ok(commands.some((c) => c.device_sysno === device_sysno && c.action === 'switch_off'), JSON.stringify(commands.slice(0, 3)));
  });

  it('jumps from a 电费 notice in the bell to the account, its detail open', async () => {
    // Opened below its warning level: the account is told about at once (notice type 5).
    const device = await freeDevice(page);
    const low = await api(page, 'POST', `${B}/AddAccount`, {
      device_sysno: device.sysno, holder_name: '余额不足户', charge_type: 1, warn_balance: 20, cutoff_balance: -50, opening_balance: 5, method: 'cash',
    });
    assert.equal(low.statusCode, 200, JSON.stringify(low));
    const notices = (await api(page, 'POST', '/api/CustomerNoctice/GetNoticeList', { pageIndex: 1, pageSize: 10, custmoer_notice_type: [5] })).data;
    const notice = notices.dataSource.find((n) => n.source_sysno === low.data.sysno);
    assert.ok(notice, `a 电费 notice names the account: ${JSON.stringify(notices.dataSource)}`);
    await page.goto(`${server.base}/dashboard`);
    await page.getByRole('button', { name: '系统消息' }).click();
    await page.getByTestId(`notice-jump-${notice.sysno}`).click();
    await page.waitForURL((url) => url.pathname === '/user-manage/electricity' && url.searchParams.get('account') === String(low.data.sysno));
    const drawer = page.getByTestId('account-drawer');
    await drawer.getByText('电费账户 · 余额不足户').waitFor();
    const balance = drawer.getByTestId('account-balance');
    assert.ok(await balance.evaluate((el) => el.classList.contains('ant-typography-danger')), 'a low balance is red');
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'hidden' });
    assert.ok(!new URL(page.url()).searchParams.has('account'), 'closing the detail takes the account out of the address');
  });

  it('does not scroll sideways at 1440 and 390 px', async () => {
    for (const tab of ['accounts', 'bills', 'orders', 'recharges', 'rule']) {
      await page.goto(`${server.base}/user-manage/electricity?tab=${tab}`);
      await settle(page);
      await noSideways(page, `${tab} at 1440`);
    }
    await page.goto(`${server.base}/user-manage/electricity?tab=recharges`);
    await page.getByTestId('recharge-table').locator('tr.ant-table-row', { hasText: HOLDER }).first().waitFor();
    await shot(page, 'electricity-05-recharges-1440');

    await page.setViewportSize({ width: 390, height: 844 });
    for (const tab of ['accounts', 'bills', 'orders', 'recharges', 'rule']) {
      await page.goto(`${server.base}/user-manage/electricity?tab=${tab}`);
      await settle(page);
      await noSideways(page, `${tab} at 390`);
      if (tab === 'accounts') {
        await page.getByTestId('account-table').locator('tr.ant-table-row', { hasText: HOLDER }).waitFor();
        await shot(page, 'electricity-06-accounts-390');
        await page.getByTestId('account-open').click();
        await page.getByTestId('account-holder').waitFor();
        await noSideways(page, '开户 at 390');
        await shot(page, 'electricity-06b-open-390');
        await page.getByRole('button', { name: CANCEL }).click();
        await page.getByTestId('account-modal').waitFor({ state: 'hidden' });
      }
    }
    const { sysno } = await account(page);
    await page.goto(`${server.base}/user-manage/electricity?tab=accounts&account=${sysno}`);
    await page.getByTestId('account-drawer').getByText(`电费账户 · ${HOLDER}`).waitFor();
    await page.getByTestId('detail-days').locator('canvas').waitFor();
    await noSideways(page, 'detail at 390');
    await shot(page, 'electricity-07-detail-390');
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`${server.base}/user-manage/electricity?tab=accounts`);
    await page.getByTestId('account-table').locator('tr.ant-table-row', { hasText: HOLDER }).waitFor();
    await shot(page, 'electricity-08-accounts-1440');
    assert.deepEqual(page.errors, []);
  });
});
