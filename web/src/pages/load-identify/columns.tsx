import { Button, Space, Tag, Tooltip } from 'antd';
import type { LoadEventRead } from '@/api/schema';
import type { ListColumn } from '@/components/ListTable';
import { control, loadIdent } from '@/locales/zh-CN';
import { percent, watts } from './filters';

const ACTION_COLORS: Record<string, string> = { record: 'default', alarm: 'orange', trip: 'red' };

interface Handlers {
  onDetail: (row: LoadEventRead) => void;
  onHistory: (row: LoadEventRead) => void;
  onUnlock: (row: LoadEventRead) => void;
  /** Whether the customer may control a project (unlocking closes the breaker). */
  canControl?: (projectSysno: number) => boolean;
}

export function verdictTag(row: Pick<LoadEventRead, 'forbidden' | 'whitelisted'>) {
  if (row.whitelisted) return <Tag color="blue">{loadIdent.whitelisted}</Tag>;
  return row.forbidden ? <Tag color="red">{loadIdent.yes}</Tag> : <Tag color="green">{loadIdent.no}</Tag>;
}

export function loadColumns({ onDetail, onHistory, onUnlock, canControl = () => true }: Handlers): ListColumn<LoadEventRead>[] {
  return [
    { title: loadIdent.time, dataIndex: 'event_time', key: 'event_time', width: 175, fixed: 'left', keep: 'wide', rank: 2, sorter: true },
    {
      title: loadIdent.device,
      key: 'target',
      width: 120,
      ellipsis: true,
      keep: true,
      render: (_: unknown, row) => (
        <span>
          <div>{row.target_name}</div>
          <div style={{ color: '#909399', fontSize: 12 }}>{[row.project_name, row.building_name].filter(Boolean).join(' / ')}</div>
        </span>
      ),
    },
    { title: loadIdent.deviceId, dataIndex: 'device_id', width: 90, rank: 14 },
    { title: loadIdent.event, dataIndex: 'code_name', width: 70, rank: 12 },
    {
      title: loadIdent.appliance,
      dataIndex: 'appliance',
      key: 'appliance',
      width: 110,
      keep: true,
      sorter: true,
      render: (name: string, row) => (
        <Space size={4} wrap>
          {name}
          {verdictTag(row)}
        </Space>
      ),
    },
    { title: loadIdent.power, dataIndex: 'power', key: 'power', width: 100, rank: 5, sorter: true, render: (v: number) => watts(v) },
    { title: loadIdent.confidence, dataIndex: 'confidence', key: 'confidence', width: 90, rank: 3, sorter: true, render: (v: number) => percent(v) },
    {
      title: loadIdent.action,
      dataIndex: 'action_name',
      width: 90,
      rank: 6,
      render: (name: string, row) => (row.action === 'none' ? '—' : <Tag color={ACTION_COLORS[row.action]}>{name}</Tag>),
    },
    {
      title: loadIdent.result,
      dataIndex: 'result',
      width: 210,
      rank: 4,
      ellipsis: { showTitle: false },
      render: (text: string) => (
        <Tooltip placement="topLeft" title={text}>
          <span data-testid="load-result">{text}</span>
        </Tooltip>
      ),
    },
    {
      title: loadIdent.operate,
      key: 'operate',
      width: 90,
      fixed: 'right',
      keep: true,
      render: (_: unknown, row) => (
        <Space size={[0, 0]} wrap>
          <Button type="link" size="small" onClick={() => onDetail(row)}>
            {loadIdent.detail}
          </Button>
          <Button type="link" size="small" onClick={() => onHistory(row)}>
            {loadIdent.history}
          </Button>
          {row.can_unlock && (
            <Tooltip title={canControl(row.project_sysno) ? undefined : control.viewOnly}>
              <span>
                <Button
                  type="link"
                  size="small"
                  danger
                  disabled={!canControl(row.project_sysno)}
                  onClick={() => onUnlock(row)}
                  data-testid="load-unlock"
                >
                  {loadIdent.unlock}
                </Button>
              </span>
            </Tooltip>
          )}
        </Space>
      ),
    },
  ];
}
