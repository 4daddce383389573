// 报表中心 and 定时报表 against the real server: an energy report asked for as a background PDF is
// written by the server's report worker, listed with its state and downloaded (pdftotext reads its
// Chinese back); a monthly subscription is made through its dialog and listed; the phone width
// does not scroll sideways. Screenshots at 1440×900 and 390×844.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { api, launchBrowser, loginWithPassword, newPage, shot, startServer } from './support.mjs';

const run = promisify(execFile);

describe('报表中心 and 定时报表', () => {
  let server;
  let browser;
  let page;

  before(async () => {
    server = await startServer();
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

  it('a background PDF is written by the worker, listed with its state and downloaded', async () => {
    await page.goto(`${server.base}/user-manage/report`);
    await page.getByTestId('report-table').locator('tr.ant-table-row').first().waitFor();
    await page.getByTestId('report-format').click();
    await page.locator('.ant-select-dropdown:visible').getByTitle('PDF', { exact: true }).click();
    await page.getByTestId('report-background').click();
    await page.getByTestId('report-open-centre').click();
    await page.waitForURL((url) => url.search.includes('tab=centre'));

    const table = page.getByTestId('job-table');
    const done = table.locator('tr.ant-table-row').filter({ hasText: '已完成' });
    await done.first().waitFor({ timeout: 30_000 });
    const jobs = (await api(page, 'POST', '/api/CustomerReport/GetReportJobList', { pageIndex: 1, pageSize: 10 })).data;
    assert.equal(jobs.totalCount, 1);
    const [job] = jobs.dataSource;
    assert.equal(job.format, 'pdf');
    assert.match(job.file_name, /^能耗报表_.*\.pdf$/);
    await done.getByText(job.file_name).waitFor();
    await shot(page, 'report-centre-01-list');

    const [download] = await Promise.all([page.waitForEvent('download'), done.getByTestId('job-download').click()]);
    assert.equal(download.suggestedFilename(), job.file_name);
    const file = join(server.dir, 'centre.pdf');
    await download.saveAs(file);
    const { stdout } = await run('pdftotext', ['-raw', file, '-']);
    assert.match(stdout, /能耗报表 · /);
    assert.match(stdout, /第 1 页 \/ 共 \d+ 页/);
    assert.deepEqual(page.errors, []);
  });

  it('a monthly subscription is made through its dialog and listed', async () => {
    await page.goto(`${server.base}/user-manage/report?tab=subscriptions`);
    await page.getByTestId('add-subscription').click();
    const dialog = page.getByTestId('subscription-modal');
    await dialog.getByTestId('subscription-name').fill('能耗月报');
    await dialog.getByTestId('subscription-project').click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option').first().click();
    await dialog.getByText('按建筑').click();
    await dialog.getByText('PDF', { exact: true }).click();
    const emails = dialog.getByTestId('subscription-emails').locator('input');
    await emails.fill('boss@example.com');
    await emails.press('Enter');
    await emails.fill('not-an-address');
    await emails.press('Enter');
    await page.getByRole('button', { name: /确\s*定|OK/ }).click();
    await dialog.getByText('邮箱 not-an-address 格式不正确').waitFor();
    await shot(page, 'report-centre-02-subscription-dialog');
    await dialog.locator('.ant-select-selection-item').filter({ hasText: 'not-an-address' }).locator('.ant-select-selection-item-remove').click();
    await page.getByRole('button', { name: /确\s*定|OK/ }).click();

    const row = page.getByTestId('subscription-table').locator('tr.ant-table-row').filter({ hasText: '能耗月报' });
    await row.waitFor();
    await row.getByText('boss@example.com').waitFor();
    await row.getByText('每月').waitFor();
    const listed = (await api(page, 'POST', '/api/CustomerReport/GetReportSubscriptionList', { pageIndex: 1, pageSize: 10 })).data;
    assert.equal(listed.totalCount, 1);
    assert.deepEqual(listed.dataSource[0].emails, ['boss@example.com']);
    assert.equal(listed.dataSource[0].query.group, 'building');
    assert.equal(listed.dataSource[0].format, 'pdf');
    await shot(page, 'report-centre-03-subscriptions');
    assert.deepEqual(page.errors, []);
  });

  it('the report centre fits a phone', async () => {
    const phone = await newPage(browser, { width: 390, height: 844 });
    await phone.goto(`${server.base}/login`);
    await loginWithPassword(phone);
    await phone.waitForURL((url) => !url.pathname.startsWith('/login'));
    await phone.goto(`${server.base}/user-manage/report?tab=centre`);
    await phone.getByTestId('job-table').locator('tr.ant-table-row').first().waitFor();
    // Measured once it has settled: CI once read 437 px just as the first row appeared, where the same
    // screen measures 390 px settled (here and in layout.test.mjs). A page that stays wider still fails.
    await phone
      .waitForFunction(() => document.documentElement.scrollWidth <= window.innerWidth, null, { timeout: 5_000 })
      .catch(() => {});
    const { scroll, width } = await phone.evaluate(() => ({ scroll: document.documentElement.scrollWidth, width: window.innerWidth }));
    assert.ok(scroll <= width, `page scrolls sideways: ${scroll} > ${width}`);
    await shot(phone, 'report-centre-m1');
    await phone.close();
  });
});
