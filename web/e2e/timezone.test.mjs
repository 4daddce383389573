// Every time on screen is the project's time zone (Asia/Shanghai), whatever the browser's: with a
// UTC browser the operation log (times written by the server) and the monitoring screen (times the
// browser knows: the last refresh, a switch result) read the same China time.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, loginWithPassword, newPage, shot, startServer } from './support.mjs';

/** Minutes since midnight of an `HH:mm[:ss]` clock. */
function minutes(clock) {
  const [h, m] = clock.split(':').map(Number);
  return h * 60 + m;
}

/** The distance in minutes between two clocks, across midnight too. */
function apart(a, b) {
  const d = Math.abs(minutes(a) - minutes(b));
  return Math.min(d, 24 * 60 - d);
}

function chinaClock(date = new Date()) {
  return new Intl.DateTimeFormat('en-GB', { timeZone: 'Asia/Shanghai', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(date);
}

describe('times in the project time zone with a UTC browser', () => {
  let server;
  let browser;
  let page;

  before(async () => {
    server = await startServer({ brand: 0 });
    browser = await launchBrowser();
    page = await newPage(browser, { width: 1440, height: 900, timezoneId: 'UTC' });
  });

  after(async () => {
    await browser?.close();
    server?.stop();
  });

  it('shows China time on the log and the monitoring screens alike', async () => {
    // The browser really runs in UTC: its clock is 8 hours behind China's.
    const browserOffset = await page.evaluate(() => new Date().getTimezoneOffset());
    assert.equal(browserOffset, 0);

    await page.goto(`${server.base}/user-manage/devices-manage`);
    await page.waitForURL(/\/login/);
    await loginWithPassword(page);
    await page.waitForURL(/devices-manage$/);
    const refreshed = page.getByText(/\d{2}:\d{2}:\d{2} 已刷新/).first();
    await refreshed.waitFor();
    const shownOnDevices = (await refreshed.innerText()).match(/\d{2}:\d{2}:\d{2}/)[0];
    await shot(page, 'timezone-01-devices-utc-browser');

    await page.goto(`${server.base}/user-manage/setting/operate-list`);
    const loginRow = page.locator('tbody tr.ant-table-row', { hasText: '登录' }).first();
    await loginRow.waitFor();
    const shownInLog = (await loginRow.innerText()).match(/\d{4}-\d{2}-\d{2} (\d{2}:\d{2}:\d{2})/)[1];
    await shot(page, 'timezone-02-operate-log-utc-browser');

    const china = chinaClock();
    const utc = new Date().toISOString().slice(11, 16);
    assert.ok(apart(shownOnDevices, china) <= 2, `devices page ${shownOnDevices}, China ${china}, UTC ${utc}`);
    assert.ok(apart(shownInLog, china) <= 5, `operation log ${shownInLog}, China ${china}, UTC ${utc}`);
    assert.ok(apart(shownOnDevices, shownInLog) <= 5, `devices ${shownOnDevices} and log ${shownInLog} disagree`);
    // Neither is the browser's own (UTC) clock.
    assert.ok(apart(shownOnDevices, utc) >= 60);
    assert.deepEqual(page.errors, []);
  });
});
