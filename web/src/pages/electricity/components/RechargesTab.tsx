import { DatePicker, Form } from 'antd';
import { billingApi, useLedger } from '@/api/billing/queries';
import type { LedgerQuery, LedgerRead } from '@/api/schema';
import { ExportListButton } from '@/components/ExportListButton';
import { FilterActions } from '@/components/FilterActions';
import { FilterForm } from '@/components/FilterForm';
import { ListTable } from '@/components/ListTable';
import { usePagedQuery } from '@/hooks/usePagedQuery';
import { billing as t } from '@/locales/zh-CN';
import { timeRange, type TimeRange } from '@/utils/listQuery';
import { ledgerColumns } from '../columns';

const RECHARGE = 1;

/** 充值记录: every recharge into the customer's accounts (the ledger's kind 1). */
export function RechargesTab() {
  const paged = usePagedQuery<{ range?: TimeRange }>({ showTotal: t.total });
  const query: LedgerQuery = { ...paged.page, ...paged.order, kind: RECHARGE, ...timeRange(paged.filters.range) };
  const list = useLedger(query);
  return (
    <>
      <FilterForm<{ range?: TimeRange }>
        name="billing-recharges"
        onFinish={(values) => paged.search(values)}
        actions={<ExportListButton download={() => billingApi.exportLedger(query)} fallbackName={t.exportLedger} />}
      >
        <Form.Item name="range" label={t.timeRange}>
          <DatePicker.RangePicker showTime style={{ maxWidth: 380 }} />
        </Form.Item>
        <Form.Item>
          <FilterActions onReset={() => paged.search({})} />
        </Form.Item>
      </FilterForm>
      <ListTable<LedgerRead> tableId="billing-recharges" rowKey="sysno" columns={ledgerColumns(true)} {...paged.tableProps(list)} data-testid="recharge-table" />
    </>
  );
}
