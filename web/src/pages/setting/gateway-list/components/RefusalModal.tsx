import { Alert, Modal } from 'antd';
import { ListTable, type ListColumn } from '@/components/ListTable';
import { useGatewayRefusals } from '@/api/gateways/queries';
import type { GatewayRead, GatewayRefusalRead } from '@/api/schema';
import { gateways } from '@/locales/zh-CN';
import { EMPTY } from '@/utils/format';

interface Props {
  /** The gateway whose log is shown; null when closed. */
  gateway: GatewayRead | null;
  onClose: () => void;
}

const columns: ListColumn<GatewayRefusalRead>[] = [
  { title: gateways.refusalReason, dataIndex: 'reason_name', key: 'reason', width: 180 },
  { title: gateways.refusalCount, dataIndex: 'count', key: 'count', width: 90, align: 'right' },
  { title: gateways.refusalLast, dataIndex: 'last_time', key: 'last_time', width: 170, render: (v: string | null) => v ?? EMPTY },
  { title: gateways.refusalDetail, dataIndex: 'last_detail', key: 'detail', ellipsis: true, render: (v: string | null) => v ?? EMPTY },
];

/** 接入日志: why the platform refused (or repaired) what a gateway sent, so an integrator can fix it. */
export function RefusalModal({ gateway, onClose }: Props) {
  const refusals = useGatewayRefusals(gateway?.sysno ?? null);
  return (
    <Modal open={gateway !== null} title={gateway ? gateways.refusalsTitle(gateway.name) : ''} onCancel={onClose} footer={null} width={760}>
      <Alert type="info" showIcon message={gateways.refusalsHint} style={{ marginBottom: 12 }} />
      <ListTable<GatewayRefusalRead>
        tableId="gateway-refusals"
        rowKey="reason"
        size="small"
        columns={columns}
        dataSource={refusals.data ?? []}
        loading={refusals.isLoading}
        pagination={false}
        locale={{ emptyText: gateways.refusalsEmpty }}
        data-testid="gateway-refusals"
      />
    </Modal>
  );
}
