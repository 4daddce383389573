import { pageTitle } from './usePageTitle';

describe('page title rule', () => {
  it('is `${pageTitle} - ${product_name}`', () => {
    expect(pageTitle('操作日志', 'PowerPortal 智慧用电')).toBe('操作日志 - PowerPortal 智慧用电');
  });
  it('falls back to the product name', () => {
    expect(pageTitle(undefined, 'PowerPortal 智慧用电')).toBe('PowerPortal 智慧用电');
  });
});
