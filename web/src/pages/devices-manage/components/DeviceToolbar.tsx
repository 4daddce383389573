import { Input, Segmented, Select, Typography } from 'antd';
import { AppstoreOutlined, UnorderedListOutlined } from '@ant-design/icons';
import { monitoring } from '@/locales/zh-CN';
import styles from '../devices.module.css';

export type ViewMode = 'cards' | 'table';

export interface DeviceFilters {
  keyword: string;
  online: 0 | 1 | null;
  switch_state: 0 | 1 | null;
}

interface Props {
  filters: DeviceFilters;
  onChange: (filters: DeviceFilters) => void;
  view: ViewMode;
  onViewChange: (view: ViewMode) => void;
  refreshedAt: string | null;
  refreshSeconds: number;
}

const ONLINE_OPTIONS = [
  { value: 1, label: monitoring.online },
  { value: 0, label: monitoring.offline },
];
const SWITCH_OPTIONS = [
  { value: 1, label: monitoring.switchOn },
  { value: 0, label: monitoring.switchOff },
];

/** Search, online and switch filters, the cards/table toggle and when the values were last refreshed. */
export function DeviceToolbar({ filters, onChange, view, onViewChange, refreshedAt, refreshSeconds }: Props) {
  return (
    <div className={styles.toolbar}>
      <Input.Search
        maxLength={64}
        allowClear
        placeholder={monitoring.search}
        style={{ width: 300, maxWidth: '100%' }}
        onSearch={(keyword) => onChange({ ...filters, keyword: keyword.trim() })}
        data-testid="device-search"
      />
      <Select<0 | 1>
        allowClear
        placeholder={monitoring.onlineFilter}
        style={{ width: 120 }}
        value={filters.online ?? undefined}
        options={ONLINE_OPTIONS}
        onChange={(online) => onChange({ ...filters, online: online ?? null })}
        aria-label={monitoring.onlineFilter}
        data-testid="filter-online"
      />
      <Select<0 | 1>
        allowClear
        placeholder={monitoring.switchFilter}
        style={{ width: 120 }}
        value={filters.switch_state ?? undefined}
        options={SWITCH_OPTIONS}
        onChange={(state) => onChange({ ...filters, switch_state: state ?? null })}
        aria-label={monitoring.switchFilter}
      />
      <span className={styles.toolbarSpacer} />
      <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="refreshed-at">
        {refreshedAt ? monitoring.refreshedAt(refreshedAt) : ''} · {monitoring.autoRefresh(refreshSeconds)}
      </Typography.Text>
      <Segmented<ViewMode>
        value={view}
        onChange={onViewChange}
        options={[
          { value: 'cards', label: monitoring.cards, icon: <AppstoreOutlined /> },
          { value: 'table', label: monitoring.table, icon: <UnorderedListOutlined /> },
        ]}
      />
    </div>
  );
}
