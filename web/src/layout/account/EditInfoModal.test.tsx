import { fireEvent, screen, waitFor } from '@testing-library/react';
import { setSession } from '@/api/core';
import { renderInApp, stubApi } from '@/test/render';
import { EditInfoModal } from './EditInfoModal';

const PROFILE = { sysno: 1, account: '13800000000', mobile: '13800000000', name: '演示用户', email: null, remark: null, serial_no: null };

describe('edit info form', () => {
  beforeEach(() => setSession('tok', '演示用户'));
  afterEach(() => {
    sessionStorage.clear();
    vi.unstubAllGlobals();
  });

  it('requires a name and keeps the mobile read-only', async () => {
    stubApi({ '/api/CustomerCenter/GetSingleCustomer': PROFILE });
    renderInApp(<EditInfoModal open onClose={() => {}} />);
    const name = await screen.findByLabelText('名称');
    await waitFor(() => expect(name).toHaveValue('演示用户'));
    expect(screen.getByLabelText('手机号')).toBeDisabled();
    fireEvent.change(name, { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: /确\s*定/ }));
    expect(await screen.findByText('请输入名称')).toBeInTheDocument();
  });

  it('asks for a phone number when the mobile is missing', async () => {
    stubApi({ '/api/CustomerCenter/GetSingleCustomer': { ...PROFILE, mobile: '' } });
    renderInApp(<EditInfoModal open onClose={() => {}} />);
    await waitFor(() => expect(screen.getByLabelText('名称')).toHaveValue('演示用户'));
    fireEvent.click(screen.getByRole('button', { name: /确\s*定/ }));
    expect(await screen.findByText('请输入手机号')).toBeInTheDocument();
  });

  it('sends name, email, remark and serial_no', async () => {
    const api = stubApi({ '/api/CustomerCenter/GetSingleCustomer': PROFILE, '/api/CustomerCenter/UpdateCustomer': null });
    const onClose = vi.fn();
    renderInApp(<EditInfoModal open onClose={onClose} />);
    const name = await screen.findByLabelText('名称');
    await waitFor(() => expect(name).toHaveValue('演示用户'));
    fireEvent.change(name, { target: { value: '新名称' } });
    fireEvent.change(screen.getByLabelText('邮箱'), { target: { value: 'a@b.cn' } });
    fireEvent.click(screen.getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const update = api.calls.find((c) => c.url.includes('UpdateCustomer'));
    expect(update?.init.method).toBe('PUT');
    expect(JSON.parse(String(update?.init.body))).toEqual({ name: '新名称', email: 'a@b.cn', remark: null, serial_no: null });
  });
});
