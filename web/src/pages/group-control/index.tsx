import { useState } from 'react';
import { Button, Card, Empty, Input, Modal, Popconfirm, Space, Typography } from 'antd';
import { ListTable, type ListColumn } from '@/components/ListTable';
import { PlusOutlined, PoweroffOutlined, ThunderboltOutlined } from '@ant-design/icons';
import { useMutation } from '@tanstack/react-query';
import { controlApi, useControlRefresh, useGroups } from '@/api/control/queries';
import type { GroupRow } from '@/api/schema';
import type { SwitchAction } from '@/api/control/types';
import { ExportListButton } from '@/components/ExportListButton';
import { useMessage } from '@/components/Feedback';
import { control, groupControl, routeTitles, timedTask } from '@/locales/zh-CN';
import { MemberNames } from '@/components/control/MemberNames';
import { GroupModal } from './components/GroupModal';
import { RunProgress } from './components/RunProgress';

const ACTION_LABEL: Record<SwitchAction, string> = { switch_on: control.switchOn, switch_off: control.switchOff };

/** 分组控制: named groups of devices across gateways and projects, switched together. */
export default function GroupControlPage() {
  const message = useMessage();
  const refresh = useControlRefresh();
  const [keyword, setKeyword] = useState('');
  const [page, setPage] = useState({ pageIndex: 1, pageSize: 10 });
  const [editing, setEditing] = useState<{ sysno: number | null } | null>(null);
  const [asking, setAsking] = useState<{ group: GroupRow; action: SwitchAction } | null>(null);
  const [running, setRunning] = useState<number | null>(null);
  const query = { ...page, name: keyword || null, orderBy: 'create_time', sort: 'desc' as const };
  const list = useGroups(query);
  const switchGroup = useMutation({
    mutationFn: ({ group, action }: { group: GroupRow; action: SwitchAction }) => controlApi.switchGroup(group.sysno, action),
    onSuccess: (run) => {
      void message.info(groupControl.started);
      setAsking(null);
      setRunning(run.sysno);
    },
  });
  const remove = useMutation({ mutationFn: (sysno: number) => controlApi.deleteGroup(sysno), onSuccess: refresh });

  const columns: ListColumn<GroupRow>[] = [
    { title: groupControl.name, dataIndex: 'name', key: 'name', width: 180, ellipsis: true, keep: true },
    {
      title: groupControl.devices,
      key: 'devices',
      width: 200,
      keep: 'wide',
      render: (_: unknown, g: GroupRow) => (
        <MemberNames kind="group" sysno={g.sysno}>
          <span>{groupControl.deviceCount(g.device_count, g.online_count, g.on_count)}</span>
        </MemberNames>
      ),
    },
    {
      title: groupControl.lastRun,
      key: 'last_run',
      width: 250,
      rank: 9,
      render: (_: unknown, g: GroupRow) =>
        g.last_run ? (
          <Typography.Link onClick={() => setRunning(g.last_run?.sysno ?? null)}>
            {g.last_run.create_time} {g.last_run.action_name} · {groupControl.counts(g.last_run.succeeded, g.last_run.failed, g.last_run.pending)}
          </Typography.Link>
        ) : (
          timedTask.none
        ),
    },
    {
      title: control.actions,
      key: 'actions',
      width: 330,
      fixed: 'right',
      keep: 'wide',
      render: (_: unknown, g: GroupRow) => (
        <Space size={4}>
          <Button size="small" type="primary" icon={<ThunderboltOutlined />} disabled={g.device_count === 0} onClick={() => setAsking({ group: g, action: 'switch_on' })}>
            {groupControl.switchOn}
          </Button>
          <Button size="small" danger icon={<PoweroffOutlined />} disabled={g.device_count === 0} onClick={() => setAsking({ group: g, action: 'switch_off' })} data-testid="group-switch-off">
            {groupControl.switchOff}
          </Button>
          <Button type="link" size="small" onClick={() => setEditing({ sysno: g.sysno })}>
            {control.edit}
          </Button>
          <Popconfirm title={groupControl.deleteConfirm(g.name)} onConfirm={() => remove.mutate(g.sysno)}>
            <Button type="link" size="small" danger>
              {control.delete}
            </Button>
          </Popconfirm>
        </Space>
      ),
    },
  ];

  return (
    <Card size="small" title={routeTitles['group-control']} data-testid="group-control">
      <Space style={{ marginBottom: 16 }} wrap>
        <Input.Search
          maxLength={64}
          allowClear
          placeholder={groupControl.keyword}
          style={{ width: 220 }}
          onSearch={(value) => {
            setKeyword(value.trim());
            setPage((p) => ({ ...p, pageIndex: 1 }));
          }}
        />
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ sysno: null })} data-testid="add-group">
          {groupControl.add}
        </Button>
        <ExportListButton download={() => controlApi.exportGroups(query)} fallbackName={groupControl.exportName} />
      </Space>
      <ListTable<GroupRow>
        tableId="group-control"
        rowKey="sysno"
        columns={columns}
        dataSource={list.data?.dataSource ?? []}
        loading={list.isFetching}
        locale={{ emptyText: <Empty description={groupControl.empty} /> }}
        pagination={{
          current: page.pageIndex,
          pageSize: page.pageSize,
          total: list.data?.totalCount ?? 0,
          onChange: (pageIndex, pageSize) => setPage({ pageIndex, pageSize }),
        }}
        data-testid="group-table"
      />
      <GroupModal open={editing !== null} sysno={editing?.sysno ?? null} onClose={() => setEditing(null)} />
      <Modal
        open={asking !== null}
        title={asking ? control.confirmTitle(ACTION_LABEL[asking.action]) : ''}
        okText={control.ok}
        cancelText={control.cancel}
        okButtonProps={{ danger: asking?.action === 'switch_off' }}
        confirmLoading={switchGroup.isPending}
        onOk={() => asking && switchGroup.mutate(asking)}
        onCancel={() => setAsking(null)}
      >
        {asking && (
          <>
            <p>{groupControl.confirm(ACTION_LABEL[asking.action], asking.group.name, asking.group.device_count)}</p>
            {asking.action === 'switch_off' && <Typography.Text type="warning">{control.confirmOff}</Typography.Text>}
          </>
        )}
      </Modal>
      <RunProgress
        sysno={running}
        onClose={() => {
          setRunning(null);
          refresh();
        }}
      />
    </Card>
  );
}
