// Live monitoring against the real server: a gateway registered through the UI, fed by the
// simulator over MQTT, shows its readings; stopped by the test, it is shown offline and lands in
// the offline log.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { api, launchBrowser, loginWithPassword, newPage, PROJECT_DIR, shot, startServer } from './support.mjs';

const SN = 'E2E-GW-0001';
const GATEWAY_NAME = 'E2E测试网关';

/** Waits until the monitoring tree shows the gateway's dot as online (1) or offline (0). */
async function waitForGatewayDot(page, name, online) {
  await page.waitForFunction(
    ([gateway, flag]) => {
      const title = [...document.querySelectorAll('[data-testid^="tree-gateway-"]')].find((el) => el.textContent?.includes(gateway));
      return title?.closest('.ant-tree-treenode')?.querySelector(`[data-online="${flag}"]`) != null;
    },
    [name, online],
    { timeout: 30_000 },
  );
}

describe('device monitoring with the simulator', () => {
  let server;
  let browser;
  let page;
  let simulator;
  let secret;

  before(async () => {
    // Short silence timeouts so a stopped gateway goes offline within seconds, whatever the broker does.
    process.env.POWERPORTAL_GATEWAY_OFFLINE_SECONDS = '6';
    process.env.POWERPORTAL_DEVICE_OFFLINE_SECONDS = '8';
    server = await startServer({ brand: 0 });
    browser = await launchBrowser();
    page = await newPage(browser, { width: 1440, height: 900 });
  });

  after(async () => {
    if (simulator?.exitCode === null) {
      try {
        process.kill(-simulator.pid, 'SIGKILL');
      } catch {
        /* already gone */
      }
    }
    await browser?.close();
    server?.stop();
  });

  it('registers a gateway and shows its secret once', async () => {
    await page.goto(`${server.base}/user-manage/setting/gateway-list`);
    await page.waitForURL(/\/login/);
    await loginWithPassword(page);
    await page.waitForURL(/gateway-list$/);
    await page.getByRole('cell', { name: 'DEMO-GW-0001' }).waitFor();
    await shot(page, '40-gateway-list');
    await page.getByRole('button', { name: /注册网关/ }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('序列号').fill(SN);
    await dialog.getByLabel('网关名称').fill(GATEWAY_NAME);
    await dialog.getByLabel('所属项目').click();
    await page.locator('.ant-select-item-option[title="科创园办公楼"]').click();
    await dialog.getByLabel('所属建筑').click();
    await page.locator('.ant-select-item-option[title="B座"]').click();
    await dialog.getByRole('button', { name: /确\s*定/ }).click();
    const secretBox = page.getByTestId('gateway-secret');
    await secretBox.waitFor({ timeout: 30_000 }).catch(async (error) => {
      await shot(page, 'dbg-register');
      throw error;
    });
    secret = (await secretBox.innerText()).trim();
    assert.ok(secret.length >= 16, `a real secret: ${secret}`);
    assert.ok(await page.getByText('密钥只显示这一次').isVisible(), 'warns that the secret is shown once');
    await shot(page, '41-gateway-secret');
    await page.getByTestId('secret-saved').click();
    await page.getByTestId('secret-saved').waitFor({ state: 'hidden' });
    await page.locator('tr.ant-table-row').filter({ hasText: SN }).waitFor();
  });

  it('shows the simulator readings live on the monitoring screen', async () => {
    const credentials = join(server.dir, 'e2e-gateway.json');
    writeFileSync(credentials, JSON.stringify([{ sn: SN, secret }]));
    simulator = spawn(
      'uv',
      ['run', '--project', PROJECT_DIR, 'powerportal', 'simulate', '--gateways', '1', '--devices', '3', '--interval', '1',
        '--credentials', credentials, '--faults', '0', '--offline', '0'],
      { cwd: server.dir, env: server.env, detached: true, stdio: 'ignore' },
    );
    await page.goto(`${server.base}/user-manage/devices-manage`);
    await page.getByTestId('project-tree').getByText(GATEWAY_NAME).click({ timeout: 30_000 }).catch(async (error) => {
      await shot(page, 'dbg-monitoring-tree');
      throw error;
    });
    // The page never reloads: the cards fill in and the dot turns green from the periodic refresh.
    await page.waitForFunction(
      () => {
        const voltages = [...document.querySelectorAll('[data-testid="device-card"] [data-testid="value-电压"]')];
        return voltages.length === 3 && voltages.every((el) => /\d V$/.test(el.textContent ?? ''));
      },
      null,
      { timeout: 30_000 },
    );
    const cards = page.getByTestId('device-card');
    assert.equal(await cards.count(), 3);
    const listed = (await api(page, 'POST', '/api/CustomerDevice/GetDeviceList', { keyword: SN, pageSize: 10 })).data;
    assert.equal(listed.totalCount, 3, 'the gateway announced its three breakers');
    const incomer = cards.filter({ hasText: '总进线' });
    assert.match(await incomer.getByTestId('value-电压').innerText(), /^A \d+\.\d \/ B \d+\.\d \/ C \d+\.\d V$/);
    assert.equal(await incomer.getByTestId('online-tag').innerText(), '在线');
    const before = await incomer.getByTestId('value-电能').innerText();
    await page.waitForFunction(
      (old) => {
        const card = [...document.querySelectorAll('[data-testid="device-card"]')].find((c) => c.textContent?.includes('总进线'));
        const now = card?.querySelector('[data-testid="value-电能"]')?.textContent;
        return now && now !== old;
      },
      before,
      { timeout: 20_000 },
    );
    await waitForGatewayDot(page, GATEWAY_NAME, 1);
    await shot(page, '42-monitoring-live');

    await incomer.click();
    const drawer = page.getByTestId('device-drawer');
    await drawer.getByTestId('device-realtime').waitFor();
    await drawer.getByRole('tab', { name: '24 小时趋势' }).click();
    await drawer.getByTestId('trend-chart').waitFor();
    await page.waitForTimeout(800);
    await shot(page, '43-device-trend');
    await drawer.getByRole('tab', { name: '设备设置' }).click();
    await drawer.getByLabel('额定电流').fill('125');
    await drawer.getByLabel('欠压阈值').fill('260');
    await drawer.getByLabel('过压阈值').fill('250');
    await drawer.getByRole('button', { name: /保存设置/ }).click();
    await drawer.getByText('欠压阈值应低于过压阈值').waitFor();
    await drawer.getByLabel('欠压阈值').fill('190');
    await drawer.getByRole('button', { name: /保存设置/ }).click();
    await page.getByText('设备设置已保存').waitFor();
    await shot(page, '44-device-settings');
    await page.keyboard.press('Escape');
  });

  it('shows a stopped gateway offline and puts it in the offline log', async () => {
    // A power cut: the process dies without an MQTT DISCONNECT.
    process.kill(-simulator.pid, 'SIGKILL');
    await waitForGatewayDot(page, GATEWAY_NAME, 0);
    await page.waitForFunction(
      () => [...document.querySelectorAll('[data-testid="device-card"] [data-testid="online-tag"]')].every((el) => el.textContent === '离线'),
      null,
      { timeout: 30_000 },
    );
    await shot(page, '45-monitoring-offline');

    await page.goto(`${server.base}/user-manage/setting/offline-list`);
    await page.getByPlaceholder('对象名称或网关序列号').fill(SN);
    await page.getByRole('button', { name: /查\s*询/ }).click();
    const row = page.getByTestId('offline-table').locator('tr.ant-table-row').filter({ hasText: GATEWAY_NAME }).first();
    await row.waitFor();
    assert.match(await row.innerText(), /仍离线/);
    await shot(page, '46-offline-log');

    // The bell's jump from an offline notice, while this screen is already open: it shows and
    // highlights the notice's record without a page load.
    const notices = (
      await api(page, 'POST', '/api/CustomerNoctice/GetNoticeList', {
        pageIndex: 1,
        pageSize: 50,
        custmoer_notice_type: [3],
        is_read: null,
      })
    ).data;
    const offlineNotice = notices?.dataSource?.find((n) => n.notice_type === 3 && n.source_sysno);
    assert.ok(offlineNotice, 'the offline spell raised an offline notice');
    await page.evaluate(() => (window.__ppMarker = 'same page'));
    await page.getByRole('button', { name: '系统消息' }).click();
    await page.getByTestId(`notice-jump-${offlineNotice.sysno}`).click();
    await page.waitForURL(new RegExp(`offline-list\\?sysno=${offlineNotice.source_sysno}$`));
    await page.getByTestId('offline-focus').getByText(`已定位到离线记录 #${offlineNotice.source_sysno}`).waitFor();
    assert.equal(await page.evaluate(() => window.__ppMarker), 'same page', 'the jump does not reload the page');

    // The alarm dialog's jump: offline-list?sysno= highlights that record.
    const logs = (await api(page, 'POST', '/api/CustomerOfflineLog/GetOfflineLogList', { keyword: SN, kind: 'gateway' })).data;
    const sysno = logs.dataSource[0].sysno;
    await page.goto(`${server.base}/user-manage/setting/offline-list?sysno=${sysno}`);
    const focus = page.getByTestId('offline-focus');
    await focus.getByText(`已定位到离线记录 #${sysno}`).waitFor();
    await focus.locator('tr.ant-table-row').filter({ hasText: GATEWAY_NAME }).waitFor();
    await shot(page, '47-offline-log-focus');

    await page.goto(`${server.base}/user-manage/setting/stat-list`);
    await page.getByPlaceholder('对象、详情或网关序列号').fill(SN);
    await page.getByRole('button', { name: /查\s*询/ }).click();
    await page.getByTestId('status-table').locator('tr.ant-table-row').filter({ hasText: '离线' }).first().waitFor();
    await shot(page, '48-status-log');
    assert.deepEqual(page.errors, []);
  });
});
