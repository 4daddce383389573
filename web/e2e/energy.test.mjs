// 能耗统计 and 电价管理 against the real server: a gateway registered through the API is fed 40 days
// of energy counter readings over MQTT (one breaker with a gap, one whose counter resets); the
// screen's total for today equals the counter increase the test computes itself. Then the 总进线,
// 换表 and quarter-hour dialogs, and the tariff plans: the demo plan listed, a new one painted and
// added, a version added and withdrawn, the server's refusal shown. Screenshots at 1440×900 and 390×844.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { api, freePort, launchBrowser, loginWithPassword, newPage, PROJECT_DIR, shot, startServer } from './support.mjs';

const SN = 'E2E-ENERGY-01';
const PROJECT = '科创园办公楼';
const BUILDING = 'B座';
const QUARTER = 15 * 60_000;
const DAY = 24 * 3_600_000;
const SHANGHAI = 8 * 3_600_000;
const HISTORY_DAYS = 40;
const DEMO_PLAN = '广东一般工商业分时电价（示意）';
const NEW_PLAN = 'E2E峰谷电价';

/** A deterministic 0..1 from a number (no Math.random: a failing run can be replayed). */
function noise(n) {
  const x = Math.sin(n * 12.9898) * 43758.5453;
  return x - Math.floor(x);
}

/** kWh a circuit uses in the quarter starting at `t`: an office day, more on weekdays. */
function use(base, t, salt) {
  const hour = ((t + SHANGHAI) % DAY) / 3_600_000;
  const weekday = new Date(t + SHANGHAI).getUTCDay() % 6 !== 0;
  const office = hour >= 8 && hour < 19 ? 0.6 + 0.4 * Math.sin(((hour - 8) / 11) * Math.PI) : 0.12;
  return base * office * (weekday ? 1 : 0.45) * (0.85 + 0.3 * noise(t / QUARTER + salt));
}

const round3 = (v) => Math.round(v * 1000) / 1000;

/**
 * Readings every quarter from 40 days ago to now, plus one just before now: the incomer reads 5 % more
 * than its four circuits together; 插座回路 is silent two hours yesterday (an estimated interval);
 * 电梯's counter resets to zero today (or yesterday just after midnight).
 */
function makeReadings(now) {
  const today = Math.floor((now + SHANGHAI) / DAY) * DAY - SHANGHAI;
  const start = today - HISTORY_DAYS * DAY;
  const lastQuarter = Math.floor(now / QUARTER) * QUARTER;
  const times = [];
  for (let t = start; t <= lastQuarter; t += QUARTER) times.push(t);
  if (now - 5_000 > lastQuarter) times.push(now - 5_000);
  const elapsed = Math.floor((now - today) / QUARTER);
  // A reset needs readings after it to be told from a glitch: today only once four hours have passed.
  const resetToday = elapsed >= 16;
  const resetAt = resetToday ? today + Math.floor(elapsed / 2) * QUARTER : today - DAY + 10 * 4 * QUARTER;
  const gap = [today - DAY + 14 * 4 * QUARTER, today - DAY + 16 * 4 * QUARTER];
  const circuits = [
    { id: '2', name: '照明回路', base: 1.1, counter: 5234.5 },
    { id: '3', name: '空调回路', base: 2.6, counter: 18320.25 },
    { id: '4', name: '插座回路', base: 0.7, counter: 2210.0 },
    { id: '5', name: '电梯', base: 0.5, counter: 980.75 },
  ];
  const main = { id: '1', name: '总进线', counter: 81200.0 };
  const points = Object.fromEntries([main, ...circuits].map((d) => [d.id, []]));
  let previous = null;
  for (const t of times) {
    const share = previous === null ? 0 : (t - previous) / QUARTER;
    let total = 0;
    for (const [i, c] of circuits.entries()) {
      const used = share * use(c.base, t, i * 1000);
      total += used;
      c.counter += used;
      if (c.id === '5' && t === resetAt) c.counter = used;
      if (c.id === '4' && t > gap[0] && t < gap[1]) continue;
      points[c.id].push([t, round3(c.counter)]);
    }
    main.counter += total * 1.05;
    points[main.id].push([t, round3(main.counter)]);
    previous = t;
  }
  return {
    today,
    resetToday,
    // The gap is yesterday: in the month shown unless today is the 1st.
    gapThisMonth: new Date(gap[0] + SHANGHAI).getUTCMonth() === new Date(today + SHANGHAI).getUTCMonth(),
    feed: {
      devices: [{ id: '1', name: '总进线', phases: 3 }, ...circuits.map((c) => ({ id: c.id, name: c.name, phases: 1 }))],
      points,
    },
  };
}

