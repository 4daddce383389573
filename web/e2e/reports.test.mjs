// 报表统计's alarm, availability and control reports against the real server and the demo's simulated
// gateways: today's alarms and offline spells are written by e2e/seed_reports.py, a command is sent to a
// demo breaker through the API; each tab's figure on screen equals the API's (and the list screens'
// calls), and its Excel download holds every row. Screenshots at 1440×900 and 390×844.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { api, launchBrowser, loginWithPassword, newPage, PROJECT_DIR, shot, startServer, WEB_DIR } from './support.mjs';

const run = promisify(execFile);
const shown = async (locator) => Number((await locator.innerText()).replace(/[^\d.-]/g, ''));

/** The project's name, then today in the server's time zone (Asia/Shanghai). */
const today = () => new Date(Date.now() + 8 * 3_600_000).toISOString().slice(0, 10);

/** A downloaded workbook's sheets and how many rows (under its header) each has. */
async function readBook(server, download, name) {
  const file = join(server.dir, name);
  await download.saveAs(file);
  const check = [
    'import json, sys, openpyxl',
    'book = openpyxl.load_workbook(sys.argv[1], read_only=True)',
    'print(json.dumps({s: [list(r) for r in book[s].iter_rows(values_only=True)] for s in book.sheetnames}, default=str))',
  ].join('\n');
  const { stdout } = await run('uv', ['run', '--project', PROJECT_DIR, 'python', '-c', check, file], { cwd: server.dir, env: server.env });
  return JSON.parse(stdout);
}

/** Opens a report's tab, from the tab bar's overflow menu where a narrow window hides it there. */
async function openTab(page, name) {
  const tab = page.getByRole('tab', { name });
  if (!(await tab.isVisible())) {
    await page.locator('.ant-tabs-nav-more').click();
    await page.locator('.ant-tabs-dropdown:visible').getByText(name, { exact: true }).click();
    return;
  }
  await tab.click();
}

async function assertNoPageScroll(page) {
  const { scroll, width } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, width: window.innerWidth }));
  assert.ok(scroll <= width, `page ${scroll}px wide in a ${width}px window`);
}

