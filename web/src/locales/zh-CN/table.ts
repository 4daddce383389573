export const listTable = {
  columnSetting: '列设置',
  columnSettingTitle: '显示的列',
  columnReset: '重置',
  keyColumn: '（固定显示）',
  untitled: '操作',
  filters: '筛选',
  filterTitle: '筛选条件',
} as const;