/** The counter increase of a device today: its last reading minus its reading at local midnight. */
function increaseToday(series, today) {
  const first = series.find(([t]) => t >= today);
  const last = series[series.length - 1];
  return last[1] - first[1];
}

/** The number a statistic or cell shows ("1,234.56" → 1234.56). */
const shown = async (locator) => Number((await locator.innerText()).replace(/[^\d.-]/g, ''));

/**
 * The number a row shows under a column title: in its cell, or, where the list folded the column away
 * for want of room, in the row's expanded part.
 */
async function cellValue(table, row, title) {
  const headers = await table.locator('thead th').allTextContents();
  const index = headers.findIndex((text) => text.includes(title));
  if (index >= 0) return shown(row.first().locator('td').nth(index));
  await row.first().getByRole('button', { name: '展开行' }).click();
  const item = table.locator('tr.ant-table-expanded-row .ant-descriptions-item').filter({ hasText: title }).first();
  const value = await shown(item.locator('.ant-descriptions-item-content'));
  await row.first().getByRole('button', { name: '关闭行' }).click();
  return value;
}

/** The page is no wider than the window: wide tables scroll inside their cards. */
async function assertNoPageScroll(page) {
  const { scroll, width } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, width: window.innerWidth }));
  assert.ok(scroll <= width, `page ${scroll}px wide in a ${width}px window`);
}

