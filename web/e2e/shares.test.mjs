// Shares and project transfer against the real server: the demo owner shares a project with a second
// account limited to one building, the sharee accepts and sees it marked as shared (read only) and
// that building alone, the owner revokes and it is gone; shared again view only, the sharee's switches are disabled (仅查看权限);
// then the owner transfers another project (password and SMS code) and the recipient takes it, and the
// owner's scheduled report of it names it no more.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { DEMO, PROJECT_DIR, api, latestSmsCode, launchBrowser, loginWithPassword, newPage, shot, startServer } from './support.mjs';

const GUEST = { mobile: '13900001111', password: 'guest123456', name: '李四' };
const SHARED = '阳光实验学校';
const MOVED = '科创园办公楼';

describe('shares and project transfer (brand 0, SMS codes on)', () => {
  let server;
  let browser;
  let owner;
  let guest;

  before(async () => {
    server = await startServer({ brand: 0 });
    await promisify(execFile)(
      'uv',
      ['run', '--project', PROJECT_DIR, 'powerportal', 'create-customer', '--mobile', GUEST.mobile, '--password', GUEST.password, '--name', GUEST.name],
      { cwd: server.dir, env: server.env },
    );
    browser = await launchBrowser();
    owner = await newPage(browser, { width: 1440, height: 900 });
    await owner.goto(`${server.base}/user-manage/setting/share-list`);
    await loginWithPassword(owner);
    await owner.waitForURL(/share-list$/);
    guest = await newPage(browser, { width: 1440, height: 900 });
    await guest.goto(`${server.base}/user-manage/setting/share-list`);
    await loginWithPassword(guest, GUEST);
    await guest.waitForURL(/share-list$/);
  });

  after(async () => {
    await browser?.close();
    server?.stop();
  });

  // The tabs keep only the shown one mounted, so every row on the page is of the shown list.
  const rowOf = (page, text) => page.locator('tr.ant-table-row').filter({ hasText: text });
  const pick = async (page, label) => page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: label }).first().click();

  it('the owner invites the second account, limited to one building, with control', async () => {
    await owner.getByRole('button', { name: /共享项目/ }).click();
    const dialog = owner.getByRole('dialog');
    await dialog.getByRole('button', { name: /确\s*定/ }).click();
    await dialog.getByText('请选择项目').waitFor();
    await dialog.getByLabel('项目').click();
    await pick(owner, SHARED);
    await dialog.getByLabel('对方手机号').fill(GUEST.mobile);
    await dialog.getByText('查看和控制').click();
    await dialog.getByLabel('楼栋范围').click();
    await pick(owner, '1号宿舍楼');
    await shot(owner, '90-share-form');
    await dialog.getByRole('button', { name: /确\s*定/ }).click();
    await owner.getByText('邀请已发送，对方接受后生效').waitFor();
    const row = rowOf(owner, GUEST.name);
    await row.getByText('待接受').waitFor();
    // The building limit folds into the row's expanded part at this width.
    await row.getByRole('button', { name: '展开行' }).click();
    await owner.getByText('1号宿舍楼').waitFor();
    await shot(owner, '91-share-list-owner');
  });

  it('the sharee accepts and sees the project marked as shared, read only', async () => {
    await guest.reload();
    const row = rowOf(guest, SHARED);
    await row.getByText('共享给我的').waitFor();
    await row.getByRole('button', { name: '接受' }).click();
    await row.getByText('已生效').waitFor();
    await shot(guest, '92-share-list-sharee');
    await guest.goto(`${server.base}/user-manage/setting/project-list`);
    const project = guest.locator('tr.ant-table-row').filter({ hasText: SHARED });
    await project.getByText(/共享自/).waitFor();
    await project.getByText('仅所有者可编辑').waitFor();
    assert.equal(await project.getByRole('button', { name: /删\s*除/ }).count(), 0);
    await shot(guest, '93-project-list-shared');
    // The device tree marks it too.
    await guest.goto(`${server.base}/user-manage/devices-manage`);
    await guest.locator('[data-testid^="shared-project-"]').first().waitFor();
    // Limited to 1号宿舍楼: that building and its gateway alone, not the school's other buildings.
    const tree = guest.locator('.ant-tree');
    await tree.getByText('1号宿舍楼配电箱').waitFor();
    for (const hidden of ['2号宿舍楼', '教学楼']) assert.equal(await tree.getByText(hidden).count(), 0, hidden);
    const devices = await api(guest, 'POST', '/api/CustomerDevice/GetDeviceList', { pageSize: 100 });
    assert.ok(devices.data.totalCount > 0);
    assert.ok(devices.data.dataSource.every((d) => d.gateway_name === '1号宿舍楼配电箱'), JSON.stringify(devices.data.dataSource.map((d) => d.gateway_name)));
    await shot(guest, '97-device-tree-shared');
    // The server agrees: the sharee cannot rename it.
    const single = await api(guest, 'POST', '/api/CustomerProject/GetProjectList', { name: SHARED });
    const sysno = single.data.dataSource[0].sysno;
    const renamed = await api(guest, 'PUT', '/api/CustomerProject/UpdateProject', { sysno, name: '改名' });
    assert.equal(renamed.statusCode, 404);
  });

  it('the owner revokes and the project is gone from the sharee at once', async () => {
    await owner.reload();
    const row = rowOf(owner, GUEST.name);
    await row.getByRole('button', { name: '撤销' }).click();
    await owner.locator('.ant-popconfirm').getByRole('button', { name: /确\s*定/ }).click();
    await row.getByText('已撤销').waitFor();
    await guest.goto(`${server.base}/user-manage/setting/project-list`);
    await guest.locator('.ant-table-placeholder').first().waitFor();
    assert.equal(await guest.locator('tr.ant-table-row').filter({ hasText: SHARED }).count(), 0);
    await shot(guest, '96-project-list-after-revoke');
  });

  it('a view-only sharee sees the switches disabled, with the reason, on cards and in the drawer', async () => {
    const listed = await api(owner, 'POST', '/api/CustomerProject/GetProjectList', { name: SHARED });
    const project = listed.data.dataSource[0].sysno;
    const invited = await api(owner, 'POST', '/api/CustomerShare/AddShare', { project_sysno: project, mobile: GUEST.mobile, permission: 1 });
    assert.equal(invited.statusCode, 200, invited.message);
    const accepted = await api(guest, 'POST', '/api/CustomerShare/AcceptShare', { sysno: invited.data.sysno });
    assert.equal(accepted.statusCode, 200, accepted.message);
    const options = await api(guest, 'POST', '/api/CustomerProject/GetFilterProjectList', {});
    assert.deepEqual(options.data.map((o) => [o.name, o.can_control]), [[SHARED, false]]);

    await guest.goto(`${server.base}/user-manage/devices-manage`);
    const cards = guest.getByTestId('device-card');
    await cards.first().waitFor();
    await guest.locator('[data-testid="device-card"] [data-testid="switch-button"][data-view-only="true"]').first().waitFor();
    const states = await guest.evaluate(() =>
      [...document.querySelectorAll('[data-testid="device-card"] [data-testid="switch-button"]')].map((box) => ({
        viewOnly: box.getAttribute('data-view-only'),
        enabled: [...box.querySelectorAll('button')].filter((b) => !b.disabled).length,
      })),
    );
    assert.ok(states.length > 0);
    assert.deepEqual(states.filter((s) => s.viewOnly !== 'true' || s.enabled > 0), []);
    await cards.first().getByTestId('switch_on-button').hover({ force: true });
    await guest.locator('.ant-tooltip').getByText('仅查看权限，无法控制').waitFor();
    await shot(guest, '98-device-cards-view-only');
    await cards.first().click();
    const drawer = guest.getByTestId('device-drawer');
    await drawer.getByTestId('switch-button').waitFor();
    assert.equal(await drawer.getByTestId('switch-button').getAttribute('data-view-only'), 'true');
    assert.equal(await drawer.getByTestId('switch_off-button').isDisabled(), true);
    await shot(guest, '99-device-drawer-view-only');
    // The server agrees: the command is refused.
    const device = Number(await cards.first().getAttribute('data-device'));
    const sent = await api(guest, 'POST', '/api/CustomerControl/SendCommand', { device_sysno: device, action: 'switch_off' });
    assert.notEqual(sent.statusCode, 200);
  });

  it('the owner transfers a project with password and SMS code; the recipient takes it', async () => {
    const moving = (await api(owner, 'POST', '/api/CustomerProject/GetProjectList', { name: MOVED })).data.dataSource[0].sysno;
    const subscription = { name: '办公楼日报', kind: 'energy', frequency: 'day', query: { project_sysno: moving, group: 'device' } };
    assert.equal((await api(owner, 'POST', '/api/CustomerReport/SaveReportSubscription', subscription)).statusCode, 200);
    await owner.getByRole('button', { name: /转移项目/ }).click();
    const dialog = owner.getByRole('dialog');
    await dialog.getByLabel('项目').click();
    await pick(owner, MOVED);
    await dialog.getByLabel('对方手机号').fill(GUEST.mobile);
    await dialog.getByLabel('登录密码').fill(DEMO.password);
    await dialog.getByRole('button', { name: /获取验证码|发送验证码/ }).click();
    await owner.getByText('短信发送成功').waitFor();
    await dialog.getByLabel('验证码').fill(await latestSmsCode(server, DEMO.mobile));
    await shot(owner, '94-transfer-form');
    await dialog.getByRole('button', { name: /确\s*定/ }).click();
    await owner.getByText('转移已发起，等待对方接收').waitFor();
    await owner.getByRole('tab', { name: '项目转移' }).click();
    await rowOf(owner, MOVED).getByText('待接收').waitFor();

    await guest.goto(`${server.base}/user-manage/setting/share-list`);
    await guest.getByRole('tab', { name: '项目转移' }).click();
    const row = rowOf(guest, MOVED);
    await row.getByRole('button', { name: '接收' }).click();
    // The sender still knows the gateways' secrets: the confirmation says so and where to reset them.
    await guest.locator('.ant-popconfirm').getByText('转出方仍知道这些密钥').waitFor();
    await shot(guest, '95a-transfer-accept-confirm');
    await guest.locator('.ant-popconfirm').getByRole('button', { name: /确\s*定/ }).click();
    await row.getByText('已转移').waitFor();
    await shot(guest, '95-transfer-accepted');
    const mine = await api(guest, 'POST', '/api/CustomerProject/GetProjectList', { name: MOVED });
    assert.equal(mine.data.dataSource[0].is_shared, false);
    const theirs = await api(owner, 'POST', '/api/CustomerProject/GetProjectList', { name: MOVED });
    assert.equal(theirs.data.totalCount, 0);
    // The owner's scheduled report of that project no longer names it (the new owner may rename it).
    await owner.goto(`${server.base}/user-manage/report?tab=subscriptions`);
    const lost = owner.getByTestId('subscription-table').locator('tr.ant-table-row').filter({ hasText: '办公楼日报' });
    await lost.getByText('已无权访问的项目').waitFor();
    assert.doesNotMatch(await lost.innerText(), new RegExp(MOVED));
    await shot(owner, '95b-subscription-lost-project');
    assert.deepEqual([...owner.errors, ...guest.errors], []);
  });
});
