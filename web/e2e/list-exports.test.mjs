// List exports end to end: 导出 Excel on the device screen (with a search typed in) and on the operation
// log saves a workbook that openpyxl reads back with every row the list's filters keep, as the API's
// totalCount says, under a Chinese header.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { api, launchBrowser, loginWithPassword, newPage, PROJECT_DIR, startServer } from './support.mjs';

const run = promisify(execFile);

/** A downloaded workbook's one sheet: the title block, the header (the row after 记录数) and the rows. */
async function readSheet(server, download, name) {
  const file = join(server.dir, name);
  await download.saveAs(file);
  const check = [
    'import json, sys, openpyxl',
    'book = openpyxl.load_workbook(sys.argv[1], read_only=True)',
    'rows = [list(r) for r in book[book.sheetnames[0]].iter_rows(values_only=True)]',
    'at = next(i for i, r in enumerate(rows) if r[0] == "记录数") + 1',
    'print(json.dumps({"head": rows[:at], "header": rows[at], "rows": rows[at + 1:]}, default=str))',
  ].join('\n');
  const { stdout } = await run('uv', ['run', '--project', PROJECT_DIR, 'python', '-c', check, file], { cwd: server.dir, env: server.env });
  return JSON.parse(stdout);
}

describe('list exports', () => {
  let server;
  let browser;
  let page;

  before(async () => {
    server = await startServer({ brand: 0 });
    browser = await launchBrowser();
    page = await newPage(browser, { width: 1440, height: 900 });
  });

  after(async () => {
    await browser?.close();
    server?.stop();
  });

  it('设备监控: the export holds the devices the search keeps, with their names and gateways', async () => {
    await page.goto(`${server.base}/login`);
    await loginWithPassword(page);
    await page.waitForURL(/\/dashboard$/);
    let devices = [];
    const deadline = Date.now() + 60_000;
    while (devices.length === 0) {
      devices = (await api(page, 'POST', '/api/CustomerDevice/GetDeviceList', { pageSize: 200 })).data.dataSource;
      if (devices.length === 0) {
        assert.ok(Date.now() < deadline, 'the demo breakers announced');
        await page.waitForTimeout(500);
      }
    }
    const keyword = devices[0].name;
    await page.goto(`${server.base}/user-manage/devices-manage`);
    await page.getByTestId('device-search').locator('input').fill(keyword);
    await page.getByTestId('device-search').locator('input').press('Enter');
    await page.waitForResponse((r) => r.url().endsWith('/GetDeviceList') && r.request().postData()?.includes(keyword));
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-list').click()]);
    assert.match(download.suggestedFilename(), /^设备列表_\d{8}-\d{6}\.xlsx$/);
    const sheet = await readSheet(server, download, 'devices.xlsx');
    const listed = (await api(page, 'POST', '/api/CustomerDevice/GetDeviceList', { keyword, pageSize: 200 })).data;
    assert.ok(listed.totalCount >= 1);
    assert.equal(sheet.rows.length, listed.totalCount);
    assert.deepEqual(sheet.header.slice(0, 5), ['设备名称', '设备地址', '项目', '建筑', '所属网关']);
    assert.ok(sheet.head.some((r) => r[0] === '关键字' && r[1] === keyword), JSON.stringify(sheet.head));
    assert.deepEqual(
      sheet.rows.map((r) => [r[0], r[4]]),
      listed.dataSource.map((d) => [d.name, d.gateway_name]),
    );
  });

  it('操作日志: the export holds every entry of the log, in its order', async () => {
    await page.goto(`${server.base}/user-manage/setting/operate-list`);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-list').click()]);
    assert.match(download.suggestedFilename(), /^操作日志_\d{8}-\d{6}\.xlsx$/);
    const sheet = await readSheet(server, download, 'operations.xlsx');
    const listed = (await api(page, 'POST', '/api/CustomerOperationLog/GetCustomerOperationLogList', { pageSize: 200 })).data;
    assert.ok(listed.totalCount >= 1, 'the login is logged');
    assert.equal(sheet.rows.length, listed.totalCount);
    assert.deepEqual(sheet.header, ['操作时间', '操作类型', '操作内容', 'IP 地址', '结果']);
    assert.deepEqual(
      sheet.rows.map((r) => [r[0], r[1], r[4]]),
      listed.dataSource.map((e) => [e.create_time, e.operate_type_name, e.is_success === 1 ? '成功' : '失败']),
    );
  });
});
