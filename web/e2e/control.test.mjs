// Remote control against the real server and the demo's simulated gateways over MQTT: switch a
// breaker off from the monitoring screen, see its state change and the command-log row; the
// timed-control and group-control screens.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { api, launchBrowser, loginWithPassword, newPage, shot, startServer } from './support.mjs';

describe('remote control', () => {
  let server;
  let browser;
  let page;
  let target;

  before(async () => {
    server = await startServer({ brand: 0 });
    browser = await launchBrowser();
    page = await newPage(browser, { width: 1440, height: 900 });
  });

  after(async () => {
    await browser?.close();
    server?.stop();
  });

  it('switches a device off from the monitoring screen and sees the state change', async () => {
    await page.goto(`${server.base}/user-manage/devices-manage`);
    await page.waitForURL(/\/login/);
    await loginWithPassword(page);
    await page.waitForURL(/devices-manage$/);
    // The demo gateways announce their breakers and report; wait for one that is online and on.
    await page.waitForFunction(
      () =>
        [...document.querySelectorAll('[data-testid="device-card"]')].some(
          (card) => card.textContent?.includes('在线') && [...card.querySelectorAll('.ant-tag')].some((t) => t.textContent === '已合闸'),
        ),
      null,
      { timeout: 60_000 },
    );
    const sysno = await page.evaluate(
      () =>
        [...document.querySelectorAll('[data-testid="device-card"]')]
          .find((card) => card.textContent?.includes('在线') && [...card.querySelectorAll('.ant-tag')].some((t) => t.textContent === '已合闸'))
          ?.getAttribute('data-device') ?? null,
    );
    assert.ok(sysno);
    const card = page.locator(`[data-testid="device-card"][data-device="${sysno}"]`);
    target = (await api(page, 'GET', `/api/CustomerDevice/GetSingleDevice?sysno=${sysno}`)).data;
    // The state tag reads 已合闸 and the action the breaker is already in cannot be pressed.
    assert.equal(await card.getByTestId('switch_on-button').isDisabled(), true);
    assert.equal(await card.getByTestId('switch_off-button').isDisabled(), false);
    await card.getByTestId('switch_off-button').click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText(`确定对“${target.name}”执行分闸操作吗`).waitFor();
    await shot(page, 'control-01-confirm');
    // The drawer must not open underneath: the click stays on the button.
    assert.equal(await page.getByTestId('device-drawer').isVisible().catch(() => false), false);
    await page.locator('#switch-confirm').click();
    await card.getByTestId('switch-result').filter({ hasText: '分闸成功' }).waitFor();
    await card.locator('.ant-tag', { hasText: /^已分闸$/ }).waitFor({ timeout: 15_000 });
    await page.waitForFunction(
      (no) => document.querySelector(`[data-testid="device-card"][data-device="${no}"] [data-testid="switch_off-button"]`)?.disabled === true,
      sysno,
    );
    assert.equal(await card.getByTestId('switch_on-button').isDisabled(), false);
    await shot(page, 'control-02-switched-off');
    const after = (await api(page, 'GET', `/api/CustomerDevice/GetSingleDevice?sysno=${sysno}`)).data;
    assert.equal(after.switch_state, 0);

    // And back on from the device drawer.
    await card.click();
    const drawer = page.getByTestId('device-drawer');
    await drawer.getByTestId('switch_on-button').click();
    await page.locator('#switch-confirm').click();
    await drawer.getByTestId('switch-result').filter({ hasText: '合闸成功' }).waitFor();
    await drawer.locator('.ant-tag', { hasText: /^已合闸$/ }).first().waitFor({ timeout: 15_000 });
    await shot(page, 'control-03-drawer-on');
    await page.keyboard.press('Escape');
    assert.deepEqual(page.errors, []);
  });

  it('shows the commands in the command log', async () => {
    await page.goto(`${server.base}/user-manage/setting/cmd-list`);
    const table = page.getByTestId('command-table');
    await table.getByRole('cell', { name: target.name }).first().waitFor();
    // The demo's month of use holds older commands too, and its load identification may trip a room
    // meanwhile: ours are the two newest of this device.
    const rows = table.locator('tbody tr.ant-table-row', { hasText: target.name });
    assert.match(await rows.nth(0).innerText(), new RegExp(`${target.name}[\\s\\S]*合闸[\\s\\S]*成功`));
    assert.match(await rows.nth(1).innerText(), new RegExp(`${target.name}[\\s\\S]*分闸[\\s\\S]*成功`));
    await shot(page, 'control-04-cmd-list');
  });

  it('lists a timed task with its next run and opens it for editing', async () => {
    const devices = (await api(page, 'POST', '/api/CustomerControl/GetControllableDeviceList', {})).data;
    const created = await api(page, 'POST', '/api/CustomerTimedTask/AddTask', {
      name: '宿舍夜间断电',
      action: 'switch_off',
      repeat: 'weekly',
      weekdays: [1, 2, 3, 4, 5, 6, 7],
      times: ['23:30', '23:50'],
      device_sysnos: devices.slice(1, 12).map((d) => d.sysno),
    });
    assert.equal(created.statusCode, 200, created.message);
    await page.goto(`${server.base}/user-manage/timing-task`);
    const row = page.getByTestId('task-table').locator('tbody tr.ant-table-row').first();
    await row.getByText('每天 23:30、23:50').waitFor();
    assert.match(await row.innerText(), new RegExp(created.data.next_run));
    await shot(page, 'control-05-timing-task');
    await row.getByRole('button', { name: '编辑' }).click();
    await page.getByRole('dialog').getByText('编辑任务').waitFor();
    await shot(page, 'control-06-task-form');
    // Saving the form unchanged sends it back as it came.
    await page.getByRole('dialog').getByRole('button', { name: /确\s?定/ }).click();
    await page.getByText('保存成功').waitFor();
    const saved = (await api(page, 'GET', `/api/CustomerTimedTask/GetSingleTask?sysno=${created.data.sysno}`)).data;
    assert.deepEqual(saved.times, ['23:30', '23:50']);
    assert.equal(saved.device_count, 11);
  });

  it('runs a one-off task at its minute and shows the run with each device', async () => {
    const devices = (await api(page, 'POST', '/api/CustomerControl/GetControllableDeviceList', {})).data;
    const chosen = devices.filter((d) => d.online).slice(0, 3);
    // The next whole minute at least 15 s away, in the customer's time zone.
    const at = new Date(Math.ceil((Date.now() + 15_000) / 60_000) * 60_000);
    const local = new Intl.DateTimeFormat('sv-SE', { timeZone: 'Asia/Shanghai', dateStyle: 'short', timeStyle: 'short' }).format(at);
    const created = await api(page, 'POST', '/api/CustomerTimedTask/AddTask', {
      name: '单次合闸',
      action: 'switch_on',
      repeat: 'once',
      run_at: local,
      device_sysnos: chosen.map((d) => d.sysno),
    });
    assert.equal(created.statusCode, 200, created.message);
    let run;
    for (let i = 0; i < 180 && run?.status !== 'done'; i += 1) {
      await page.waitForTimeout(1000);
      run = (await api(page, 'POST', '/api/CustomerTimedTask/GetRunList', { task_sysno: created.data.sysno })).data.dataSource[0];
    }
    assert.equal(run?.status, 'done');
    assert.equal(run.succeeded, chosen.length);
    await page.goto(`${server.base}/user-manage/timing-task`);
    const row = page.getByTestId('task-table').locator('tbody tr.ant-table-row', { hasText: '单次合闸' });
    await row.getByRole('button', { name: '执行记录' }).click();
    const runs = page.getByTestId('task-runs');
    await runs.getByText(`成功 ${chosen.length} / 失败 0 / 共 ${chosen.length}`).waitFor();
    await runs.locator('.ant-table-row-expand-icon').first().click();
    await runs.getByTestId('run-commands').getByText('成功').first().waitFor();
    await shot(page, 'control-08-task-run');
    await page.keyboard.press('Escape');
  });

  it('builds a group in the form with the device picker', async () => {
    await page.goto(`${server.base}/user-manage/group-control`);
    await page.getByTestId('add-group').click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('分组名称').fill('一楼宿舍');
    const picker = dialog.getByTestId('device-picker');
    await picker.click();
    for (const name of ['101宿舍', '102宿舍']) {
      await page.keyboard.type(name);
      await page.locator('.ant-select-item-option', { hasText: name }).first().click();
    }
    await page.keyboard.press('Escape');
    await shot(page, 'control-09-group-form');
    await dialog.getByRole('button', { name: /确\s?定/ }).click();
    const row = page.getByTestId('group-table').locator('tbody tr.ant-table-row', { hasText: '一楼宿舍' });
    await row.getByText(/^2 个设备/).waitFor();
  });

  it('switches a group across gateways and shows each result', async () => {
    const devices = (await api(page, 'POST', '/api/CustomerControl/GetControllableDeviceList', {})).data;
    const chosen = devices.filter((d) => d.online && d.device_id !== '1').slice(0, 16);
    const group = await api(page, 'POST', '/api/CustomerGroup/AddGroup', {
      name: '全部宿舍回路',
      device_sysnos: chosen.map((d) => d.sysno),
    });
    assert.equal(group.statusCode, 200, group.message);
    await page.goto(`${server.base}/user-manage/group-control`);
    await page.getByTestId('group-switch-off').first().click();
    await page.getByRole('dialog').getByRole('button', { name: /确\s?定/ }).click();
    const progress = page.getByTestId('run-progress');
    await progress.getByTestId('run-counts').filter({ hasText: `成功 ${chosen.length} · 失败 0 · 等待 0 · 已完成` }).waitFor({ timeout: 20_000 });
    await shot(page, 'control-07-group-run');
    assert.deepEqual(page.errors, []);
  });
});
