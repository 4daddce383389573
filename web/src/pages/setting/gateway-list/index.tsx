import { useState } from 'react';
import { useAppStore } from '@/store/app';
import { Button, Form, Input, Select } from 'antd';
import { ListTable } from '@/components/ListTable';
import { FilterActions } from '@/components/FilterActions';
import { FilterForm } from '@/components/FilterForm';
import { usePagedQuery } from '@/hooks/usePagedQuery';
import { PlusOutlined } from '@ant-design/icons';
import { gatewayApi, useDeleteGateway, useGatewayList, useResetGatewaySecret } from '@/api/gateways/queries';
import { ExportListButton } from '@/components/ExportListButton';
import type { GatewayQuery, GatewayRead, GatewaySecret } from '@/api/schema';
import { ProjectSelect } from '@/components/ProjectSelect';
import { gateways, logs, monitoring } from '@/locales/zh-CN';
import { gatewayColumns } from './columns';
import { GatewayModal } from './components/GatewayModal';
import { MoveModal } from './components/MoveModal';
import { RefusalModal } from './components/RefusalModal';
import { SecretModal } from './components/SecretModal';
import { useMessage } from '@/components/Feedback';

/** The online state and last-seen time change on their own; keep them current. */
const REFRESH_MS = 10_000;

type Filters = Pick<GatewayQuery, 'project_sysno' | 'online' | 'name' | 'sn'>;

/** 网关管理: register gateways (their secret shown once), see them online, edit, move, delete. */
export default function GatewayListPage() {
  const message = useMessage();
  const mobile = useAppStore((s) => s.device === 'mobile');
  const [form] = Form.useForm<Filters>();
  const paged = usePagedQuery<Filters>({ showTotal: logs.total });
  const [editing, setEditing] = useState<{ gateway: GatewayRead | null } | null>(null);
  const [moving, setMoving] = useState<GatewayRead | null>(null);
  const [secret, setSecret] = useState<GatewaySecret | null>(null);
  const [refusals, setRefusals] = useState<GatewayRead | null>(null);
  const query: GatewayQuery = { ...paged.filters, ...paged.page, ...paged.order };
  const list = useGatewayList(query, REFRESH_MS);
  const reset = useResetGatewaySecret();
  const remove = useDeleteGateway();

  const columns = gatewayColumns({
    mobile,
    onEdit: (gateway) => setEditing({ gateway }),
    onMove: setMoving,
    onRefusals: setRefusals,
    onResetSecret: (gateway) => reset.mutateAsync(gateway.sysno).then(setSecret).catch(() => undefined),
    onDelete: (gateway) =>
      remove
        .mutateAsync(gateway.sysno)
        .then(() => message.success(gateways.deleted))
        .catch(() => undefined),
  });

  function search(values: Filters) {
    paged.search({
      project_sysno: values.project_sysno ?? null,
      online: values.online ?? null,
      name: values.name?.trim() || null,
      sn: values.sn?.trim() || null,
    });
  }

  return (
    <>
      <FilterForm<Filters>
        form={form}
        onFinish={search}
        name="gateway-filters"
        actions={
          <>
            <Button type="primary" ghost icon={<PlusOutlined />} onClick={() => setEditing({ gateway: null })}>
              {gateways.add}
            </Button>
            <ExportListButton download={() => gatewayApi.exportList(query)} fallbackName={gateways.exportName} />
          </>
        }
      >
        <Form.Item name="project_sysno">
          <ProjectSelect placeholder={gateways.allProjects} width={170} />
        </Form.Item>
        <Form.Item name="online">
          <Select
            allowClear
            placeholder={gateways.online}
            style={{ width: 110 }}
            options={[
              { value: 1, label: monitoring.online },
              { value: 0, label: monitoring.offline },
            ]}
          />
        </Form.Item>
        <Form.Item name="name">
          <Input allowClear maxLength={64} placeholder={gateways.searchName} style={{ width: 150 }} />
        </Form.Item>
        <Form.Item name="sn">
          <Input allowClear maxLength={64} placeholder={gateways.searchSn} style={{ width: 150 }} />
        </Form.Item>
        <FilterActions item wrap onReset={() => search({})} />
      </FilterForm>
      <ListTable<GatewayRead>
        tableId="gateway-list"
        rowKey="sysno"
        columns={columns}
        dataSource={list.data?.dataSource ?? []}
        loading={list.isPending}
        onChange={paged.onTableChange}
        pagination={paged.pagination(list.data?.totalCount ?? 0)}
      />
      <GatewayModal
        open={editing !== null}
        gateway={editing?.gateway ?? null}
        onClose={() => setEditing(null)}
        onRegistered={setSecret}
      />
      <MoveModal gateway={moving} onClose={() => setMoving(null)} />
      <SecretModal secret={secret} onClose={() => setSecret(null)} />
      <RefusalModal gateway={refusals} onClose={() => setRefusals(null)} />
    </>
  );
}
