// 负荷识别 end to end: the simulator switches a kettle on in room 101 of 1号宿舍楼 (a real tracebase
// switch-on replayed over MQTT, with a synthesised waveform); the screen lists it as a forbidden 电水壶,
// the building's demo policy trips the breaker through the command path, and the event's charts,
// the statistics and the policy editor show it. The demo's own simulator is off
// (POWERPORTAL_DEMO_SIMULATOR=0) so that this kettle is the only switch-on; e2e/simulate_kettle.py
// runs the real simulator for the first demo gateway instead.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { api, launchBrowser, loginWithPassword, newPage, PROJECT_DIR, shot, startServer, WEB_DIR } from './support.mjs';

describe('load identification (brand 0, loadWaveform on)', () => {
  let server;
  let browser;
  let page;
  let simulator;

  before(async () => {
    process.env.POWERPORTAL_DEMO_SIMULATOR = '0';
    server = await startServer({ brand: 0 });
    browser = await launchBrowser();
    page = await newPage(browser);
  });

  after(async () => {
    await browser?.close();
    if (simulator?.exitCode === null) process.kill(-simulator.pid, 'SIGTERM');
    server?.stop();
  });

  it('opens 负荷识别 from the top bar', async () => {
    await page.goto(`${server.base}/login`);
    await loginWithPassword(page);
    await page.waitForURL(/\/dashboard$/);
    await page.goto(`${server.base}/user-manage/load-identify`);
    await page.getByTestId('load-events').waitFor();
    await page.getByRole('tab', { name: '识别记录' }).waitFor();
  });

  it('a kettle switched on in 101宿舍 is listed as a forbidden 电水壶 and its breaker trips', async () => {
    simulator = spawn(
      'uv',
      ['run', '--project', PROJECT_DIR, 'python', join(WEB_DIR, 'e2e', 'simulate_kettle.py'), '--seconds', '180'],
      { cwd: server.dir, env: server.env, detached: true, stdio: 'ignore' },
    );
    // The list refreshes every 10 s; the simulator needs a few seconds to start.
    const row = page.locator('tr.ant-table-row', { hasText: '101宿舍' }).filter({ hasText: '电水壶' }).first();
    await row.waitFor({ timeout: 60_000 });
    assert.match(await row.innerText(), /1号宿舍楼[\s\S]*电水壶[\s\S]*违规[\s\S]*跳闸/);
    await page.waitForFunction(
      () => [...document.querySelectorAll('tr.ant-table-row')].some((r) => r.textContent.includes('101宿舍') && r.textContent.includes('已跳闸')),
      null,
      { timeout: 30_000 },
    );
    assert.match(await row.locator('[data-testid="load-result"]').innerText(), /已跳闸，\d\d:\d\d 自动合闸/);
    await shot(page, 'load-identify-01-events');

    const events = await api(page, 'POST', '/api/CustomerLoadIdentify/GetLoadEventList', { forbidden: 1 });
    const kettle = events.data.dataSource.find((e) => e.target_name === '101宿舍');
    assert.equal(kettle.appliance, '电水壶');
    assert.equal(kettle.action, 'trip');
    assert.equal(kettle.trip_state, 'done');
    // The trip is an ordinary command in the command log, from 负荷识别, and it went through.
    const commands = await api(page, 'POST', '/api/CustomerCommandLog/GetCommandLogList', { source: 'load' });
    assert.equal(commands.data.totalCount, 1, JSON.stringify(commands.data.dataSource));
    const trip = commands.data.dataSource[0];
    assert.equal(trip.action, 'switch_off');
    assert.equal(trip.status, 'succeeded');
    assert.match(trip.target_name, /101宿舍/);
    // The violation raised a load_violation alarm.
    const alarms = await api(page, 'POST', '/api/CustomerAlarm/GetAlarmList', { alarm_type: 'load_violation' });
    assert.ok(alarms.data.dataSource.some((a) => /101宿舍.*电水壶/.test(a.detail)), 'the violation alarm');
  });

  it('the event shows its power step, waveform and V-I trajectory', async () => {
    const row = page.locator('tr.ant-table-row', { hasText: '101宿舍' }).filter({ hasText: '电水壶' }).first();
    await row.getByRole('button', { name: '详情' }).click();
    const detail = page.getByTestId('load-event-detail');
    await detail.waitFor();
    for (const chart of ['load-power-step', 'load-waveform', 'load-vi']) {
      await page.getByTestId(chart).locator('canvas').waitFor();
    }
    assert.match(await detail.innerText(), /电水壶[\s\S]*违规/);
    await shot(page, 'load-identify-02-detail');
    await page.getByTestId('load-vi').scrollIntoViewIfNeeded();
    await shot(page, 'load-identify-02-waveform');
    await page.locator('.ant-drawer-close').click();
    await row.getByRole('button', { name: '房间记录' }).click();
    const history = page.getByTestId('load-room-history');
    await history.locator('tr.ant-table-row').first().waitFor();
    assert.match(await history.innerText(), /电水壶/);
    await shot(page, 'load-identify-03-room');
    await page.locator('.ant-drawer-close').click();
  });

  it('the statistics count the violation by building and category', async () => {
    await page.getByRole('tab', { name: '违规统计' }).click();
    await page.getByTestId('load-by-building').locator('canvas').waitFor();
    await page.getByTestId('load-by-appliance').locator('canvas').waitFor();
    const stats = await api(page, 'POST', '/api/CustomerLoadIdentify/GetLoadStatistics', {});
    assert.ok(stats.data.by_building.some((b) => b.building_name === '1号宿舍楼' && b.count >= 1 && b.tripped >= 1));
    assert.ok(stats.data.by_appliance.some((a) => a.appliance === '电水壶'));
    await shot(page, 'load-identify-04-statistics');
  });

  it('the policy editor shows the school policy and the tripping building, and saves a change', async () => {
    await page.getByRole('tab', { name: '识别策略' }).click();
    const editor = page.getByTestId('load-policy');
    await editor.getByText('1号宿舍楼').first().waitFor();
    assert.match(await editor.innerText(), /项目策略[\s\S]*电水壶[\s\S]*1号宿舍楼[\s\S]*跳闸，5 分钟后自动合闸，每日最多 3 次/);
    await shot(page, 'load-identify-05-policy');
    await page.getByTestId('policy-edit-project').click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('仅记录').click();
    await dialog.locator('.ant-modal-footer .ant-btn-primary').click();
    await page.getByText('保存成功').first().waitFor();
    await editor.getByText('仅记录').first().waitFor();
    assert.deepEqual(page.errors, []);
  });

  it('shows the accuracy measured on appliances the model never saw, synthetic figures marked', async () => {
    await page.getByRole('tab', { name: '识别准确率' }).click();
    const panel = page.getByTestId('load-accuracy');
    const first = panel.locator('tr.ant-table-row', { hasText: '1 Hz 功率，接入后 120 秒' });
    await first.waitFor();
    const saved = await api(page, 'GET', '/api/CustomerLoadIdentify/GetLoadModelAccuracy');
    const row = saved.data.rows[0];
    assert.match(await first.innerText(), new RegExp(`${(row.recall * 100).toFixed(1)}%[\\s\\S]*${(row.false_alarms * 100).toFixed(1)}%`));
    const wave = panel.locator('tr.ant-table-row', { hasText: '120 秒 + 波形（230 V 50 Hz）' });
    assert.match(await wave.innerText(), /仿真/);
    assert.match(await panel.innerText(), /PLAID[\s\S]*准确率 \d+\.\d%/);
    await shot(page, 'load-identify-07-accuracy');
  });

  it('fits a phone', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('tab', { name: '识别记录' }).click();
    const row = page.locator('tr.ant-table-row', { hasText: '101宿舍' }).first();
    await row.waitFor();
    assert.match(await row.innerText(), /电水壶[\s\S]*违规/);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 390, `the page is ${width} px wide`);
    await shot(page, 'load-identify-06-phone');
    await page.getByRole('tab', { name: '识别准确率' }).click();
    await page.getByTestId('load-accuracy').locator('tr.ant-table-row').first().waitFor();
    const accuracyWidth = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(accuracyWidth <= 390, `the accuracy tab is ${accuracyWidth} px wide`);
    await shot(page, 'load-identify-08-accuracy-phone');
  });
});
