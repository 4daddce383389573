// Honest inputs, the brand's colour, the settings drawer, the bell's device names and the charts,
// as a facility manager meets them (issue 18, items 5–7).
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import assert from 'node:assert/strict';
import { PROJECT_DIR, api, launchBrowser, loginWithPassword, newPage, shot, startServer } from './support.mjs';

const BRAND_BLUE = 'rgb(64, 158, 255)'; // #409EFF
const ANTD_BLUE = 'rgb(22, 119, 255)'; // antd's own #1677FF

describe('forms, theme and charts', () => {
  let server;
  let browser;
  let page;

  before(async () => {
    server = await startServer({ brand: 0 });
    browser = await launchBrowser();
    page = await newPage(browser, { width: 1440, height: 900 });
    await page.goto(`${server.base}/user-manage/setting/project-list`);
    await page.waitForURL(/\/login/);
    await loginWithPassword(page);
    await page.waitForURL((url) => url.pathname.endsWith('/project-list'));
  });

  after(async () => {
    await browser?.close();
    server?.stop();
  });

  it('refuses a phone that is not one and shows the limits of the text fields', async () => {
    const count = async () => {
      const answer = await api(page, 'POST', '/api/CustomerProject/GetProjectList', {});
      assert.equal(answer.statusCode, 200, JSON.stringify(answer));
      return answer.data.totalCount;
    };
    const before = await count();
    await page.getByRole('button', { name: '新建项目' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('项目名称').fill('电话校验项目');
    const phone = dialog.getByLabel('联系电话');
    await phone.fill('()()-');
    // The counters say how much fits before anything is typed past it.
    await dialog.getByText('0 / 500').waitFor();
    await dialog.getByLabel('备注').fill('长'.repeat(600));
    assert.equal((await dialog.getByLabel('备注').inputValue()).length, 500);
    await dialog.getByText('500 / 500').waitFor();
    await dialog.getByRole('button', { name: /确\s?定/ }).click();
    await dialog.getByText('请输入正确的手机号或座机号').waitFor();
    await shot(page, 'forms-01-phone-refused');
    const after = await count();
    assert.equal(after, before, 'a refused form saves nothing');

    await phone.fill('12345');
    await dialog.getByText('请输入正确的手机号或座机号').waitFor();
    await phone.fill('0755-12345678');
    await dialog.getByText('请输入正确的手机号或座机号').waitFor({ state: 'detached' });
    await dialog.getByRole('button', { name: /取\s?消/ }).click();
  });

  it('draws links and primary controls in the brand colour, not antd blue', async () => {
    const link = page.locator('.ant-btn-link').first();
    await link.waitFor();
    const color = await link.evaluate((el) => getComputedStyle(el).color);
    assert.equal(color, BRAND_BLUE);
    const primary = await page.locator('.ant-btn-primary').first().evaluate((el) => getComputedStyle(el).backgroundColor);
    assert.equal(primary, BRAND_BLUE);
    const everything = await page.evaluate(() =>
      [...document.querySelectorAll('body *')].map((el) => getComputedStyle(el).color).filter((c) => c === 'rgb(22, 119, 255)').length,
    );
    assert.equal(everything, 0, `${ANTD_BLUE} still used`);
  });

  it('labels the settings drawer in Chinese', async () => {
    await page.getByRole('button', { name: '系统布局配置' }).click();
    const drawer = page.getByTestId('settings-drawer');
    for (const label of ['主题色', '显示标签栏', '固定顶栏', '侧边栏标志', '布局大小']) await drawer.getByText(label, { exact: true }).waitFor();
    assert.doesNotMatch(await drawer.innerText(), /[A-Za-z]/);
    await shot(page, 'forms-02-settings-drawer');
    await page.keyboard.press('Escape');
  });

  it("names each notice's device and gateway in the bell's list", async () => {
    await page.getByRole('button', { name: '系统消息' }).click();
    const dialog = page.getByRole('dialog');
    const device = dialog.getByTestId('notice-device').first();
    await device.waitFor();
    const text = await device.innerText();
    // A name with its gateway and number beneath, not a bare bus address.
    assert.match(text, /\S+\n.*编号 /);
    assert.doesNotMatch(text, /^\d+$/);
    await shot(page, 'forms-03-notice-devices');
    await page.keyboard.press('Escape');
  });

  it('shows the alarm statistics and a device trend', async () => {
    await page.goto(`${server.base}/user-manage/alarm`);
    await page.getByTestId('chart-by-type').locator('canvas').waitFor();
    await shot(page, 'forms-04-alarm-statistics');
    // A day of a healthy supply: 219.96–220.2 V, drawn on an axis that keeps it a flat line.
    const found = await api(page, 'POST', '/api/CustomerDevice/GetDeviceList', { keyword: '101宿舍', pageIndex: 1, pageSize: 10 });
    const device = found.data.dataSource.find((d) => d.name === '101宿舍');
    assert.ok(device, JSON.stringify(found));
    await promisify(execFile)(
      'uv',
      ['run', '--project', PROJECT_DIR, 'python', join(PROJECT_DIR, 'web', 'e2e', 'feed_trend.py'), '--sysno', String(device.sysno)],
      { cwd: server.dir, env: server.env, timeout: 120_000 },
    );
    const trend = await api(page, 'POST', '/api/CustomerDevice/GetDeviceTrend', { sysno: device.sysno, hours: 24 });
    // The last hour also holds the simulator's live readings; before it, only the steady day.
    const volts = trend.data.series.find((s) => s.key === 'voltage').data.slice(0, -12).filter((v) => v !== null);
    assert.ok(volts.length > 300 && Math.max(...volts) - Math.min(...volts) < 0.5, `${volts.length} points ${Math.min(...volts)}–${Math.max(...volts)}`);
    await page.goto(`${server.base}/user-manage/devices-manage`);
    await page.locator(`[data-testid="device-card"][data-device="${device.sysno}"]`).click();
    await page.getByTestId('device-drawer').getByRole('tab', { name: '24 小时趋势' }).click();
    await page.getByTestId('trend-chart').locator('canvas').waitFor();
    // ECharts draws its lines in over a second.
    await page.waitForTimeout(1200);
    await shot(page, 'forms-05-device-trend-voltage');
    for (const [tab, name] of [['电流', 'current'], ['功率', 'power'], ['温度', 'temperature']]) {
      await page.getByTestId('trend-panel').getByText(tab, { exact: true }).click();
      await page.waitForTimeout(1200);
      await shot(page, `forms-06-device-trend-${name}`);
    }
    assert.deepEqual(page.errors, []);
  });
});
