import { useState } from 'react';
import { DatePicker, Form, Input, Modal, Select, Tabs } from 'antd';
import { ListTable } from '@/components/ListTable';
import { ExportListButton } from '@/components/ExportListButton';
import { FilterActions } from '@/components/FilterActions';
import { FilterForm } from '@/components/FilterForm';
import { ProjectSelect } from '@/components/ProjectSelect';
import { notifier } from '@/api/core/notify';
import { useCanControl } from '@/api/projects/queries';
import { loadApi, useLoadEvents, useUnlock } from '@/api/loadIdent/queries';
import type { LoadEventRead } from '@/api/schema';
import { usePagedQuery } from '@/hooks/usePagedQuery';
import { loadIdent } from '@/locales/zh-CN';
import { SERVER_TIME_FORMAT } from '@/utils/listQuery';
import { loadColumns } from './columns';
import { toQuery, type LoadFilters } from './filters';
import { EventDrawer } from './components/EventDrawer';
import { LoadStatisticsPanel } from './components/Statistics';
import { PolicyEditor } from './components/PolicyEditor';
import { AccuracyPanel } from './components/Accuracy';
import { RoomHistory } from './components/RoomHistory';

// The same vocabulary the server's classifier names (load_ident/model.py CATEGORIES).
const APPLIANCES = ['电水壶', '电热器/取暖器', '电磁炉', '电饭煲', '电吹风', '微波炉', '热水器', '电熨斗', '笔记本电脑', '台式电脑', '显示器', '电视', '照明', '冰箱', '空调', '洗衣机', '风扇', '其他'];
const REFRESH_MS = 10_000;

/** 负荷识别记录: identified events, filtered and exported; a room's history; an event's charts; unlocking a trip. */
function EventList() {
  const [form] = Form.useForm<LoadFilters>();
  const paged = usePagedQuery<LoadFilters>({ showTotal: loadIdent.total, orderBy: 'event_time' });
  const [detail, setDetail] = useState<number | null>(null);
  const [room, setRoom] = useState<LoadEventRead | null>(null);
  const unlock = useUnlock();
  const canControl = useCanControl();
  const query = toQuery(paged.filters, { ...paged.page, ...paged.order });
  const list = useLoadEvents(query, REFRESH_MS);

  function confirmUnlock(row: LoadEventRead) {
    Modal.confirm({
      title: `${loadIdent.unlock} · ${row.target_name}`,
      content: loadIdent.unlockConfirm,
      onOk: () => unlock.mutateAsync(row.sysno).then(() => notifier().success(loadIdent.unlocked)),
    });
  }

  return (
    <div data-testid="load-events">
      <FilterForm<LoadFilters>
        form={form}
        onFinish={paged.search}
        name="load-filters"
        actions={<ExportListButton download={() => loadApi.exportList(query)} fallbackName={loadIdent.exportName} />}
      >
        <Form.Item name="project_sysno" label={loadIdent.project}>
          <ProjectSelect placeholder={loadIdent.allProjects} width={160} showLoading />
        </Form.Item>
        <Form.Item name="appliance" label={loadIdent.appliance}>
          <Select allowClear placeholder={loadIdent.anyAppliance} style={{ width: 140 }} options={APPLIANCES.map((a) => ({ value: a, label: a }))} />
        </Form.Item>
        <Form.Item name="forbidden" label={loadIdent.forbidden}>
          <Select allowClear placeholder={loadIdent.any} style={{ width: 100 }} options={[...loadIdent.forbiddenOptions]} />
        </Form.Item>
        <Form.Item name="action" label={loadIdent.action}>
          <Select allowClear placeholder={loadIdent.any} style={{ width: 100 }} options={[...loadIdent.actionOptions]} />
        </Form.Item>
        <Form.Item name="range" label={loadIdent.time}>
          <DatePicker.RangePicker showTime format={SERVER_TIME_FORMAT} placeholder={[loadIdent.startTime, loadIdent.endTime]} />
        </Form.Item>
        <Form.Item name="keyword" label={loadIdent.keyword}>
          <Input allowClear placeholder={loadIdent.keywordPlaceholder} style={{ width: 180 }} maxLength={64} />
        </Form.Item>
        <FilterActions item wrap onReset={() => paged.search({})} />
      </FilterForm>
      <ListTable<LoadEventRead>
        tableId="load-identify"
        rowKey="sysno"
        size="middle"
        columns={loadColumns({ onDetail: (r) => setDetail(r.sysno), onHistory: setRoom, onUnlock: confirmUnlock, canControl })}
        dataSource={list.data?.dataSource ?? []}
        loading={list.isFetching && !list.data}
        onChange={paged.onTableChange}
        pagination={paged.pagination(list.data?.totalCount ?? 0)}
      />
      <EventDrawer sysno={detail} onClose={() => setDetail(null)} />
      <RoomHistory room={room} onClose={() => setRoom(null)} onDetail={setDetail} />
    </div>
  );
}

/** 负荷识别: identified appliances, violation statistics and the policies that judge them. */
export default function LoadIdentifyPage() {
  const [tab, setTab] = useState('events');
  return (
    <Tabs
      activeKey={tab}
      onChange={setTab}
      destroyOnHidden
      items={[
        { key: 'events', label: loadIdent.tabs.events, children: <EventList /> },
        { key: 'statistics', label: loadIdent.tabs.statistics, children: <LoadStatisticsPanel /> },
        { key: 'policy', label: loadIdent.tabs.policy, children: <PolicyEditor /> },
        { key: 'accuracy', label: loadIdent.tabs.accuracy, children: <AccuracyPanel /> },
      ]}
    />
  );
}
