export const logs = {
  operateType: '操作类型',
  operateTypePlaceholder: '全部类型',
  time: '操作时间',
  startTime: '开始时间',
  endTime: '结束时间',
  detail: '操作内容',
  ip: 'IP 地址',
  result: '结果',
  total: (n: number) => `共 ${n} 条`,
} as const;

export const offlineLogs = {
  kind: '类型',
  kinds: { gateway: '网关', device: '设备' } as Record<string, string>,
  target: '对象',
  gateway: '网关',
  project: '所属项目',
  reason: '原因',
  offlineTime: '离线时间',
  onlineTime: '恢复时间',
  duration: '离线时长',
  state: '状态',
  recovered: '已恢复',
  stillOffline: '仍离线',
  keyword: '对象名称或网关序列号',
  allProjects: '全部项目',
  allKinds: '全部类型',
  highlighted: (sysno: number) => `已定位到离线记录 #${sysno}`,
  notFound: '该离线记录不存在或无权查看',
  clearFocus: '显示全部',
} as const;

export const statusLogs = {
  time: '时间',
  type: '状态类型',
  allTypes: '全部类型',
  target: '对象',
  gateway: '网关序列号',
  project: '所属项目',
  detail: '详情',
  keyword: '对象、详情或网关序列号',
} as const;
