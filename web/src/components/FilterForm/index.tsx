import { useState, type ReactNode } from 'react';
import { Button, Drawer, Form, Space, type FormProps } from 'antd';
import { FilterOutlined } from '@ant-design/icons';
import { listTable } from '@/locales/zh-CN';
import { useAppStore } from '@/store/app';
import styles from './filter.module.css';

interface Props<V> extends Omit<FormProps<V>, 'layout' | 'children'> {
  /** The filter fields and the 查询 / 重置 buttons (FilterActions). */
  children: ReactNode;
  /** Buttons that are no filters (新增, 批量处理, 导出): after the filters, and beside 筛选 on a phone. */
  actions?: ReactNode;
}

/**
 * A list's filter form: one inline row (wrapping) on a desktop; under the mobile breakpoint a
 * 筛选 button that opens the same fields in a drawer, closed again by 查询.
 */
export function FilterForm<V>({ children, actions, onFinish, style, ...form }: Props<V>) {
  const mobile = useAppStore((s) => s.device === 'mobile');
  const [open, setOpen] = useState(false);
  if (!mobile) {
    return (
      <Form<V> layout="inline" onFinish={onFinish} style={{ marginBottom: 16, rowGap: 8, ...style }} {...form}>
        {children}
        {actions && (
          <Form.Item>
            <Space wrap>{actions}</Space>
          </Form.Item>
        )}
      </Form>
    );
  }
  return (
    <>
      <Space wrap className={styles.bar}>
        <Button icon={<FilterOutlined />} onClick={() => setOpen(true)} data-testid="filter-open">
          {listTable.filters}
        </Button>
        {actions}
      </Space>
      <Drawer
        open={open}
        onClose={() => setOpen(false)}
        title={listTable.filterTitle}
        placement="right"
        size="100%"
        forceRender
        rootClassName={styles.drawer}
      >
        <Form<V>
          layout="vertical"
          onFinish={(values) => {
            setOpen(false);
            onFinish?.(values);
          }}
          {...form}
        >
          {children}
        </Form>
      </Drawer>
    </>
  );
}
