import { useState } from 'react';
import { Button, Modal, Select, Space, Tag, Typography } from 'antd';
import { ListTable, type ListColumn } from '@/components/ListTable';
import { useNavigate } from 'react-router';
import { notifier } from '@/api/core/notify';
import { noticeApi, useBatchReadNotices, useNoticeList } from '@/api/alarms/queries';
import { ExportListButton } from '@/components/ExportListButton';
import type { NoticeQuery, NoticeRead } from '@/api/schema';
import { NOTICE_TYPE_BILLING, NOTICE_TYPE_OFFLINE, NOTICE_TYPE_REPORT, REQUESTED_NOTICE_TYPES } from '@/api/alarms/types';
import { notices } from '@/locales/zh-CN';
import { PAGE_SIZES } from '@/utils/listQuery';
import { useDialogWidth } from '@/hooks/useDialogWidth';

const READ_OPTIONS = [
  { value: 0, label: notices.unread },
  { value: 1, label: notices.read },
];

/** Unread is 0 or null; read is 1. */
export function isUnread(row: Pick<NoticeRead, 'is_read'>): boolean {
  return row.is_read !== 1;
}

/** Where the jump button leads: offline records to the offline log, reports to the report centre, balances to the account, else the alarms. */
export function jumpTarget(row: Pick<NoticeRead, 'notice_type' | 'source_sysno'>): string {
  if (row.notice_type === NOTICE_TYPE_REPORT) return `/user-manage/report?tab=centre&sysno=${row.source_sysno ?? ''}`;
  if (row.notice_type === NOTICE_TYPE_BILLING) return `/user-manage/electricity?tab=accounts&account=${row.source_sysno ?? ''}`;
  const screen = row.notice_type === NOTICE_TYPE_OFFLINE ? '/user-manage/setting/offline-list' : '/user-manage/alarm-manage';
  return `${screen}?sysno=${row.source_sysno ?? ''}`;
}

/** The device a notice is about by name, with its gateway and bus address beneath (a bare "2" says little). */
function NoticeDevice({ row }: { row: NoticeRead }) {
  if (!row.device_name) return <>{row.device_id ?? '-'}</>;
  // A gateway's own notice names the gateway already.
  const gateway = row.gateway_name !== row.device_name ? row.gateway_name : null;
  const where = [gateway, row.device_id ? notices.deviceNumber(row.device_id) : null].filter(Boolean).join(' · ');
  return (
    <div data-testid="notice-device">
      <div>{row.device_name}</div>
      {where && (
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {where}
        </Typography.Text>
      )}
    </div>
  );
}

interface Props {
  open: boolean;
  onClose: () => void;
  /** The badge count is refreshed after a batch. */
  onProcessed: () => void;
}

/** 系统消息: the customer's alarm and offline notices, with read-state filter, batch processing and jumps. */
export function NoticeDialog({ open, onClose, onProcessed }: Props) {
  const navigate = useNavigate();
  const [readFilter, setReadFilter] = useState<0 | 1 | null>(null);
  const [query, setQuery] = useState<NoticeQuery>({
    pageIndex: 1,
    pageSize: PAGE_SIZES[0],
    total: 0,
    custmoer_notice_type: REQUESTED_NOTICE_TYPES,
    is_read: null,
    sort: 'desc',
    orderBy: 'create_time',
  });
  const [selected, setSelected] = useState<number[]>([]);
  const dialogWidth = useDialogWidth(1000);
  const list = useNoticeList(query, open);
  const batch = useBatchReadNotices();
  const rows = list.data?.dataSource ?? [];

  function search() {
    setSelected([]);
    setQuery((q) => ({ ...q, pageIndex: 1, is_read: readFilter }));
  }

  function process() {
    const unread = rows.filter((r) => selected.includes(r.sysno) && isUnread(r)).map((r) => r.sysno);
    if (unread.length === 0) {
      notifier().warning(notices.nothingToProcess);
      return;
    }
    batch.mutate(unread, {
      onSuccess: () => {
        notifier().success(notices.processSuccess);
        setSelected([]);
        onProcessed();
      },
      onError: () => notifier().error(notices.processFailure),
    });
  }

  function jump(row: NoticeRead) {
    onClose();
    navigate(jumpTarget(row), { state: { reloadAt: Date.now() } });
  }

  const columns: ListColumn<NoticeRead>[] = [
    { title: notices.deviceId, dataIndex: 'device_id', width: 190, rank: 2, render: (_: unknown, row) => <NoticeDevice row={row} /> },
    { title: notices.detail, dataIndex: 'notice_detail', width: 140, keep: true, ellipsis: true },
    { title: notices.time, dataIndex: 'create_time', width: 185, keep: 'wide', rank: 3 },
    {
      title: notices.state,
      dataIndex: 'is_read',
      width: 70,
      keep: true,
      render: (_: unknown, row) =>
        isUnread(row) ? <Tag color="red">{notices.unread}</Tag> : <Tag color="green">{notices.read}</Tag>,
    },
    {
      title: notices.action,
      key: 'jump',
      width: 70,
      keep: 'wide',
      rank: 1,
      render: (_: unknown, row) => (
        <Button type="link" size="small" onClick={() => jump(row)} data-testid={`notice-jump-${row.sysno}`}>
          {notices.jump}
        </Button>
      ),
    },
  ];

  return (
    <Modal title={notices.title} open={open} onCancel={onClose} footer={null} width={dialogWidth} destroyOnHidden>
      <Space wrap style={{ marginBottom: 12 }}>
        <span>{notices.readState}</span>
        <Select
          allowClear
          placeholder={notices.readStatePlaceholder}
          style={{ width: 140 }}
          options={READ_OPTIONS}
          value={readFilter ?? undefined}
          onChange={(v?: 0 | 1) => setReadFilter(v ?? null)}
          data-testid="notice-read-filter"
        />
        <Button type="primary" onClick={search}>
          {notices.query}
        </Button>
        <Button onClick={process} loading={batch.isPending} data-testid="notice-batch">
          {notices.batchProcess}
        </Button>
        <ExportListButton download={() => noticeApi.exportList(query)} fallbackName={notices.title} testId="notice-export" />
      </Space>
      <ListTable<NoticeRead>
        tableId="notices"
        rowKey="sysno"
        size="small"
        columns={columns}
        dataSource={rows}
        loading={list.isFetching}
        scroll={{ y: '60vh' }}
        rowSelection={{
          selectedRowKeys: selected,
          // Only unread notices can be processed, so only they stay selected.
          onChange: (_keys, chosen) => setSelected(chosen.filter(isUnread).map((r) => r.sysno)),
        }}
        pagination={{
          current: query.pageIndex,
          pageSize: query.pageSize,
          total: list.data?.totalCount ?? 0,
          showSizeChanger: true,
          pageSizeOptions: PAGE_SIZES,
          showTotal: notices.total,
          onChange: (pageIndex, pageSize) => {
            setSelected([]);
            setQuery((q) => ({ ...q, pageIndex: pageSize === q.pageSize ? pageIndex : 1, pageSize }));
          },
        }}
      />
    </Modal>
  );
}
