import { Form, Segmented, Select } from 'antd';
import type { TreeNode } from '@/api/schema';
import { reports } from '@/locales/zh-CN';
import { PeriodPicker } from '../../eng/components/PeriodPicker';
import type { ReportFilter, ReportGroup } from '../reportQuery';
import styles from '../report.module.css';

/** The filter bar's state, shared by every tab (the page holds it). */
export interface ReportFiltersProps {
  projects: TreeNode[] | undefined;
  loading: boolean;
  filter: ReportFilter;
  onFilter: (filter: ReportFilter) => void;
}

interface Props extends ReportFiltersProps {
  /** Whether a row's kind (device, building, project) is chosen here: the energy report's only. */
  groups?: boolean;
}

const GROUPS: ReportGroup[] = ['device', 'building', 'project'];

/** The project, maybe one of its buildings, what a row is (a device, a building, the project) and the period (every tab's). */
export function ReportFilters({ projects, loading, filter, onFilter, groups = false }: Props) {
  const set = (patch: Partial<ReportFilter>) => onFilter({ ...filter, ...patch });
  const buildings = projects?.find((p) => p.sysno === filter.project)?.list_child.filter((c) => c.type === 'building') ?? [];
  return (
    <Form layout="inline" className={styles.filters} data-testid="report-filters">
      <Form.Item label={reports.project}>
        <Select<number>
          value={filter.project ?? undefined}
          onChange={(project) => set({ project, building: null })}
          options={projects?.map((p) => ({ value: p.sysno, label: p.name }))}
          loading={loading}
          placeholder={reports.projectPlaceholder}
          notFoundContent={reports.noProjects}
          showSearch={{ optionFilterProp: 'label' }}
          className={styles.projectSelect}
          data-testid="report-project"
        />
      </Form.Item>
      <Form.Item label={reports.building}>
        <Select<number>
          value={filter.building ?? undefined}
          onChange={(building) => set({ building: building ?? null })}
          options={buildings.map((b) => ({ value: b.sysno, label: b.name }))}
          allowClear
          placeholder={reports.allBuildings}
          className={styles.buildingSelect}
          data-testid="report-building"
        />
      </Form.Item>
      {groups && (
        <Form.Item label={reports.group}>
          <Segmented<ReportGroup>
            value={filter.group}
            onChange={(group) => set({ group })}
            options={GROUPS.map((group) => ({ value: group, label: reports.groups[group] }))}
            data-testid="report-group"
          />
        </Form.Item>
      )}
      <Form.Item label={reports.period}>
        <div className={styles.period}>
          <PeriodPicker period={filter.period} onPeriod={(period) => set({ period })} />
        </div>
      </Form.Item>
    </Form>
  );
}
