import { useState } from 'react';
import { Button, Form, Select } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { billingApi, useBillingOptions, useOrders } from '@/api/billing/queries';
import type { OrderQuery, OrderRead } from '@/api/schema';
import { ExportListButton } from '@/components/ExportListButton';
import { FilterActions } from '@/components/FilterActions';
import { FilterForm } from '@/components/FilterForm';
import { ListTable } from '@/components/ListTable';
import { usePagedQuery } from '@/hooks/usePagedQuery';
import { billing as t } from '@/locales/zh-CN';
import { optionList } from '../billing';
import { orderColumns } from '../columns';
import { OrderModal } from './OrderModal';
import { ReviewModal } from './ReviewModal';

interface Filters {
  business_type?: OrderQuery['business_type'];
  review_state?: OrderQuery['review_state'];
}

/** 业务办理: 补电, 换表, 过户 and 销户 orders, carried out once reviewed. */
export function OrdersTab() {
  const options = useBillingOptions();
  const paged = usePagedQuery<Filters>({ showTotal: t.total });
  const query: OrderQuery = {
    ...paged.page,
    ...paged.order,
    business_type: paged.filters.business_type ?? null,
    review_state: paged.filters.review_state ?? null,
  };
  const list = useOrders(query);
  const [adding, setAdding] = useState(false);
  const [reviewing, setReviewing] = useState<OrderRead | null>(null);
  return (
    <>
      <FilterForm<Filters>
        name="billing-orders"
        onFinish={(values) => paged.search(values)}
        actions={
          <>
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setAdding(true)} data-testid="order-add">
              {t.addOrder}
            </Button>
            <ExportListButton download={() => billingApi.exportOrders(query)} fallbackName={t.exportOrders} />
          </>
        }
      >
        <Form.Item name="business_type">
          <Select allowClear placeholder={t.allBusinessTypes} style={{ width: 140 }} options={optionList<number>(options.data?.business_type)} />
        </Form.Item>
        <Form.Item name="review_state">
          <Select allowClear placeholder={t.allReviewStates} style={{ width: 140 }} options={t.reviewStates} />
        </Form.Item>
        <Form.Item>
          <FilterActions onReset={() => paged.search({})} />
        </Form.Item>
      </FilterForm>
      <ListTable<OrderRead> tableId="billing-orders" rowKey="sysno" columns={orderColumns(setReviewing)} {...paged.tableProps(list)} data-testid="order-table" />
      <OrderModal open={adding} account={null} onClose={() => setAdding(false)} />
      <ReviewModal order={reviewing} onClose={() => setReviewing(null)} />
    </>
  );
}
