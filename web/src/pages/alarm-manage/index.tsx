import { useEffect, useState } from 'react';
import { Alert, Button, DatePicker, Descriptions, Form, Input, Select, Tag, Tooltip } from 'antd';
import { ListTable } from '@/components/ListTable';
import { ExportListButton } from '@/components/ExportListButton';
import { FilterActions } from '@/components/FilterActions';
import { FilterForm } from '@/components/FilterForm';
import { usePagedQuery } from '@/hooks/usePagedQuery';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useLocation, useSearchParams } from 'react-router';
import { alarmApi, alarmKeys, useAlarmList, useAlarmTypes } from '@/api/alarms/queries';
import type { AlarmRead } from '@/api/schema';
import { notifier } from '@/api/core/notify';
import { useCanControl } from '@/api/projects/queries';
import { ProjectSelect } from '@/components/ProjectSelect';
import { alarms, control } from '@/locales/zh-CN';
import { alarmColumns, LEVEL_COLORS } from './columns';
import { SERVER_TIME_FORMAT } from '@/utils/listQuery';
import { processable, toQuery, type AlarmFilters } from './filters';
import { ProcessModal } from './ProcessModal';

/** 设备告警: alarms of the visible projects, filtered, processed one by one or in batches. */
export default function AlarmManagePage() {
  const [form] = Form.useForm<AlarmFilters>();
  const paged = usePagedQuery<AlarmFilters>({ showTotal: alarms.total });
  const [selected, setSelected] = useState<number[]>([]);
  const [processing, setProcessing] = useState<number[]>([]);
  const [params] = useSearchParams();
  const location = useLocation();
  const client = useQueryClient();
  const focus = Number(params.get('sysno')) || null;
  const types = useAlarmTypes();
  const canControl = useCanControl();
  const query = toQuery(paged.filters, paged.page);
  const list = useAlarmList(query);
  const rows = list.data?.dataSource ?? [];
  const focused = useQuery({
    queryKey: alarmKeys.single(focus ?? 0),
    queryFn: () => alarmApi.single(focus ?? 0),
    enabled: focus !== null,
  });

  // A jump from the message dialog (even to the alarm already shown) reloads that alarm and the list.
  useEffect(() => {
    if (focus === null) return;
    void client.invalidateQueries({ queryKey: alarmKeys.all });
  }, [focus, location.key, client]);

  function search(values: AlarmFilters) {
    paged.search(values);
    setSelected([]);
  }

  function batchProcess() {
    const ids = processable(
      rows.filter((r) => canControl(r.project_sysno)),
      selected,
    );
    if (ids.length === 0) {
      notifier().warning(alarms.nothingSelected);
      return;
    }
    setProcessing(ids);
  }

  const spotlight: AlarmRead | undefined = focused.data;

  return (
    <div data-testid="alarm-manage">
      {spotlight && (
        <Alert
          type={spotlight.state === 0 ? 'error' : 'info'}
          showIcon
          style={{ marginBottom: 16 }}
          data-testid="alarm-focus"
          data-sysno={spotlight.sysno}
          message={alarms.highlighted}
          description={
            <Descriptions size="small" column={{ xs: 1, sm: 2, lg: 4 }}>
              <Descriptions.Item label={alarms.target}>{`${spotlight.project_name} / ${spotlight.target_name}`}</Descriptions.Item>
              <Descriptions.Item label={alarms.type}>
                <Tag color={LEVEL_COLORS[spotlight.level]}>{spotlight.alarm_type_name}</Tag>
              </Descriptions.Item>
              <Descriptions.Item label={alarms.time}>{spotlight.start_time}</Descriptions.Item>
              <Descriptions.Item label={alarms.state}>{spotlight.state_name}</Descriptions.Item>
              <Descriptions.Item label={alarms.detail} span={3}>
                {spotlight.detail}
              </Descriptions.Item>
              <Descriptions.Item label={alarms.processState}>
                {spotlight.process_state === 1 ? (
                  alarms.processOptions[1].label
                ) : (
                  <Tooltip title={canControl(spotlight.project_sysno) ? undefined : control.viewOnly}>
                    <span>
                      <Button
                        size="small"
                        type="primary"
                        disabled={!canControl(spotlight.project_sysno)}
                        onClick={() => setProcessing([spotlight.sysno])}
                        data-testid="focus-process"
                      >
                        {alarms.process}
                      </Button>
                    </span>
                  </Tooltip>
                )}
              </Descriptions.Item>
            </Descriptions>
          }
        />
      )}
      <FilterForm<AlarmFilters>
        form={form}
        onFinish={search}
        name="alarm-filters"
        actions={
          <>
            <Button onClick={batchProcess} data-testid="alarm-batch">
              {alarms.batchProcess}
            </Button>
            <ExportListButton download={() => alarmApi.exportList(query)} fallbackName={alarms.exportName} />
          </>
        }
      >
        <Form.Item name="project_sysno" label={alarms.project}>
          <ProjectSelect placeholder={alarms.allProjects} width={160} showLoading />
        </Form.Item>
        <Form.Item name="alarm_type" label={alarms.type}>
          <Select
            allowClear
            placeholder={alarms.typePlaceholder}
            style={{ width: 130 }}
            options={(types.data ?? []).map((t) => ({ value: t.value, label: t.label }))}
          />
        </Form.Item>
        <Form.Item name="state" label={alarms.state}>
          <Select allowClear placeholder={alarms.any} style={{ width: 110 }} options={[...alarms.stateOptions]} />
        </Form.Item>
        <Form.Item name="process_state" label={alarms.processState}>
          <Select allowClear placeholder={alarms.any} style={{ width: 110 }} options={[...alarms.processOptions]} />
        </Form.Item>
        <Form.Item name="range" label={alarms.time}>
          <DatePicker.RangePicker showTime format={SERVER_TIME_FORMAT} placeholder={[alarms.startTime, alarms.endTime]} />
        </Form.Item>
        <Form.Item name="keyword" label={alarms.keyword}>
          <Input allowClear placeholder={alarms.keywordPlaceholder} style={{ width: 200 }} maxLength={64} />
        </Form.Item>
        <FilterActions item wrap onReset={() => search({})} />
      </FilterForm>
      <ListTable<AlarmRead>
        tableId="alarm-manage"
        rowKey="sysno"
        size="middle"
        columns={alarmColumns((row) => setProcessing([row.sysno]), canControl)}
        dataSource={rows}
        loading={list.isFetching}
        rowClassName={(row) => (row.sysno === focus ? 'ant-table-row-selected' : '')}
        rowSelection={{
          selectedRowKeys: selected,
          getCheckboxProps: (row) => ({ disabled: row.process_state === 1 || !canControl(row.project_sysno) }),
          onChange: (keys) => setSelected(keys.map(Number)),
        }}
        pagination={paged.pagination(list.data?.totalCount ?? 0)}
      />
      <ProcessModal
        sysnos={processing}
        onClose={(done) => {
          setProcessing([]);
          if (done) setSelected([]);
        }}
      />
    </div>
  );
}
