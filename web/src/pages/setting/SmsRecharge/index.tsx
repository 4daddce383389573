import { useState } from 'react';
import { Button, Card, Col, Form, Input, InputNumber, Modal, Row, Space, Statistic, Tabs, Tag } from 'antd';
import { ListTable } from '@/components/ListTable';
import { notifier } from '@/api/core/notify';
import { smsApi, useRecharges, useSmsAccount, useSmsMutation, useSmsUsage } from '@/api/sms/queries';
import type { RechargeRead, UsageRead } from '@/api/schema';
import { ExportListButton } from '@/components/ExportListButton';
import { common, smsSettings as t } from '@/locales/zh-CN';

const STATUS_COLORS: Record<string, string> = { sent: 'green', failed: 'red', no_balance: 'orange' };
const STATE_COLORS: Record<number, string> = { 0: 'gold', 1: 'green', 2: 'default' };

/** 短信充值: the balance, recharge orders (confirmed by a brand administrator) and the texts sent. */
export default function SmsRechargePage() {
  const account = useSmsAccount();
  const [open, setOpen] = useState(false);
  const admin = account.data?.can_confirm === 1;
  return (
    <div data-testid="sms-recharge">
      <Row gutter={16} style={{ marginBottom: 16 }}>
        <Col xs={24} sm={8}>
          <Card size="small">
            <Statistic title={t.balance} value={account.data?.balance ?? 0} />
            <Space style={{ marginTop: 8 }}>
              <Button type="primary" onClick={() => setOpen(true)}>
                {t.recharge}
              </Button>
              <span>{t.price(account.data?.price ?? 0)}</span>
            </Space>
          </Card>
        </Col>
        <Col xs={12} sm={8}>
          <Card size="small">
            <Statistic title={t.sentMonth} value={account.data?.sent_this_month ?? 0} />
          </Card>
        </Col>
        <Col xs={12} sm={8}>
          <Card size="small">
            <Statistic title={t.sentTotal} value={account.data?.sent_total ?? 0} />
          </Card>
        </Col>
      </Row>
      <Tabs
        items={[
          { key: 'usage', label: t.usage, children: <UsageTable /> },
          { key: 'orders', label: t.orders, children: <Orders all={false} /> },
          ...(admin ? [{ key: 'pending', label: t.pending, children: <Orders all /> }] : []),
        ]}
      />
      <RechargeModal open={open} price={account.data?.price ?? 0} onClose={() => setOpen(false)} />
    </div>
  );
}

function UsageTable() {
  const [page, setPage] = useState({ pageIndex: 1, pageSize: 10 });
  const usage = useSmsUsage(page);
  return (
    <>
      <div style={{ marginBottom: 8, textAlign: 'right' }}>
        <ExportListButton download={() => smsApi.exportUsage(page)} fallbackName={t.exportName} />
      </div>
      <ListTable<UsageRead>
        tableId="sms-usage"
        rowKey="sysno"
        size="small"
        loading={usage.isFetching}
        dataSource={usage.data?.dataSource ?? []}
        columns={[
          { title: t.time, dataIndex: 'create_time', width: 185, keep: true },
          { title: t.mobile, dataIndex: 'mobile', width: 130, keep: 'wide' },
          { title: t.content, dataIndex: 'content', width: 260, ellipsis: true, rank: 9 },
          {
            title: t.status,
            dataIndex: 'status_name',
            width: 100,
            keep: true,
            render: (name: string, row) => <Tag color={STATUS_COLORS[row.status]}>{name}</Tag>,
          },
        ]}
        pagination={{
          current: page.pageIndex,
          pageSize: page.pageSize,
          total: usage.data?.totalCount ?? 0,
          showTotal: t.total,
          onChange: (pageIndex, pageSize) => setPage({ pageIndex, pageSize }),
        }}
      />
    </>
  );
}

