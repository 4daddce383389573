import { Tag } from 'antd';
import type { ListColumn } from '@/components/ListTable';
import type { OperationLogRead } from '@/api/schema';
import { common, logs } from '@/locales/zh-CN';

export const operationLogColumns: ListColumn<OperationLogRead>[] = [
  { title: logs.time, dataIndex: 'create_time', key: 'create_time', width: 180, sorter: true, defaultSortOrder: 'descend', keep: true },
  { title: logs.operateType, dataIndex: 'operate_type_name', key: 'operate_type', width: 140, keep: 'wide', rank: 1 },
  { title: logs.detail, dataIndex: 'detail', key: 'detail', ellipsis: true, width: 260, rank: 3 },
  { title: logs.ip, dataIndex: 'ip', key: 'ip', width: 150, rank: 4 },
  {
    title: logs.result,
    dataIndex: 'is_success',
    key: 'is_success',
    width: 90,
    rank: 0,
    render: (value: number) =>
      value === 1 ? <Tag color="success">{common.success}</Tag> : <Tag color="error">{common.failure}</Tag>,
  },
];
