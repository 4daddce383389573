import { DatePicker, Form, Input } from 'antd';
import { FilterActions } from '@/components/FilterActions';
import { logs } from '@/locales/zh-CN';
import { SERVER_TIME_FORMAT } from '@/utils/listQuery';

interface Props {
  keywordPlaceholder: string;
  keywordWidth: number;
  onReset: () => void;
}

/** The end of a log list's filter form: keyword, time range, then 查询 / 重置. */
export function LogFilterTail({ keywordPlaceholder, keywordWidth, onReset }: Props) {
  return (
    <>
      <Form.Item name="keyword">
        <Input allowClear placeholder={keywordPlaceholder} style={{ width: keywordWidth }} />
      </Form.Item>
      <Form.Item name="range">
        <DatePicker.RangePicker showTime format={SERVER_TIME_FORMAT} placeholder={[logs.startTime, logs.endTime]} />
      </Form.Item>
      <FilterActions onReset={onReset} />
    </>
  );
}
