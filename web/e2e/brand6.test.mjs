// Brand variant 6: SMS codes off, so no SMS login tab and no phone/code inputs anywhere.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DEMO, launchBrowser, loginWithPassword, newPage, openUserMenu, shot, startServer } from './support.mjs';

describe('brand variant 6 (no SMS codes)', () => {
  let server;
  let browser;
  let page;

  before(async () => {
    server = await startServer({ brand: 6 });
    browser = await launchBrowser();
    page = await newPage(browser);
  });

  after(async () => {
    await browser?.close();
    server?.stop();
  });

  it('shows the brand and only the password login', async () => {
    const brand = await (await fetch(`${server.base}/api/brand`)).json();
    assert.equal(brand.data.type, 6);
    assert.equal(brand.data.flags.SmsCode, false);
    await page.goto(`${server.base}/login`);
    await page.getByTestId('login-submit').waitFor();
    assert.equal(await page.getByText('短信登录').count(), 0);
    assert.ok((await page.locator('body').innerText()).includes(brand.data.login_title));
    await shot(page, '20-brand6-login');
    await page.goto(`${server.base}/findpsw`);
    await page.getByText('当前平台未开通短信验证，请联系管理员重置密码。').waitFor();
    await page.goto(`${server.base}/register`);
    await page.getByLabel('名称').waitFor();
    assert.equal(await page.getByText('获取验证码').count(), 0);
    await shot(page, '21-brand6-register');
  });

  it('has no phone/code inputs in the password form', async () => {
    await page.goto(`${server.base}/login`);
    await loginWithPassword(page);
    await page.waitForURL(/\/dashboard$/);
    await page.getByTestId('dashboard').waitFor();
    const productName = (await (await fetch(`${server.base}/api/brand`)).json()).data.product_name;
    await page.waitForFunction((expected) => document.title === expected, `数据监控 - ${productName}`);
    await openUserMenu(page, '修改密码');
    const dialog = page.getByRole('dialog', { name: '修改密码' });
    await dialog.getByLabel('原密码').waitFor();
    assert.equal(await dialog.getByLabel('手机号').count(), 0);
    assert.equal(await dialog.getByText('获取验证码').count(), 0);
    await shot(page, '22-brand6-password');
    await dialog.getByRole('button', { name: /取\s*消/ }).click();
  });

  it('has no code inputs in the transfer form, and the rules still hold', async () => {
    await openUserMenu(page, '转移账号');
    const dialog = page.getByRole('dialog', { name: '转移账号' });
    await dialog.getByLabel('当前账号', { exact: true }).waitFor();
    assert.equal(await dialog.getByText('获取验证码').count(), 0);
    assert.equal(await dialog.getByText('验证码').count(), 0);
    await dialog.getByLabel('目标手机号').fill(DEMO.mobile);
    await dialog.getByRole('button', { name: /确\s*定/ }).click();
    await dialog.getByText('新旧账号不能相同').waitFor();
    await shot(page, '23-brand6-transfer');
  });

  it('transfers the account and logs out with the spec message', async () => {
    const dialog = page.getByRole('dialog', { name: '转移账号' });
    await dialog.getByLabel('目标手机号').fill('13912345678');
    await dialog.getByRole('button', { name: /确\s*定/ }).click();
    await page.waitForURL(/\/login$/);
    await page.getByText('转移成功，新账号的密码与原账号相同，请登录后修改密码').waitFor();
    await loginWithPassword(page, { mobile: '13912345678' });
    await page.waitForURL(/\/dashboard$/);
    assert.deepEqual(page.errors, []);
  });
});
