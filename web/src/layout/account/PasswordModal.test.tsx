import { screen } from '@testing-library/react';
import { setSession } from '@/api/core';
import { brandWith, renderInApp, stubApi } from '@/test/render';
import { PasswordModal } from './PasswordModal';

describe('change password form', () => {
  beforeEach(() => setSession('tok', '演示用户'));
  afterEach(() => {
    sessionStorage.clear();
    vi.unstubAllGlobals();
  });

  it('shows phone and code inputs for brands with SMS codes', async () => {
    stubApi({ '/api/CustomerCenter/MyInfo': { mobile: '13800000000' } });
    renderInApp(<PasswordModal open onClose={() => {}} />, { brand: brandWith({ SmsCode: true }) });
    expect(await screen.findByLabelText('原密码')).toBeInTheDocument();
    expect(screen.getByLabelText('手机号')).toBeInTheDocument();
    expect(screen.getByText('获取验证码')).toBeInTheDocument();
  });

  it('hides them for brands without', async () => {
    stubApi({ '/api/CustomerCenter/MyInfo': { mobile: '13800000000' } });
    renderInApp(<PasswordModal open onClose={() => {}} />, { brand: brandWith({ SmsCode: false }) });
    expect(await screen.findByLabelText('原密码')).toBeInTheDocument();
    expect(screen.queryByLabelText('手机号')).toBeNull();
    expect(screen.queryByText('获取验证码')).toBeNull();
  });
});
