/** 报表统计. */

export const reports = {
  tabs: { energy: '能耗报表', alarm: '告警报表', online: '在线率报表', control: '控制报表' },
  pending: '该报表正在开发中，将在后续版本提供',
  project: '项目',
  projectPlaceholder: '请选择项目',
  building: '建筑',
  allBuildings: '全部建筑',
  group: '统计对象',
  groups: { device: '按设备', building: '按建筑', project: '按项目' },
  period: '周期',
  noProjects: '暂无项目',
  export: '导出 Excel',
  detail: '明细粒度',
  details: { hour: '按小时', day: '按日', month: '按月' },
  fileName: '能耗报表.xlsx',
  tableTitle: '报表明细',
  periodKwh: (period: string) => `${period} (kWh)`,
  empty: '所选范围暂无数据',
} as const;
