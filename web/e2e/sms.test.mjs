// SMS alarm notification screens against the real server (brand 0 has SmsConfig).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { api, launchBrowser, loginWithPassword, newPage, shot, startServer } from './support.mjs';

describe('SMS notification settings (brand 0)', () => {
  let server;
  let browser;
  let page;

  before(async () => {
    server = await startServer({ brand: 0 });
    browser = await launchBrowser();
    page = await newPage(browser);
    await page.goto(`${server.base}/login?redirect=/user-manage/setting/SmsNotification`);
    await loginWithPassword(page);
    await page.waitForURL(/SmsNotification$/);
  });

  after(async () => {
    await browser?.close();
    server?.stop();
  });

  it('adds a notification rule, refusing a bad number first', async () => {
    await page.getByRole('button', { name: '新增通知' }).click();
    const dialog = page.getByRole('dialog', { name: '新增通知' });
    await dialog.getByLabel('名称').fill('值班电工');
    const mobiles = dialog.getByLabel('接收手机号');
    await mobiles.fill('12345');
    await mobiles.press('Enter');
    await dialog.getByRole('button', { name: /确\s*定/ }).click();
    await dialog.getByText('请输入正确的 11 位手机号').waitFor();
    await dialog.locator('.ant-select-selection-item-remove').first().click();
    await mobiles.fill('13800001111');
    await mobiles.press('Enter');
    await dialog.getByRole('button', { name: /确\s*定/ }).click();
    const row = page.locator('tr.ant-table-row', { hasText: '值班电工' });
    await row.waitFor();
    assert.match(await row.innerText(), /13800001111[\s\S]*全部类型[\s\S]*全部项目[\s\S]*已启用/);
    await shot(page, 'sms-01-notification');
  });

  it('never names a project the account lost, and says so before a save drops it', async () => {
    const made = await api(page, 'POST', '/api/CustomerProject/AddProject', { name: '短期项目' });
    const rule = await api(page, 'POST', '/api/CustomerSms/AddNotification', { name: '临时值班', mobiles: ['13800002222'], project_sysnos: [made.data.sysno] });
    assert.equal(rule.statusCode, 200, JSON.stringify(rule));
    assert.equal((await api(page, 'DELETE', `/api/CustomerProject/DeleteProject?sysno=${made.data.sysno}`)).statusCode, 200);
    await page.reload();
    const row = page.locator('tr.ant-table-row', { hasText: '临时值班' });
    await row.waitFor();
    assert.match(await row.innerText(), /原选 1 个项目均已无权访问/);
    assert.doesNotMatch(await row.innerText(), /短期项目|全部项目/);
    await row.getByRole('button', { name: '编辑' }).click();
    const dialog = page.getByRole('dialog', { name: '编辑通知' });
    await dialog.getByText(/原选的 1 个项目已无权访问/).waitFor();
    await shot(page, 'sms-01b-lost-project');
    await dialog.getByRole('button', { name: /取\s*消/ }).click();
    await dialog.waitFor({ state: 'hidden' });
  });

  it('previews and saves a template, refusing an unknown variable', async () => {
    await page.goto(`${server.base}/user-manage/setting/SmsTemplate`);
    const card = page.getByTestId('template-alarm');
    await card.waitFor();
    await card.locator('textarea').fill('{project}{device}{type}告警 {oops}');
    await card.getByRole('button', { name: /保\s*存/ }).click();
    await page.getByText(/模板中有未知变量 \{oops\}/).waitFor();
    await card.locator('textarea').fill('{project}{device}{type}告警');
    await card.getByRole('button', { name: /预\s*览/ }).click();
    assert.match(await card.getByTestId('template-preview').innerText(), /阳光实验学校101宿舍过流告警[\s\S]*共 15 字，按 1 条计费/);
    await card.getByRole('button', { name: /保\s*存/ }).click();
    await card.getByText('已自定义').waitFor();
    await shot(page, 'sms-02-template');
  });

  it('places a recharge order that waits for confirmation', async () => {
    await page.goto(`${server.base}/user-manage/setting/SmsRecharge`);
    await page.getByTestId('sms-recharge').waitFor();
    await page.getByRole('button', { name: /充\s*值/ }).click();
    const dialog = page.getByRole('dialog', { name: '短信充值' });
    await dialog.getByText('50.00').waitFor();
    await dialog.getByRole('button', { name: /确\s*定/ }).click();
    await page.getByRole('tab', { name: '充值订单' }).click();
    await page.locator('tr.ant-table-row', { hasText: '待确认' }).waitFor();
    await shot(page, 'sms-03-recharge');
    assert.deepEqual(page.errors, []);
  });
});
