import { Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { OperationLogRead } from '@/api/schema';
import { common, logs } from '@/locales/zh-CN';

export const operationLogColumns: ColumnsType<OperationLogRead> = [
  { title: logs.time, dataIndex: 'create_time', key: 'create_time', width: 180, sorter: true, defaultSortOrder: 'descend' },
  { title: logs.operateType, dataIndex: 'operate_type_name', key: 'operate_type', width: 140 },
  { title: logs.detail, dataIndex: 'detail', key: 'detail', ellipsis: true },
  { title: logs.ip, dataIndex: 'ip', key: 'ip', width: 150 },
  {
    title: logs.result,
    dataIndex: 'is_success',
    key: 'is_success',
    width: 90,
    render: (value: number) =>
      value === 1 ? <Tag color="success">{common.success}</Tag> : <Tag color="error">{common.failure}</Tag>,
  },
];
