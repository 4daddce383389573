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
