import { fireEvent, screen, waitFor } from '@testing-library/react';
import { setSession } from '@/api/core';
import { brandWith, renderInApp, stubApi } from '@/test/render';
import { TransferModal } from './TransferModal';

const ME = { sysno: 1, account: '13800000000', mobile: '13800000000', name: '演示用户' };

function field(label: string) {
  return screen.getByLabelText(label);
}

describe('transfer form', () => {
  beforeEach(() => setSession('tok', '演示用户'));
  afterEach(() => {
    sessionStorage.clear();
    vi.unstubAllGlobals();
  });

  it('requires both accounts and, with SMS codes, both codes', async () => {
    stubApi({ '/api/CustomerCenter/MyInfo': ME });
    renderInApp(<TransferModal open onClose={() => {}} />, { brand: brandWith({ SmsCode: true }) });
    fireEvent.change(await screen.findByLabelText('当前账号'), { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: /确\s*定/ }));
    expect(await screen.findByText('请输入当前账号')).toBeInTheDocument();
    // Each field's message appears when its own validation ends: wait for all of them (a loaded CI was slower).
    expect(await screen.findByText('请输入目标手机号')).toBeInTheDocument();
    await waitFor(() => expect(screen.getAllByText('请输入验证码')).toHaveLength(2));
  });

  it('rejects the same old and new account', async () => {
    const api = stubApi({ '/api/CustomerCenter/MyInfo': ME });
    renderInApp(<TransferModal open onClose={() => {}} />, { brand: brandWith({ SmsCode: false }) });
    fireEvent.change(await screen.findByLabelText('当前账号'), { target: { value: '13800000000' } });
    fireEvent.change(field('目标手机号'), { target: { value: '13800000000' } });
    fireEvent.click(screen.getByRole('button', { name: /确\s*定/ }));
    expect(await screen.findByText('新旧账号不能相同')).toBeInTheDocument();
    expect(api.calls.some((c) => c.url.includes('TransformUsername'))).toBe(false);
  });

  it('hides the code inputs for brands without SMS codes', async () => {
    stubApi({ '/api/CustomerCenter/MyInfo': ME });
    renderInApp(<TransferModal open onClose={() => {}} />, { brand: brandWith({ SmsCode: false }) });
    await screen.findByLabelText('当前账号');
    expect(screen.queryByText('当前账号验证码')).toBeNull();
    expect(screen.queryByText('目标手机验证码')).toBeNull();
    expect(screen.queryByText('获取验证码')).toBeNull();
  });

  it('asks for the phone before sending a code', async () => {
    const api = stubApi({ '/api/CustomerCenter/MyInfo': ME });
    renderInApp(<TransferModal open onClose={() => {}} />, { brand: brandWith({ SmsCode: true }) });
    fireEvent.change(await screen.findByLabelText('当前账号'), { target: { value: '' } });
    fireEvent.click(screen.getByTestId('send-current-code'));
    expect(await screen.findByText('请输入当前账号手机号')).toBeInTheDocument();
    fireEvent.click(screen.getByTestId('send-target-code'));
    expect(await screen.findByText('请输入目标账号手机号')).toBeInTheDocument();
    expect(api.calls.some((c) => c.url.includes('SendTransformSms'))).toBe(false);
  });

  it('locks the send button for 60 seconds after a code was sent', async () => {
    const api = stubApi({ '/api/CustomerCenter/MyInfo': ME, '/api/CustomerCenter/SendTransformSms': null });
    renderInApp(<TransferModal open onClose={() => {}} />, { brand: brandWith({ SmsCode: true }) });
    fireEvent.change(await screen.findByLabelText('目标手机号'), { target: { value: '13900000000' } });
    fireEvent.click(screen.getByTestId('send-target-code'));
    await waitFor(() => expect(screen.getByTestId('send-target-code')).toHaveTextContent('60秒后重新获取'));
    expect(screen.getByTestId('send-target-code')).toBeDisabled();
    const sent = api.calls.find((c) => c.url.includes('SendTransformSms'));
    expect(JSON.parse(String(sent?.init.body))).toEqual({ mobile: '13900000000', type: 2 });
  });
});
