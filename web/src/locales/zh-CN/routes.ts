/** Page titles by route name; the document title is `${title} - ${product_name}`. */
export const routeTitles = {
  login: '登录',
  register: '注册',
  findpsw: '找回密码',
  'auth-redirect': '免密登录',
  '404': '页面不存在',
  '401': '无权访问',
  dashboard: '数据监控',
  'devices-manage': '设备监控',
  'alarm-manage': '设备告警',
  alarm: '告警统计',
  eng: '能耗统计',
  'timing-task': '定时控制',
  'group-control': '分组控制',
  'load-identify': '负载识别',
  report: '报表统计',
  electricity: '电费管理',
  setting: '系统管理',
  'project-list': '项目管理',
  'gateway-list': '网关管理',
  'share-list': '分享管理',
  'tariff-list': '电价管理',
  logs: '日志',
  'offline-list': '离线日志',
  'operate-list': '操作日志',
  'stat-list': '状态日志',
  'cmd-list': '命令日志',
  SmsTemplate: '短信模板',
  SmsNotification: '短信通知',
  SmsRecharge: '短信充值',
} as const;

export type RouteName = keyof typeof routeTitles;

export const errorPages = {
  notFoundTitle: '404',
  notFound: '抱歉，您访问的页面不存在。',
  unauthorizedTitle: '401',
  unauthorized: '抱歉，您无权访问此页面。',
} as const;