describe('能耗统计 and 电价管理', () => {
  let server;
  let browser;
  let page;
  let readings;
  let ids;

  before(async () => {
    // The embedded broker on a port of its own, whatever else the machine runs on 1883; the demo's own
    // simulator off, so that no random alarm's notification lands on what the test clicks.
    process.env.POWERPORTAL_MQTT_PORT = String(await freePort());
    process.env.POWERPORTAL_DEMO_SIMULATOR = '0';
    server = await startServer({ brand: 0 });
    browser = await launchBrowser();
    page = await newPage(browser, { width: 1440, height: 900 });
    await page.goto(`${server.base}/user-manage/eng`);
    await loginWithPassword(page);
    await page.waitForURL(/\/eng$/);
  });

  after(async () => {
    await browser?.close();
    server?.stop();
  });

  it('counts what a gateway fed today, to the hundredth of a kWh', async () => {
    const projects = (await api(page, 'POST', '/api/CustomerProject/GetProjectList', { name: PROJECT })).data.dataSource;
    const project = projects[0];
    const building = project.list_child.find((b) => b.name === BUILDING);
    const added = await api(page, 'POST', '/api/CustomerGateway/AddGateway', {
      sn: SN,
      name: 'B座配电箱',
      project_sysno: project.sysno,
      building_sysno: building.sysno,
    });
    assert.equal(added.statusCode, 200, added.message);

    const now = Date.now();
    readings = makeReadings(now);
    const file = join(server.dir, 'energy-readings.json');
    writeFileSync(file, JSON.stringify(readings.feed));
    const run = promisify(execFile);
    await run(
      'uv',
      ['run', '--project', PROJECT_DIR, 'python', join(PROJECT_DIR, 'web', 'e2e', 'feed_energy.py'), '--sn', SN, '--secret', added.data.secret, '--readings', file],
      { cwd: server.dir, env: server.env, timeout: 120_000 },
    );

    // Wait until the server has stored the last reading of every device.
    const lighting = readings.feed.points['2'];
    const expected = increaseToday(lighting, readings.today);
    const day = new Date(now + 8 * 3_600_000).toISOString().slice(0, 10);
    const deadline = Date.now() + 90_000;
    let table;
    for (;;) {
      const devices = (await api(page, 'POST', '/api/CustomerDevice/GetDeviceList', { keyword: SN, pageSize: 10 })).data;
      ids = Object.fromEntries(devices.dataSource.map((d) => [d.device_id, d.sysno]));
      if (Object.keys(ids).length === 5) {
        table = (await api(page, 'POST', '/api/CustomerEnergy/GetEnergyTable', { project_sysno: project.sysno, building_sysno: building.sysno, view: 'day', date: day })).data;
        const ends = Object.fromEntries(table.rows.map((r) => [r.device_sysno, r.end_reading]));
        const used = table.rows.find((r) => r.device_sysno === ids['2'])?.kwh ?? 0;
        // every reading stored, and the roll-ups (folded at most every 5 s) caught up with them
        if (Object.entries(ids).every(([id, sysno]) => ends[sysno] === readings.feed.points[id].at(-1)[1])
          && Math.abs(used - expected) <= 0.01) break;
      }
      assert.ok(Date.now() < deadline, 'the readings were stored within 90 s');
      await page.waitForTimeout(1000);
    }

    // The screen: 科创园办公楼 › B座 › 照明回路 from the tree.
    await page.reload();
    const tree = page.getByTestId('scope-tree');
    await tree.getByText(PROJECT).click();
    await tree.getByTestId(`scope-b-${project.sysno}-${building.sysno}`).waitFor();
    await tree.getByTestId(`scope-d-${project.sysno}-${ids['2']}`).click();
    const total = page.getByTestId('energy-total-kwh').locator('.ant-statistic-content-value');
    await page.waitForFunction(
      (target) => {
        const text = document.querySelector('[data-testid="energy-total-kwh"] .ant-statistic-content-value')?.textContent ?? '';
        return Math.abs(Number(text.replace(/[^\d.-]/g, '')) - target) < 0.011;
      },
      expected,
      { timeout: 15_000 },
    ).catch(() => undefined);
    const onScreen = await shown(total);
    assert.ok(Math.abs(onScreen - expected) <= 0.01, `screen ${onScreen} kWh, counter rose ${expected.toFixed(3)} kWh today`);
    const row = page.getByTestId('energy-table').locator('tr.ant-table-row').filter({ hasText: '照明回路' });
    // The 用电量 column, wherever the list places it (columns that do not fit fold away).
    const headers = await page.getByTestId('energy-table').locator('thead th').allTextContents();
    const kwh = headers.findIndex((text) => text.includes('用电量'));
    assert.ok(kwh >= 0, '用电量 is a column of the table');
    const inTable = await shown(row.locator('td').nth(kwh));
    assert.ok(Math.abs(inTable - expected) <= 0.01, `the table agrees: ${inTable} in column ${kwh} of ${headers.join('|')}`);
    assert.equal(await cellValue(page.getByTestId('energy-table'), row, '起始读数'), lighting.find(([t]) => t >= readings.today)[1], 'start reading at 00:00');
  });

  it('shows a building by tariff period, in kWh and ¥, with estimated and reset intervals marked', async () => {
    const tree = page.getByTestId('scope-tree');
    await tree.getByText(BUILDING).click();
    await page.getByTestId('energy-table').locator('tr.ant-table-row').filter({ hasText: '电梯' }).waitFor();
    const elevator = page.getByTestId('energy-table').locator('tr.ant-table-row').filter({ hasText: '电梯' });
    if (readings.resetToday) await elevator.getByText('含计数器复位').waitFor().catch(async (error) => {
      throw new Error(`${error.message}\nrows: ${await elevator.allInnerTexts()}`);
    });
    await page.getByTestId('energy-chart').waitFor();
    await page.waitForTimeout(600);
    await shot(page, 'energy-01-day-kwh');
    await page.getByTestId('energy-unit').getByText('¥').click();
    await page.getByTestId('energy-total-cost').waitFor();
    await page.waitForTimeout(600);
    await shot(page, 'energy-02-day-cost');

    await page.getByTestId('energy-view').getByText('月').click();
    if (readings.gapThisMonth) {
      await page.waitForFunction(() => document.querySelector('[data-testid="energy-flags"]')?.textContent?.includes('含估算'), null, { timeout: 15_000 });
    }
    await page.getByTestId('energy-unit').getByText('kWh').click();
    await page.waitForTimeout(600);
    await shot(page, 'energy-03-month-kwh');
    const mom = await page.getByTestId('energy-mom-base').innerText();
    assert.match(mom, /上期/);
    await page.getByTestId('energy-unit').getByText('¥').click();
    await page.waitForTimeout(600);
    await shot(page, 'energy-04-month-cost');
    await page.getByTestId('energy-unit').getByText('kWh').click();
    await page.getByTestId('energy-ranking').getByText('插座回路').waitFor();
    // A custom range opens on the week up to the day shown (today, the month view's own date).
    await page.getByTestId('energy-view').getByText('自定义').click();
    const week = `${new Date(readings.today + SHANGHAI - 6 * DAY).toISOString().slice(0, 10)} 至 ${new Date(readings.today + SHANGHAI).toISOString().slice(0, 10)}`;
    await page.getByTestId('energy-summary').getByText(week).first().waitFor();
    assert.deepEqual(page.errors, []);
  });

  it('marks the 总进线 and shows the building\'s 公摊/损耗', async () => {
    const main = page.getByTestId('energy-table').locator('tr.ant-table-row').filter({ hasText: '总进线' });
    await main.getByRole('button', { name: '计量设置' }).click();
    const dialog = page.getByTestId('metering-modal');
    await dialog.getByTestId('incoming-main-switch').click();
    await page.getByText('总进线设置已保存').waitFor();
    await page.keyboard.press('Escape');
    const losses = page.getByTestId('energy-losses');
    await losses.locator('tr.ant-table-row').filter({ hasText: BUILDING }).waitFor();
    const ratio = await cellValue(losses, losses.locator('tr.ant-table-row').filter({ hasText: BUILDING }), '损耗率');
    // The incomer read 5 % more than its circuits: 1 − 1/1.05 ≈ 4.76 % of it is lost (months of rounding aside).
    assert.ok(ratio > 4.5 && ratio < 5.0, `loss ratio ${ratio} %`);
    await losses.scrollIntoViewIfNeeded();
    await shot(page, 'energy-05-losses');
  });

  it('records and withdraws a meter change from the device row', async () => {
    const elevator = page.getByTestId('energy-table').locator('tr.ant-table-row').filter({ hasText: '电梯' });
    await elevator.getByRole('button', { name: '计量设置' }).click();
    const dialog = page.getByTestId('metering-modal');
    await dialog.getByText('暂无换表记录').waitFor();
    // Before the first reading, from the final reading of the old meter to the first of the new one: nothing to recount.
    const before = new Date(readings.today - (HISTORY_DAYS + 2) * DAY + SHANGHAI).toISOString().slice(0, 10);
    await dialog.getByLabel('换表时间').fill(`${before} 09:30:00`);
    await dialog.getByLabel('换表时间').press('Enter');
    await dialog.getByLabel('旧表止码 (kWh)').fill('12034.5');
    await dialog.getByLabel('新表起码 (kWh)').fill(String(readings.feed.points['5'][0][1]));
    await dialog.getByLabel('备注').fill('旧表损坏更换');
    await dialog.getByRole('button', { name: /添加换表记录/ }).click();
    await page.getByText('换表记录已添加，相关时段已重新计算').waitFor();
    await dialog.getByRole('cell', { name: `${before} 09:30:00` }).waitFor();
    await shot(page, 'energy-06-meter-change');
    await dialog.getByRole('button', { name: /删\s*除/ }).click();
    await page.locator('.ant-popconfirm').getByRole('button', { name: /确\s*定/ }).click();
    await page.getByText('换表记录已删除，相关时段已重新计算').waitFor();
    await dialog.getByText('暂无换表记录').waitFor();
    await page.keyboard.press('Escape');
  });

  it('opens a device day of quarter-hours from the table', async () => {
    await page.getByTestId('energy-view').getByText('日').click();
    const lighting = page.getByTestId('energy-table').locator('tr.ant-table-row').filter({ hasText: '照明回路' });
    await lighting.getByRole('button', { name: '分时明细' }).click();
    const dialog = page.getByTestId('quarter-modal');
    await dialog.getByTestId('quarter-chart').waitFor();
    const expected = increaseToday(readings.feed.points['2'], readings.today);
    const text = await dialog.getByTestId('quarter-total').innerText();
    const kwh = Number(text.match(/合计 ([\d,.]+) kWh/)[1].replace(/,/g, ''));
    assert.ok(Math.abs(kwh - expected) <= 0.01, `quarters add up to ${kwh}, counter rose ${expected}`);
    await page.waitForTimeout(500);
    await shot(page, 'energy-07-quarters');
    await page.keyboard.press('Escape');
  });

  it('报表统计: the building report agrees with 能耗统计 and its Excel export holds every hour of every device', async () => {
    const project = (await api(page, 'POST', '/api/CustomerProject/GetProjectList', { name: PROJECT })).data.dataSource[0];
    const building = project.list_child.find((b) => b.name === BUILDING);
    const day = new Date(readings.today + SHANGHAI).toISOString().slice(0, 10);
    const scope = { project_sysno: project.sysno, building_sysno: building.sysno, view: 'day', date: day };
    const table = (await api(page, 'POST', '/api/CustomerEnergy/GetEnergyTable', scope)).data;
    const lighting = table.rows.find((r) => r.name === '照明回路');

    await page.goto(`${server.base}/user-manage/report`);
    await page.getByTestId('report-project').click();
    await page.locator('.ant-select-dropdown:visible').getByTitle(PROJECT, { exact: true }).click();
    await page.getByTestId('report-building').click();
    await page.locator('.ant-select-dropdown:visible').getByTitle(BUILDING, { exact: true }).click();
    // Until the building choice applies, the table holds the whole project (A座's 照明回路 too).
    const row = page.getByTestId('report-table').locator('tr.ant-table-row')
      .filter({ hasText: '照明回路' }).filter({ hasText: BUILDING });
    await row.waitFor();
    await page.getByTestId('report-table').locator('tr.ant-table-row').filter({ hasText: 'A座' })
      .first().waitFor({ state: 'detached' });
    const kwh = lighting.kwh.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    await row.getByText(kwh, { exact: true }).first().waitFor();
    const total = await shown(page.getByTestId('report-total-kwh'));
    assert.ok(Math.abs(total - table.total_kwh) <= 0.01, `report ${total} kWh, 能耗统计 ${table.total_kwh} kWh`);
    await page.waitForTimeout(600);
    await shot(page, 'report-01-energy-by-device');

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('report-export').click()]);
    assert.match(download.suggestedFilename(), /^能耗报表_科创园办公楼_.*_按小时\.xlsx$/);
    const file = join(server.dir, 'report.xlsx');
    await download.saveAs(file);
    const check = [
      'import json, sys, openpyxl',
      'book = openpyxl.load_workbook(sys.argv[1], read_only=True)',
      'rows = list(book["明细"].iter_rows(values_only=True))',
      'kwh = rows[0].index("电量(kWh)")',
      'print(json.dumps({"sheets": book.sheetnames, "rows": len(rows) - 1,',
      '  "lighting": sum(r[kwh] for r in rows[1:] if r[0] == "照明回路"),',
      '  "hours": len({r[1] for r in rows[1:]})}))',
    ].join('\n');
    const run = promisify(execFile);
    const { stdout } = await run('uv', ['run', '--project', PROJECT_DIR, 'python', '-c', check, file], { cwd: server.dir, env: server.env });
    const book = JSON.parse(stdout);
    assert.deepEqual(book.sheets, ['汇总', '明细']);
    assert.equal(book.hours, 24);
    assert.equal(book.rows, 5 * 24, 'every hour of every device of the building, not a page');
    assert.ok(Math.abs(book.lighting - lighting.kwh) <= 0.02, `明细 ${book.lighting} kWh, 能耗统计 ${lighting.kwh} kWh`);

    await page.getByTestId('report-group').getByText('按建筑').click();
    // The device rows (each naming its building) give way to the building's row.
    await page.getByTestId('report-table').locator('tr.ant-table-row').filter({ hasText: '照明回路' }).waitFor({ state: 'detached' });
    await page.getByTestId('report-table').locator('tr.ant-table-row').filter({ hasText: BUILDING }).waitFor();
    await page.getByTestId('report-table-card').scrollIntoViewIfNeeded();
    await page.waitForTimeout(600);
    await shot(page, 'report-02-energy-by-building');
    await page.getByTestId('report-group').getByText('按设备').click();
    await page.getByTestId('report-table').locator('tr.ant-table-row').filter({ hasText: '电梯' }).waitFor();
    await page.getByTestId('report-table-card').scrollIntoViewIfNeeded();
    await page.waitForTimeout(600);
    await shot(page, 'report-03-energy-table');
    assert.deepEqual(page.errors, []);
  });

  it('lists the demo tariff plan, adds a painted plan, and shows the server refusing to withdraw a version in force', async () => {
    await page.goto(`${server.base}/user-manage/setting/tariff-list`);
    const rowOf = (name) => page.getByTestId('plan-table').locator('tr.ant-table-row').filter({ hasText: name });
    await rowOf(DEMO_PLAN).waitFor();
    assert.match(await rowOf(DEMO_PLAN).innerText(), /默认/);
    await shot(page, 'tariff-01-list');

    await page.getByRole('button', { name: /新建方案/ }).click();
    const dialog = page.getByTestId('plan-modal');
    await dialog.getByLabel('方案名称').waitFor();
    // The strip is measured for the drag below: wait for the dialog's opening zoom to end.
    await page.waitForTimeout(500);
    await dialog.getByLabel('方案名称').fill(NEW_PLAN);
    await dialog.getByTestId('version-problems').getByText('已使用“平”时段，请填写其电价').waitFor();
    const priceInput = (key) => dialog.locator(`#tariff-plan_version_prices_${key}`);
    await priceInput('peak').fill('1.05');
    await priceInput('flat').fill('0.65');
    await priceInput('valley').fill('0.3');
    // 谷 from 00:00 to 08:00: drag across the first 16 cells; 峰 from 18:00 to 21:00, cell by cell.
    await dialog.getByTestId('season-0-slots-brush-3').click();
    const cell = (n) => dialog.getByTestId('season-0-slots').locator(`[data-slot="${n}"]`);
    // The mouse drags by window coordinates: the strip in the middle of the window, clear of any toast.
    await dialog.getByTestId('season-0-slots').evaluate((el) => el.scrollIntoView({ block: 'center' }));
    const from = await cell(0).boundingBox();
    const to = await cell(15).boundingBox();
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 4 });
    await page.mouse.up();
    await dialog.getByTestId('season-0-slots-brush-1').click();
    for (let n = 36; n < 42; n += 1) await cell(n).click();
    await dialog.getByText('00:00–08:00 谷；08:00–18:00 平；18:00–21:00 峰；21:00–24:00 平').waitFor().catch(async (error) => {
      await shot(page, 'dbg-tariff-paint');
      throw error;
    });
    await shot(page, 'tariff-02-new-plan');
    await dialog.getByTestId('version-problems').waitFor({ state: 'detached' });
    await page.locator('.ant-modal-footer').getByRole('button', { name: /确\s*定/ }).click();
    await page.getByText('方案已保存').waitFor();
    await rowOf(NEW_PLAN).waitFor();
    const plans = (await api(page, 'POST', '/api/CustomerEnergy/GetTariffPlanList', { name: NEW_PLAN })).data.dataSource;
    assert.equal(plans[0].versions[0].seasons[0].slots, `${'3'.repeat(16)}${'2'.repeat(20)}${'1'.repeat(6)}${'2'.repeat(6)}`);
    assert.deepEqual(plans[0].versions[0].prices, { sharp: null, peak: 1.05, flat: 0.65, valley: 0.3, deep: null });

    await rowOf(DEMO_PLAN).getByRole('button', { name: '编辑' }).click();
    const editor = page.getByTestId('plan-modal');
    await editor.getByTestId('plan-versions').getByText('2024-01-01 起').waitFor();
    // Clicked once the dialog's opening zoom is over, not where the button was a frame ago.
    await page.waitForTimeout(500);
    await editor.getByTestId('delete-version-2024-01-01').click();
    await page.locator('.ant-popconfirm').getByRole('button', { name: /确\s*定/ }).click();
    await page.getByText('已生效的版本不能删除（已计的电费不会改变）').waitFor();
    // The editor holds the plan clicked (not the new plan's leftovers); confirming did not fold the version.
    assert.equal(await editor.getByLabel('方案名称').inputValue(), DEMO_PLAN);
    assert.ok(await editor.getByRole('switch').first().isChecked(), 'the demo plan is the default');
    await editor.getByTestId('plan-versions').getByText('夏季（7–9月）').waitFor();
    await shot(page, 'tariff-03-plan-editor');

    await editor.getByRole('button', { name: /新增版本/ }).click();
    const version = page.locator('.ant-modal').filter({ has: page.getByTestId('version-modal') });
    await version.getByTestId('version-fields').waitFor();
    await page.waitForTimeout(500);
    await shot(page, 'tariff-04-new-version');
    await version.getByRole('button', { name: /确\s*定/ }).click();
    await page.getByText('版本已添加').waitFor();
    await page.waitForTimeout(500);
    const tomorrow = new Date(Date.now() + SHANGHAI + DAY).toISOString().slice(0, 10);
    await editor.getByTestId(`delete-version-${tomorrow}`).click();
    await page.locator('.ant-popconfirm').last().getByRole('button', { name: /确\s*定/ }).click();
    await page.getByText('版本已删除').waitFor();
    await editor.getByTestId(`delete-version-${tomorrow}`).waitFor({ state: 'detached' });
    await page.keyboard.press('Escape');

    await page.getByRole('tab', { name: '项目电价' }).click();
    await page.getByTestId('project-tariffs').getByText(PROJECT).waitFor();
    await shot(page, 'tariff-05-projects');
    assert.deepEqual(page.errors, []);
  });

  it('stacks on a phone: no page-wide scrolling, tables scroll in their cards, dialogs full width', async () => {
    const phone = await newPage(browser, { width: 390, height: 844 });
    await phone.goto(`${server.base}/user-manage/eng`);
    await loginWithPassword(phone);
    await phone.waitForURL(/\/eng$/);
    const tree = phone.getByTestId('scope-tree');
    await tree.getByText(PROJECT).click();
    await tree.getByText(BUILDING).click();
    await phone.getByTestId('energy-chart').waitFor();
    await phone.waitForTimeout(600);
    await assertNoPageScroll(phone);
    await shot(phone, 'energy-m1-scope');
    await phone.getByTestId('energy-chart-card').scrollIntoViewIfNeeded();
    await shot(phone, 'energy-m2-day-kwh');
    await phone.getByTestId('energy-view').getByText('月').click();
    await phone.getByTestId('energy-unit').getByText('¥').click();
    await phone.waitForTimeout(800);
    await phone.getByTestId('energy-chart-card').scrollIntoViewIfNeeded();
    await shot(phone, 'energy-m3-month-cost');
    await phone.getByTestId('energy-table-card').scrollIntoViewIfNeeded();
    await shot(phone, 'energy-m4-table');
    await assertNoPageScroll(phone);

    // On a phone the actions fold into the row's expanded part.
    const main = phone.getByTestId('energy-table').locator('tr.ant-table-row').filter({ hasText: '总进线' });
    await main.getByRole('button', { name: '展开行' }).click();
    await phone.getByTestId('energy-table').locator('tr.ant-table-expanded-row').getByRole('button', { name: '计量设置' }).first().click();
    const dialog = phone.locator('.ant-modal').filter({ has: phone.getByTestId('metering-modal') });
    await dialog.waitFor();
    // Measured once the opening zoom has finished.
    await phone.waitForTimeout(600);
    const box = await dialog.boundingBox();
    assert.ok(box.width >= 390 - 20, `dialog ${box.width}px wide`);
    await shot(phone, 'energy-m5-metering');
    await phone.keyboard.press('Escape');

    await phone.goto(`${server.base}/user-manage/setting/tariff-list`);
    await phone.getByTestId('plan-table').locator('tr.ant-table-row').filter({ hasText: DEMO_PLAN }).waitFor();
    await assertNoPageScroll(phone);
    await shot(phone, 'tariff-m1-list');
    await phone.getByRole('button', { name: /新建方案/ }).click();
    await phone.getByTestId('season-0-slots').waitFor();
    await phone.waitForTimeout(500);
    await shot(phone, 'tariff-m2-new-plan');
    await phone.getByTestId('season-0-slots').scrollIntoViewIfNeeded();
    await shot(phone, 'tariff-m3-slots');

    await phone.goto(`${server.base}/user-manage/report`);
    await phone.getByTestId('report-table').waitFor();
    await phone.waitForTimeout(600);
    await assertNoPageScroll(phone);
    await shot(phone, 'report-m1-filters');
    assert.deepEqual(phone.errors, []);
    await phone.context().close();
  });
});