function Orders({ all }: { all: boolean }) {
  const [page, setPage] = useState({ pageIndex: 1, pageSize: 10 });
  const query = { ...page, all, state: all ? 0 : null };
  const orders = useRecharges(query);
  const confirm = useSmsMutation(({ sysno, approve }: { sysno: number; approve: boolean }) => smsApi.confirm(sysno, approve));
  return (
    <>
      <div style={{ marginBottom: 8, textAlign: 'right' }}>
        <ExportListButton download={() => smsApi.exportRecharges(query)} fallbackName={t.exportOrdersName} testId="recharge-export" />
      </div>
      <ListTable<RechargeRead>
        tableId="sms-recharges"
        rowKey="sysno"
        size="small"
        loading={orders.isFetching}
        dataSource={orders.data?.dataSource ?? []}
        columns={[
          { title: t.orderTime, dataIndex: 'create_time', width: 185, keep: true },
          ...(all ? [{ title: t.customer, dataIndex: 'customer_mobile', width: 130 }] : []),
          { title: t.quantity, dataIndex: 'quantity', width: 100 },
          { title: t.amount, dataIndex: 'amount', width: 100 },
          { title: t.remark, dataIndex: 'remark', width: 200, ellipsis: true, rank: 9 },
          {
            title: t.status,
            dataIndex: 'state_name',
            width: 100,
            keep: true,
            render: (name: string, row: RechargeRead) => <Tag color={STATE_COLORS[row.state]}>{name}</Tag>,
          },
          all
            ? {
                title: t.action,
                key: 'action',
                width: 170,
                keep: 'wide' as const,
                render: (_: unknown, row: RechargeRead) => (
                  <Space>
                    <Button size="small" type="primary" onClick={() => confirm.mutate({ sysno: row.sysno, approve: true })}>
                      {t.approve}
                    </Button>
                    <Button size="small" onClick={() => confirm.mutate({ sysno: row.sysno, approve: false })}>
                      {t.refuse}
                    </Button>
                  </Space>
                ),
              }
            : { title: t.confirmTime, dataIndex: 'confirm_time', width: 185 },
        ]}
        pagination={{
          current: page.pageIndex,
          pageSize: page.pageSize,
          total: orders.data?.totalCount ?? 0,
          showTotal: t.total,
          onChange: (pageIndex, pageSize) => setPage({ pageIndex, pageSize }),
        }}
      />
    </>
  );
}

function RechargeModal({ open, price, onClose }: { open: boolean; price: number; onClose: () => void }) {
  const [form] = Form.useForm<{ quantity: number; remark?: string }>();
  const quantity = Form.useWatch('quantity', form) ?? 0;
  const order = useSmsMutation(({ quantity: n, remark }: { quantity: number; remark?: string }) =>
    smsApi.recharge(n, remark?.trim() || null),
  );
  return (
    <Modal
      title={t.rechargeTitle}
      open={open}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={common.confirm}
      cancelText={common.cancel}
      confirmLoading={order.isPending}
      destroyOnHidden
    >
      <p>{t.rechargeHint}</p>
      <Form
        form={form}
        layout="vertical"
        name="sms-recharge"
        clearOnDestroy
        initialValues={{ quantity: 1000 }}
        onFinish={(values) =>
          order.mutate(values, {
            onSuccess: () => {
              notifier().success('订单已提交，等待确认');
              onClose();
            },
          })
        }
      >
        <Form.Item name="quantity" label={t.quantity} rules={[{ required: true, message: t.required(t.quantity) }]}>
          <InputNumber min={100} max={100000} step={100} precision={0} style={{ width: 200 }} />
        </Form.Item>
        <Form.Item label={t.amount}>{(quantity * price).toFixed(2)}</Form.Item>
        <Form.Item name="remark" label={t.remark} rules={[{ max: 200 }]}>
          <Input maxLength={200} showCount />
        </Form.Item>
      </Form>
    </Modal>
  );
}
