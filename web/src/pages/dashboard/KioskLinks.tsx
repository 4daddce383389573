import { useState } from 'react';
import { Alert, Button, Form, Input, InputNumber, Modal, Popconfirm, Space, Tag, Typography, message } from 'antd';
import { ListTable, type ListColumn } from '@/components/ListTable';
import { useAddKioskLink, useKioskLinks, useRevokeKioskLink } from '@/api/dashboard/queries';
import type { KioskLinkRead } from '@/api/schema';
import { usePagedQuery } from '@/hooks/usePagedQuery';
import { dashboard as t } from '@/locales/zh-CN';

const STATE_COLORS: Record<string, string> = { active: 'green', expired: 'default', revoked: 'red' };

/** The address a kiosk token opens (this server, the public kiosk route). */
export function kioskUrl(token: string): string {
  return `${window.location.origin}/kiosk/${token}`;
}

/** 展示链接: make, list and revoke the read-only links that show this screen on a wall display. */
export function KioskLinks({ open, onClose }: { open: boolean; onClose: () => void }) {
  const paged = usePagedQuery();
  const list = useKioskLinks({ ...paged.page, ...paged.order }, open);
  const add = useAddKioskLink();
  const revoke = useRevokeKioskLink();
  const [made, setMade] = useState<string | null>(null);
  const [form] = Form.useForm<{ name: string; days: number }>();

  const columns: ListColumn<KioskLinkRead>[] = [
    { title: t.kioskName, dataIndex: 'name', key: 'name', width: 140, ellipsis: true, keep: true },
    { title: t.kioskState, dataIndex: 'state', key: 'state', width: 90, keep: true, render: (s: string) => <Tag color={STATE_COLORS[s]}>{t.kioskStates[s]}</Tag> },
    { title: t.kioskExpireTime, dataIndex: 'expire_time', key: 'expire_time', width: 170, rank: 2 },
    { title: t.kioskLastUsed, dataIndex: 'last_used_time', key: 'last_used_time', width: 170, rank: 3, render: (v: string | null) => v ?? '—' },
    { title: t.kioskCreateTime, dataIndex: 'create_time', key: 'create_time', width: 170, rank: 4 },
    {
      title: '',
      key: 'revoke',
      width: 80,
      keep: true,
      render: (_, row) =>
        row.state === 'active' ? (
          <Popconfirm title={t.kioskRevokeConfirm} onConfirm={() => revoke.mutateAsync(row.sysno).then(() => message.success(t.kioskRevoked))}>
            <Button type="link" danger size="small" data-testid={`kiosk-revoke-${row.sysno}`}>
              {t.kioskRevoke}
            </Button>
          </Popconfirm>
        ) : null,
    },
  ];

  const submit = async (values: { name: string; days: number }) => {
    const created = await add.mutateAsync(values);
    setMade(kioskUrl(created.token));
    form.resetFields();
  };

  return (
    <Modal
      open={open}
      title={t.kioskTitle}
      onCancel={() => {
        setMade(null);
        onClose();
      }}
      footer={null}
      width={820}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">{t.kioskHelp}</Typography.Paragraph>
      <Form form={form} layout="inline" onFinish={submit} initialValues={{ days: 30 }} style={{ marginBottom: 12, rowGap: 8 }}>
        <Form.Item name="name" label={t.kioskName} rules={[{ required: true, message: `${t.kioskNamePlaceholder}` }]}>
          <Input maxLength={32} placeholder={t.kioskNamePlaceholder} data-testid="kiosk-name" />
        </Form.Item>
        <Form.Item name="days" label={t.kioskDays} rules={[{ required: true }]}>
          <InputNumber min={1} max={365} precision={0} />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={add.isPending} data-testid="kiosk-create">
          {t.kioskCreate}
        </Button>
      </Form>
      {made && (
        <Alert
          type="success"
          showIcon
          style={{ marginBottom: 12 }}
          message={t.kioskCreated}
          description={
            <Space.Compact style={{ width: '100%' }}>
              <Input readOnly value={made} data-testid="kiosk-url" />
              <Button onClick={() => void navigator.clipboard?.writeText(made).then(() => message.success(t.kioskCopied))}>{t.kioskCopy}</Button>
            </Space.Compact>
          }
        />
      )}
      <ListTable<KioskLinkRead> tableId="kiosk-links" rowKey="sysno" size="small" columns={columns} {...paged.tableProps(list)} />
    </Modal>
  );
}
