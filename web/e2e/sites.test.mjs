// Project and gateway management against the real server: create a project with a map point and
// buildings, move a gateway into it, reset its secret, and the refusals the server gives.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, loginWithPassword, newPage, shot, startServer } from './support.mjs';

const PROJECT = 'E2E新项目';

describe('project and gateway management (brand 0, map on)', () => {
  let server;
  let browser;
  let page;

  before(async () => {
    server = await startServer({ brand: 0 });
    browser = await launchBrowser();
    page = await newPage(browser, { width: 1440, height: 900 });
    await page.goto(`${server.base}/user-manage/setting/project-list`);
    await loginWithPassword(page);
    await page.waitForURL(/project-list$/);
  });

  after(async () => {
    await browser?.close();
    server?.stop();
  });

  const rowOf = (text) => page.locator('tr.ant-table-row').filter({ hasText: text });

  it('creates a project with a map point', async () => {
    await rowOf('阳光实验学校').waitFor();
    await shot(page, '50-project-list');
    await page.getByRole('button', { name: /新建项目/ }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: /确\s*定/ }).click();
    await dialog.getByText('请输入项目名称').waitFor();
    await dialog.getByLabel('项目名称').fill(PROJECT);
    await dialog.getByLabel('地址').fill('广东省广州市天河区 1 号');
    await dialog.getByLabel('联系电话').fill('abc');
    await dialog.getByText('请输入正确的手机号或座机号').waitFor();
    await dialog.getByLabel('联系电话').fill('020-12345678');
    await dialog.getByTestId('map-picker').click({ position: { x: 380, y: 140 } });
    await dialog.getByTestId('map-marker').waitFor();
    await shot(page, '51-project-form');
    await dialog.getByRole('button', { name: /确\s*定/ }).click();
    await rowOf(PROJECT).waitFor();
    const saved = await page.evaluate(async (name) => {
      const answer = await fetch('/api/CustomerProject/GetProjectList', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', SYSTOKEN: sessionStorage.getItem('SYSTOKEN') ?? '' },
        body: JSON.stringify({ name }),
      });
      return (await answer.json()).data.dataSource[0];
    }, PROJECT);
    assert.ok(saved.longitude > 73 && saved.longitude < 135, `longitude ${saved.longitude}`);
    assert.ok(saved.latitude > 18 && saved.latitude < 54, `latitude ${saved.latitude}`);
  });

  it('adds buildings to it', async () => {
    await rowOf(PROJECT).getByRole('button', { name: '建筑' }).click();
    const dialog = page.getByRole('dialog');
    for (const name of ['1号楼', '2号楼']) {
      await dialog.getByPlaceholder('建筑名称').fill(name);
      await dialog.getByRole('button', { name: /添加建筑/ }).click();
      await dialog.getByRole('cell', { name, exact: true }).waitFor();
    }
    await shot(page, '52-buildings');
    await page.keyboard.press('Escape');
    await rowOf(PROJECT).getByText('2号楼').waitFor();
  });

  it('refuses to delete a project that still holds gateways, with the server message', async () => {
    await rowOf('科创园办公楼').getByRole('button', { name: /删\s*除/ }).click();
    await page.locator('.ant-popconfirm').getByRole('button', { name: /确\s*定/ }).click();
    await page.getByText(/项目“科创园办公楼”下还有 \d+ 个网关/).waitFor();
    await rowOf('科创园办公楼').waitFor();
  });

  it('moves a gateway into the new project and resets its secret', async () => {
    await page.goto(`${server.base}/user-manage/setting/gateway-list`);
    await rowOf('DEMO-GW-0004').getByRole('button', { name: /移\s*动/ }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('目标项目').click();
    await page.locator(`.ant-select-item-option[title="${PROJECT}"]`).click();
    await dialog.getByLabel('所属建筑').click();
    await page.locator('.ant-select-item-option[title="2号楼"]').click();
    await shot(page, '53-gateway-move');
    await dialog.getByRole('button', { name: /确\s*定/ }).click();
    await rowOf('DEMO-GW-0004').filter({ hasText: `${PROJECT} / 2号楼` }).waitFor();

    await rowOf('DEMO-GW-0004').getByRole('button', { name: /重置密钥/ }).click();
    await page.locator('.ant-popconfirm').getByRole('button', { name: /确\s*定/ }).click();
    const secret = page.getByTestId('gateway-secret');
    await secret.waitFor();
    assert.ok((await secret.innerText()).trim().length >= 16);
    await page.getByTestId('secret-saved').click();
  });

  it("shows in the gateway's access log that it still logs in with the old secret", async () => {
    await rowOf('DEMO-GW-0004').getByRole('button', { name: /接入日志/ }).click();
    const log = page.getByTestId('gateway-refusals');
    await log.getByRole('cell', { name: '登录被拒（密钥错误）' }).waitFor({ timeout: 30_000 });
    await shot(page, '54-gateway-refusals');
    await page.keyboard.press('Escape');
  });

  it('deletes an empty project', async () => {
    await page.goto(`${server.base}/user-manage/setting/project-list`);
    await rowOf('阳光实验学校').waitFor();
    await page.evaluate(async () => {
      const headers = { 'Content-Type': 'application/json', SYSTOKEN: sessionStorage.getItem('SYSTOKEN') ?? '' };
      await fetch('/api/CustomerProject/AddProject', { method: 'POST', headers, body: JSON.stringify({ name: 'E2E空项目' }) });
    });
    await page.reload();
    await rowOf('E2E空项目').getByRole('button', { name: /删\s*除/ }).click();
    await page.locator('.ant-popconfirm').getByRole('button', { name: /确\s*定/ }).click();
    await page.getByText('项目已删除').waitFor();
    await rowOf('E2E空项目').waitFor({ state: 'detached' });
    assert.deepEqual(page.errors, []);
  });
});
