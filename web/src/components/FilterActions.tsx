import type { ReactNode } from 'react';
import { Button, Form, Space } from 'antd';
import { common } from '@/locales/zh-CN';

interface Props {
  /** Runs after the surrounding form's fields are reset (usually a search with no filters). */
  onReset: () => void;
  /** Wrap the buttons in a Form.Item (forms whose fields carry labels). */
  item?: boolean;
  wrap?: boolean;
  /** Further buttons after 查询 / 重置. */
  children?: ReactNode;
}

/** A filter form's 查询 (submit) and 重置 buttons; reset clears the surrounding form, then calls onReset. */
export function FilterActions({ onReset, item, wrap, children }: Props) {
  const form = Form.useFormInstance();
  const buttons = (
    <Space wrap={wrap}>
      <Button type="primary" htmlType="submit">
        {common.query}
      </Button>
      <Button
        onClick={() => {
          form.resetFields();
          onReset();
        }}
      >
        {common.reset}
      </Button>
      {children}
    </Space>
  );
  return item ? <Form.Item>{buttons}</Form.Item> : buttons;
}