describe('报表统计: alarm, availability and control reports', () => {
  let server;
  let browser;
  let page;
  let project;
  let scope;

  before(async () => {
    server = await startServer({ brand: 0 });
    browser = await launchBrowser();
    page = await newPage(browser, { width: 1440, height: 900 });
  });

  after(async () => {
    await browser?.close();
    server?.stop();
  });

  it('logs in, waits for the demo breakers, writes today’s alarms and spells and sends a command', async () => {
    await page.goto(`${server.base}/login`);
    await loginWithPassword(page);
    await page.waitForURL(/\/dashboard$/);
    // The seed needs the first demo gateway's breakers announced: it says so until they are.
    let seeded;
    const deadline = Date.now() + 60_000;
    while (!seeded) {
      try {
        ({ stdout: seeded } = await run('uv', ['run', '--project', PROJECT_DIR, 'python', join(WEB_DIR, 'e2e', 'seed_reports.py')], {
          cwd: server.dir,
          env: server.env,
        }));
      } catch (error) {
        if (Date.now() > deadline) throw error;
        await page.waitForTimeout(1000);
      }
    }
    const projects = (await api(page, 'POST', '/api/CustomerProject/GetProjectList', { name: JSON.parse(seeded).project })).data.dataSource;
    project = projects[0];
    scope = { project_sysno: project.sysno, view: 'day', date: today() };
    let device;
    while (!device) {
      const list = (await api(page, 'POST', '/api/CustomerControl/GetControllableDeviceList', { project_sysno: project.sysno })).data ?? [];
      device = list.find((d) => d.online);
      if (!device) {
        assert.ok(Date.now() < deadline, 'a demo breaker of the project online');
        await page.waitForTimeout(500);
      }
    }
    const sent = await api(page, 'POST', '/api/CustomerControl/SendCommand', { device_sysno: device.sysno, action: 'read_now' });
    assert.equal(sent.statusCode, 200, sent.message);

    await page.goto(`${server.base}/user-manage/report`);
    await page.getByTestId('report-project').click();
    await page.locator('.ant-select-dropdown:visible').getByTitle(project.name, { exact: true }).click();
  });

  it('告警报表: the total on screen is the alarm list’s, and the Excel holds every alarm', async () => {
    await openTab(page, '告警报表');
    const report = (await api(page, 'POST', '/api/CustomerReport/GetAlarmReport', scope)).data;
    const list = (
      await api(page, 'POST', '/api/CustomerAlarm/GetAlarmList', { project_sysno: project.sysno, start_time: scope.date, end_time: scope.date })
    ).data;
    assert.ok(report.total >= 3, `${report.total} alarms today`);
    assert.equal(report.total, list.totalCount);
    await page.getByTestId('alarm-table').locator('tr.ant-table-row').first().waitFor();
    await page.waitForFunction((n) => document.querySelector('[data-testid="alarm-total"]')?.textContent?.includes(String(n)), report.total);
    assert.equal(await shown(page.getByTestId('alarm-total')), report.total);
    assert.equal(await shown(page.getByTestId('alarm-active')), report.active);
    await page.waitForTimeout(800);
    await shot(page, 'report-04-alarm');
    await page.getByTestId('alarm-open').scrollIntoViewIfNeeded();
    await shot(page, 'report-05-alarm-tables');

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('report-export').click()]);
    assert.match(download.suggestedFilename(), /^告警报表_.*\.xlsx$/);
    const book = await readBook(server, download, 'alarm.xlsx');
    assert.deepEqual(Object.keys(book), ['汇总', '按类型', '按级别', '按建筑', '最长未恢复告警', '告警明细']);
    assert.equal(book['告警明细'].length - 1, report.total, 'every alarm of the day, not a page');
    assert.deepEqual(page.errors, []);
  });

  it('在线率报表: the spells on screen are the offline log’s, and the Excel holds every spell', async () => {
    await openTab(page, '在线率报表');
    const report = (await api(page, 'POST', '/api/CustomerReport/GetAvailabilityReport', scope)).data;
    const log = (
      await api(page, 'POST', '/api/CustomerOfflineLog/GetOfflineLogList', { project_sysno: project.sysno, start_time: scope.date, end_time: scope.date })
    ).data;
    const spells = report.gateway_offline_count + report.device_offline_count;
    assert.ok(spells >= 3);
    assert.equal(spells, log.totalCount);
    await page.getByTestId('availability-table').locator('tr.ant-table-row').first().waitFor();
    await page.waitForFunction((n) => document.querySelector('[data-testid="availability-spells"]')?.textContent?.includes(String(n)), spells);
    assert.equal(await shown(page.getByTestId('availability-spells')), spells);
    const rate = await shown(page.getByTestId('availability-device-rate'));
    assert.ok(Math.abs(rate - report.device_rate) <= 0.02, `device rate ${rate}% on screen, ${report.device_rate}% from the API`);
    await page.waitForTimeout(800);
    await shot(page, 'report-06-availability');

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('report-export').click()]);
    const book = await readBook(server, download, 'availability.xlsx');
    assert.deepEqual(Object.keys(book), ['汇总', '设备在线率', '离线明细']);
    assert.equal(book['设备在线率'].length - 1, report.devices.length);
    assert.equal(book['离线明细'].length - 1, spells);
    assert.deepEqual(page.errors, []);
  });

  it('控制报表: the commands on screen are the command log’s, and the Excel holds every command', async () => {
    await openTab(page, '控制报表');
    const report = (await api(page, 'POST', '/api/CustomerReport/GetControlReport', scope)).data;
    const log = (
      await api(page, 'POST', '/api/CustomerCommandLog/GetCommandLogList', { project_sysno: project.sysno, start_time: scope.date, end_time: scope.date })
    ).data;
    assert.ok(report.total >= 1);
    assert.equal(report.total, log.totalCount);
    await page.getByTestId('control-table').locator('tr.ant-table-row').first().waitFor();
    await page.waitForFunction((n) => document.querySelector('[data-testid="control-total"]')?.textContent?.includes(String(n)), report.total);
    assert.equal(await shown(page.getByTestId('control-total')), report.total);
    await page.waitForTimeout(800);
    await shot(page, 'report-07-control');

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('report-export').click()]);
    const book = await readBook(server, download, 'control.xlsx');
    assert.deepEqual(Object.keys(book), ['汇总', '按动作', '按来源', '定时任务执行', '命令明细']);
    assert.equal(book['命令明细'].length - 1, report.total);

    // the same report as a PDF
    await page.getByTestId('report-format').click();
    await page.locator('.ant-select-dropdown:visible').getByTitle('PDF', { exact: true }).click();
    const [pdf] = await Promise.all([page.waitForEvent('download'), page.getByTestId('report-export').click()]);
    assert.match(pdf.suggestedFilename(), /^控制报表_.*\.pdf$/);
    assert.deepEqual(page.errors, []);
  });

  it('on a phone every tab fits the window', async () => {
    const phone = await newPage(browser, { width: 390, height: 844 });
    await phone.goto(`${server.base}/login`);
    await loginWithPassword(phone);
    await phone.waitForURL(/\/dashboard$/);
    await phone.goto(`${server.base}/user-manage/report`);
    await phone.getByTestId('report-project').click();
    await phone.locator('.ant-select-dropdown:visible').getByTitle(project.name, { exact: true }).click();
    for (const [tab, table, name] of [
      ['告警报表', 'alarm-table', 'report-m2-alarm'],
      ['在线率报表', 'availability-table', 'report-m3-availability'],
      ['控制报表', 'control-table', 'report-m4-control'],
    ]) {
      await openTab(phone, tab);
      await phone.getByTestId(table).locator('tr.ant-table-row').first().waitFor();
      await phone.waitForTimeout(800);
      await assertNoPageScroll(phone);
      await shot(phone, name);
      await phone.getByTestId(table).scrollIntoViewIfNeeded();
      await assertNoPageScroll(phone);
      await shot(phone, `${name}-table`);
    }
    assert.deepEqual(phone.errors, []);
    await phone.context().close();
  });
});
