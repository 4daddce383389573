import { useState } from 'react';
import { Alert, Button, Popconfirm, Space, Tag } from 'antd';
import { ListTable } from '@/components/ListTable';
import { PlusOutlined } from '@ant-design/icons';
import { notifier } from '@/api/core/notify';
import { smsApi, useSmsMutation, useSmsRules } from '@/api/sms/queries';
import type { NotificationRead } from '@/api/schema';
import { smsSettings as t } from '@/locales/zh-CN';
import { RuleModal } from './RuleModal';

/** The projects a rule names: those still seen, and how many were lost (a rule of lost ones alone sends nothing). */
export function projectsText(names: string[], lost: number): string {
  if (!names.length) return lost ? t.onlyLostProjects(lost) : t.allProjects;
  return lost ? `${names.join('、')}（${t.lostProjects(lost)}）` : names.join('、');
}

/** 短信通知: who gets a text for which alarms, in which projects, outside which quiet hours. */
export default function SmsNotificationPage() {
  const rules = useSmsRules();
  const [editing, setEditing] = useState<NotificationRead | null>(null);
  const [open, setOpen] = useState(false);
  const remove = useSmsMutation((sysno: number) => smsApi.deleteRule(sysno));

  return (
    <div data-testid="sms-notification">
      <Alert type="info" showIcon message={t.intro} style={{ marginBottom: 16 }} />
      <Button
        type="primary"
        icon={<PlusOutlined />}
        style={{ marginBottom: 16 }}
        onClick={() => {
          setEditing(null);
          setOpen(true);
        }}
      >
        {t.add}
      </Button>
      <ListTable<NotificationRead>
        tableId="sms-notification"
        rowKey="sysno"
        loading={rules.isFetching}
        dataSource={rules.data ?? []}
        pagination={false}
        columns={[
          { title: t.name, dataIndex: 'name', width: 120, ellipsis: true, keep: true },
          { title: t.mobiles, dataIndex: 'mobiles', width: 160, ellipsis: true, rank: 2, render: (m: string[]) => m.join('、') },
          {
            title: t.alarmTypes,
            dataIndex: 'alarm_type_names',
            width: 150,
            rank: 3,
            render: (names: string[]) => (names.length ? names.map((n) => <Tag key={n}>{n}</Tag>) : t.allTypes),
          },
          {
            title: t.projects,
            dataIndex: 'project_names',
            width: 150,
            ellipsis: true,
            rank: 4,
            render: (names: string[], row) => projectsText(names, row.lost_projects),
          },
          {
            title: t.quiet,
            key: 'quiet',
            width: 130,
            rank: 5,
            render: (_: unknown, row) => (row.quiet_start ? `${row.quiet_start}–${row.quiet_end}` : t.quietNone),
          },
          {
            title: t.enabled,
            dataIndex: 'enabled',
            width: 90,
            keep: true,
            render: (v: number) => (v ? <Tag color="green">{t.on}</Tag> : <Tag>{t.off}</Tag>),
          },
          {
            title: t.action,
            key: 'action',
            width: 124,
            keep: 'wide',
            rank: 1,
            fixed: 'right',
            render: (_: unknown, row) => (
              <Space>
                <Button
                  type="link"
                  size="small"
                  onClick={() => {
                    setEditing(row);
                    setOpen(true);
                  }}
                >
                  {t.editShort}
                </Button>
                <Popconfirm
                  title={t.deleteConfirm}
                  onConfirm={() => remove.mutate(row.sysno, { onSuccess: () => notifier().success('删除成功') })}
                >
                  <Button type="link" size="small" danger>
                    {t.delete}
                  </Button>
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />
      <RuleModal open={open} editing={editing} onClose={() => setOpen(false)} />
    </div>
  );
}
