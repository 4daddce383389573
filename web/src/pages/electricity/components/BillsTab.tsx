import { DatePicker, Form, Select } from 'antd';
import type { Dayjs } from 'dayjs';
import { billingApi, useBillingOptions, useBills } from '@/api/billing/queries';
import type { BillQuery, BillRead } from '@/api/schema';
import { ExportListButton } from '@/components/ExportListButton';
import { FilterActions } from '@/components/FilterActions';
import { FilterForm } from '@/components/FilterForm';
import { ListTable } from '@/components/ListTable';
import { usePagedQuery } from '@/hooks/usePagedQuery';
import { billing as t } from '@/locales/zh-CN';
import { optionList } from '../billing';
import { billColumns } from '../columns';

interface Filters {
  month?: Dayjs | null;
  status?: BillQuery['status'];
}

/** 账单: the monthly bills of the post-paid accounts, with their five periods. */
export function BillsTab() {
  const options = useBillingOptions();
  const paged = usePagedQuery<Filters>({ showTotal: t.total });
  const query: BillQuery = {
    ...paged.page,
    ...paged.order,
    month: paged.filters.month ? paged.filters.month.format('YYYY-MM') : null,
    status: paged.filters.status ?? null,
  };
  const list = useBills(query);
  return (
    <>
      <FilterForm<Filters>
        name="billing-bills"
        onFinish={(values) => paged.search(values)}
        actions={<ExportListButton download={() => billingApi.exportBills(query)} fallbackName={t.exportBills} />}
      >
        <Form.Item name="month">
          <DatePicker picker="month" placeholder={t.month} style={{ width: 140 }} />
        </Form.Item>
        <Form.Item name="status">
          <Select allowClear placeholder={t.allStatus} style={{ width: 130 }} options={optionList<number>(options.data?.bill_status)} />
        </Form.Item>
        <Form.Item>
          <FilterActions onReset={() => paged.search({})} />
        </Form.Item>
      </FilterForm>
      <ListTable<BillRead> tableId="billing-bills" rowKey="sysno" columns={billColumns(true)} {...paged.tableProps(list)} data-testid="bill-table" />
    </>
  );
}
