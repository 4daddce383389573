import { useState } from 'react';
import { Button, Card, Popconfirm, Space, Switch, Tag } from 'antd';
import { ListTable, type ListColumn } from '@/components/ListTable';
import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { useMutation } from '@tanstack/react-query';
import { centreApi, useCentreRefresh, useSubscriptions } from '@/api/reports/centre';
import type { SubscriptionRead, SubscriptionSave } from '@/api/schema';
import { useMessage } from '@/components/Feedback';
import { usePagedQuery } from '@/hooks/usePagedQuery';
import { reportCentre as t } from '@/locales/zh-CN';
import { SubscriptionModal } from './SubscriptionModal';

/** 定时报表: reports made every day, week or month, mailed and listed in the report centre. */
export function SubscriptionsTab() {
  const message = useMessage();
  const refresh = useCentreRefresh();
  const paged = usePagedQuery<object>();
  const list = useSubscriptions({ ...paged.page, ...paged.order });
  const [editing, setEditing] = useState<SubscriptionRead | 'new' | null>(null);
  const toggle = useMutation({
    mutationFn: ({ row, enabled }: { row: SubscriptionRead; enabled: boolean }) =>
      centreApi.save({
        sysno: row.sysno,
        name: row.name,
        kind: row.kind as SubscriptionSave['kind'],
        frequency: row.frequency as SubscriptionSave['frequency'],
        query: row.query,
        emails: row.emails,
        enabled,
      }),
    onSuccess: (_, { enabled }) => {
      void message.success(enabled ? t.on : t.off);
      refresh();
    },
  });
  const remove = useMutation({
    mutationFn: (sysno: number) => centreApi.removeSubscription(sysno),
    onSuccess: () => {
      void message.success(t.removed);
      refresh();
    },
  });

  const columns: ListColumn<SubscriptionRead>[] = [
    { title: t.name, dataIndex: 'name', key: 'name' },
    { title: t.kind, dataIndex: 'kind_name', key: 'kind', width: 110 },
    {
      title: t.project,
      dataIndex: 'project_name',
      key: 'project',
      render: (name: string | null) => name ?? <Tag color="warning">{t.lostProject}</Tag>,
    },
    { title: t.frequency, dataIndex: 'frequency_name', key: 'frequency', width: 80 },
    { title: t.format, dataIndex: 'format', key: 'format', width: 80, render: (f: keyof typeof t.formats) => t.formats[f] ?? f },
    {
      title: t.emails,
      dataIndex: 'emails',
      key: 'emails',
      render: (emails: string[]) => (emails.length ? emails.map((e) => <Tag key={e}>{e}</Tag>) : '—'),
    },
    { title: t.lastPeriod, dataIndex: 'last_period', key: 'last_period', width: 110, render: (v: string | null) => v ?? '—' },
    {
      title: t.enabled,
      dataIndex: 'enabled',
      key: 'enabled',
      width: 80,
      render: (enabled: boolean, row) => (
        <Switch size="small" checked={enabled} loading={toggle.isPending && toggle.variables?.row.sysno === row.sysno} onChange={(on) => toggle.mutate({ row, enabled: on })} />
      ),
    },
    {
      title: t.actions,
      key: 'actions',
      width: 150,
      fixed: 'right',
      render: (_, row) => (
        <Space size={4}>
          <Button type="link" size="small" icon={<EditOutlined />} onClick={() => setEditing(row)}>
            {t.editShort}
          </Button>
          <Popconfirm title={t.subscriptionRemoveConfirm} onConfirm={() => remove.mutate(row.sysno)}>
            <Button type="link" size="small" danger icon={<DeleteOutlined />}>
              {t.remove}
            </Button>
          </Popconfirm>
        </Space>
      ),
    },
  ];

  return (
    <Card size="small" data-testid="report-subscriptions">
      <Space style={{ marginBottom: 12 }}>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')} data-testid="add-subscription">
          {t.add}
        </Button>
      </Space>
      <ListTable<SubscriptionRead>
        tableId="report-subscriptions"
        rowKey="sysno"
        size="small"
        columns={columns}
        locale={{ emptyText: t.noSubscriptions }}
        {...paged.tableProps(list)}
        data-testid="subscription-table"
      />
      {editing !== null && (
        <SubscriptionModal
          editing={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            refresh();
          }}
        />
      )}
    </Card>
  );
}
