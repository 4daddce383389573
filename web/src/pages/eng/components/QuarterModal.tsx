import { useEffect, useMemo, useState } from 'react';
import { DatePicker, Empty, Modal, Space, Spin, Tag, Typography } from 'antd';
import { ListTable } from '@/components/ListTable';
import dayjs from 'dayjs';
import { useDeviceQuarters } from '@/api/energy/queries';
import type { DeviceEnergyRow, QuarterRead } from '@/api/schema';
import { EChart } from '@/components/charts/EChart';
import { periodColor, periodName, PERIODS } from '@/constants/periods';
import { useDialogWidth } from '@/hooks/useDialogWidth';
import { energy } from '@/locales/zh-CN';
import { useAppStore } from '@/store/app';
import { serverNow } from '@/utils/format';
import { flagTexts, formatNumber, quarterChartOption } from '../chartOption';
import styles from '../eng.module.css';

interface Props {
  device: DeviceEnergyRow | null;
  /** The day it opens on (YYYY-MM-DD). */
  day: string;
  onClose: () => void;
}

/** One device's 96 quarter-hours of a day (GetDeviceQuarters), coloured by tariff period. */
export function QuarterModal({ device, day, onClose }: Props) {
  const [date, setDate] = useState(day);
  const mobile = useAppStore((s) => s.device === 'mobile');
  const width = useDialogWidth(900);
  useEffect(() => setDate(day), [day, device]);
  const quarters = useDeviceQuarters(device?.device_sysno ?? null, date);
  const rows = quarters.data ?? [];
  const option = useMemo(() => quarterChartOption(rows, { compact: mobile }), [rows, mobile]);
  const kwh = rows.reduce((sum, q) => sum + q.kwh, 0);
  const cost = rows.reduce((sum, q) => sum + q.cost, 0);

  return (
    <Modal
      open={device !== null}
      title={device ? energy.quartersTitle(device.name) : ''}
      onCancel={onClose}
      footer={null}
      width={width}
      destroyOnHidden
    >
      <div data-testid="quarter-modal">
        <Space wrap style={{ marginBottom: 12 }}>
          <span>{energy.quartersDate}</span>
          <DatePicker
            value={dayjs(date)}
            allowClear={false}
            disabledDate={(d) => d.isAfter(serverNow(), 'day')}
            onChange={(d) => d && setDate(d.format('YYYY-MM-DD'))}
          />
          {rows.length > 0 && (
            <Typography.Text strong data-testid="quarter-total">
              {energy.quartersTotal(formatNumber(kwh), formatNumber(cost))}
            </Typography.Text>
          )}
        </Space>
        <div className={styles.shareLegend} style={{ marginBottom: 8 }}>
          {PERIODS.map((p) => (
            <span key={p}>
              <span className={styles.swatch} style={{ background: periodColor(p) }} />
              {periodName(p)}
            </span>
          ))}
          <span>▨ {energy.estimated}</span>
        </div>
        {quarters.isPending ? (
          <Spin style={{ display: 'block', padding: '80px 0' }} />
        ) : rows.length === 0 ? (
          <Empty description={energy.quartersEmpty} style={{ padding: '40px 0' }} />
        ) : (
          <>
            <EChart option={option} height={mobile ? 240 : 280} testId="quarter-chart" />
            <ListTable<QuarterRead>
              tableId="energy-quarters"
              size="small"
              rowKey="start"
              dataSource={rows.filter((q) => q.kwh > 0 || q.reset || q.implausible)}
              pagination={false}
              scroll={{ y: 220 }}
              columns={[
                { title: energy.quarterTime, dataIndex: 'start', width: 90, render: (v: string) => v.slice(11, 16) },
                {
                  title: energy.period,
                  dataIndex: 'period',
                  width: 80,
                  render: (p: number) => <Tag color={periodColor(p)}>{periodName(p)}</Tag>,
                },
                { title: energy.consumption, dataIndex: 'kwh', width: 110, align: 'right', render: (v: number) => formatNumber(v, 3) },
                { title: energy.cost, dataIndex: 'cost', width: 100, align: 'right', render: (v: number) => formatNumber(v, 3) },
                { title: energy.marks, key: 'marks', render: (_, q) => flagTexts(q).join('、') },
              ]}
            />
          </>
        )}
      </div>
    </Modal>
  );
}
