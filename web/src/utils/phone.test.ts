import { isMobile, isPhone, mobileRule, phoneRule } from './phone';

describe('isMobile', () => {
  it('accepts mainland mobile numbers', () => {
    expect(isMobile('13800138000')).toBe(true);
    expect(isMobile('19912345678')).toBe(true);
    expect(isMobile(' 15012345678 ')).toBe(true);
  });
  it('rejects anything else', () => {
    for (const bad of ['12345', '()()-', '12800138000', '1380013800', '138001380001', '0755-12345678', '1380013800a', '']) {
      expect(isMobile(bad)).toBe(false);
    }
  });
});

describe('isPhone', () => {
  it('accepts mobiles, landlines with or without a hyphen and an extension, and 400/800 numbers', () => {
    for (const good of [
      '13800138000',
      '0755-12345678',
      '010-1234567',
      '075512345678',
      '01012345678',
      '0755-12345678-801',
      '400-123-4567',
      '4001234567',
      '800-123-4567',
    ]) {
      expect(isPhone(good), good).toBe(true);
    }
  });
  it('rejects short digits, punctuation and malformed numbers', () => {
    for (const bad of ['12345', '()()-', '---', '755-12345678', '0755-123', '0755-123456789', '400-12-34567', '+86 13800138000', 'abc', '0755 1234 5678']) {
      expect(isPhone(bad), bad).toBe(false);
    }
  });
});

describe('form rules', () => {
  const run = (rule: ReturnType<typeof phoneRule>, value: unknown) =>
    (rule as { validator: (r: unknown, v: unknown) => Promise<void> }).validator({}, value);

  it('leaves an empty field to the required rule', async () => {
    await expect(run(phoneRule(), '')).resolves.toBeUndefined();
    await expect(run(phoneRule(), undefined)).resolves.toBeUndefined();
    await expect(run(mobileRule(), '  ')).resolves.toBeUndefined();
  });
  it('rejects a bad number with a Chinese message', async () => {
    await expect(run(phoneRule(), '()()-')).rejects.toThrow('请输入正确的手机号或座机号');
    await expect(run(mobileRule(), '0755-12345678')).rejects.toThrow('请输入正确的 11 位手机号');
    await expect(run(mobileRule('请输入正确的手机号'), '123')).rejects.toThrow('请输入正确的手机号');
  });
  it('accepts a good number', async () => {
    await expect(run(phoneRule(), '0755-12345678')).resolves.toBeUndefined();
    await expect(run(mobileRule(), '13800138000')).resolves.toBeUndefined();
  });
});
