import {
  billStatusLabel,
  businessTypeLabel,
  chargeTypeLabel,
  codeOptions,
  CHARGE_TYPES,
  isOnline,
  onlineLabel,
  state1Label,
  state2Label,
  state3Label,
  state4Label,
  state5Label,
  state6Label,
} from './codes';

describe('code tables', () => {
  it('labels charge types', () => {
    expect([1, 2, 3].map(chargeTypeLabel)).toEqual(['预付费', '后付费(预存)', '后付费']);
    expect(chargeTypeLabel(9)).toBe('未知');
  });
  it('labels business types', () => {
    expect([1, 2, 3, 4].map(businessTypeLabel)).toEqual(['报修', '换表', '过户', '销户']);
  });
  it('labels bill statuses, accepting numeric strings', () => {
    expect(billStatusLabel('1')).toBe('已结算');
    expect(billStatusLabel(2)).toBe('未结算');
    expect(billStatusLabel(null)).toBe('未知');
  });
  it('builds select options', () => {
    expect(codeOptions(CHARGE_TYPES)[0]).toEqual({ value: 1, label: '预付费' });
  });
});

describe('state labels', () => {
  it('state 1: approved, rejected, otherwise void', () => {
    expect([1, 2, 3, null].map(state1Label)).toEqual(['已通过', '已驳回', '已作废', '已作废']);
  });
  it('state 2', () => {
    expect([1, 2, 3, 4, 5].map(state2Label)).toEqual(['未审核', '已派单', '拒绝接单', '未通过', '报告驳回']);
  });
  it('state 3', () => {
    expect([1, 2, 3].map(state3Label)).toEqual(['未审核', '已接单', '未接单']);
  });
  it('state 4', () => {
    expect([1, 2, 3, 4].map(state4Label)).toEqual(['未上报', '已上报', '已驳回', '未通过']);
  });
  it('state 5', () => {
    expect([1, 2, 3].map(state5Label)).toEqual(['未审核', '已通过', '未通过']);
  });
  it('state 6: completed, voided, otherwise in progress', () => {
    expect([1, 2, 0, undefined].map(state6Label)).toEqual(['已完成', '已作废', '进行中', '进行中']);
  });
  it('device online flag: 0 offline, otherwise online', () => {
    expect(isOnline(0)).toBe(false);
    expect(isOnline('0')).toBe(false);
    expect(isOnline(1)).toBe(true);
    expect(onlineLabel(0)).toBe('离线');
    expect(onlineLabel(2)).toBe('在线');
  });
});
