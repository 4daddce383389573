import { Result } from 'antd';
import { ToolOutlined } from '@ant-design/icons';
import { common } from '@/locales/zh-CN';

/** Honest empty state for screens whose features arrive in a later release. */
export default function ComingSoon({ title }: { title?: string }) {
  return (
    <Result
      icon={<ToolOutlined />}
      title={title ? `${title}：${common.notOpenTitle}` : common.notOpenTitle}
      subTitle={common.notOpenDetail}
      data-testid="coming-soon"
    />
  );
}
