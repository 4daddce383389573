import { transferSendProblem } from './rules';

describe('transfer code sending', () => {
  it('needs the matching phone first', () => {
    expect(transferSendProblem('current', '')).toBe('请输入当前账号手机号');
    expect(transferSendProblem('current', '  ')).toBe('请输入当前账号手机号');
    expect(transferSendProblem('target', undefined)).toBe('请输入目标账号手机号');
    expect(transferSendProblem('target', '13900000000')).toBeNull();
  });
});
