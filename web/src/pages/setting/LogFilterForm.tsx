import type { ReactNode } from 'react';
import { DatePicker, Form, Input } from 'antd';
import { FilterForm } from '@/components/FilterForm';
import { FilterActions } from '@/components/FilterActions';
import { ProjectSelect } from '@/components/ProjectSelect';
import { logs } from '@/locales/zh-CN';
import { SERVER_TIME_FORMAT } from '@/utils/listQuery';
import type { LogFilters } from './logFilters';

interface Props {
  /** The form's name, which prefixes its fields' ids. */
  name: string;
  /** 查询 with the form's values (the log's own filters too); 重置 searches with none. */
  onSearch: (filters: LogFilters) => void;
  projectPlaceholder: string;
  projectWidth: number;
  keywordPlaceholder: string;
  keywordWidth: number;
  /** The log's own filters, between the project and the keyword. */
  children?: ReactNode;
  /** Buttons after 查询 / 重置 (the log's export). */
  actions?: ReactNode;
}

/** A log list's filter form: project, the log's own filters, keyword, time range, then 查询 / 重置. */
export function LogFilterForm({
  name,
  onSearch,
  projectPlaceholder,
  projectWidth,
  keywordPlaceholder,
  keywordWidth,
  children,
  actions,
}: Props) {
  return (
    <FilterForm<LogFilters> onFinish={onSearch} name={name} actions={actions}>
      <Form.Item name="project_sysno">
        <ProjectSelect placeholder={projectPlaceholder} width={projectWidth} />
      </Form.Item>
      {children}
      <Form.Item name="keyword">
        <Input allowClear maxLength={64} placeholder={keywordPlaceholder} style={{ width: keywordWidth }} />
      </Form.Item>
      <Form.Item name="range">
        <DatePicker.RangePicker showTime format={SERVER_TIME_FORMAT} placeholder={[logs.startTime, logs.endTime]} />
      </Form.Item>
      <FilterActions item wrap onReset={() => onSearch({})} />
    </FilterForm>
  );
}
