import { mobileSendProblem, transferSendProblem } from './rules';

describe('transfer code sending', () => {
  it('needs the matching phone first', () => {
    expect(transferSendProblem('current', '')).toBe('请输入当前账号手机号');
    expect(transferSendProblem('current', '  ')).toBe('请输入当前账号手机号');
    expect(transferSendProblem('target', undefined)).toBe('请输入目标账号手机号');
    expect(transferSendProblem('target', '13900000000')).toBeNull();
    expect(transferSendProblem('target', '12345')).toBe('请输入正确的手机号');
  });
});

describe('sending a code', () => {
  it('asks for a phone, then for a mobile number, before anything is sent', () => {
    expect(mobileSendProblem(undefined)).toBe('请输入手机号');
    expect(mobileSendProblem('0755-12345678')).toBe('请输入正确的手机号');
    expect(mobileSendProblem('13800000000')).toBeNull();
  });
});
