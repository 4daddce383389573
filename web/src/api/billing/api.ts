import { http, type Page } from '@/api/core';
import type {
  AccountCreate,
  AccountQuery,
  AccountRead,
  AccountUpdate,
  AdjustCreate,
  BillQuery,
  BillRead,
  LedgerQuery,
  LedgerRead,
  OrderCreate,
  OrderQuery,
  OrderRead,
  OrderReview,
  PowerCommand,
  PowerportalBillingSchemasRechargeCreate as RechargeCreate,
  RuleWrite,
} from '@/api/schema';

const B = '/api/CustomerElectricity';

/** The electricity billing calls (电费管理); the brand needs the eletricList flag. */
export const billingApi = {
  options: () => http.get(`${B}/GetBillingOptions`),
  accounts: (query: AccountQuery): Promise<Page<AccountRead>> => http.post(`${B}/GetAccountList`, query),
  exportAccounts: (query: AccountQuery) => http.download(`${B}/ExportAccountList`, query),
  detail: (sysno: number) => http.get(`${B}/GetAccountDetail`, { params: { sysno } }),
  addAccount: (body: AccountCreate) => http.post(`${B}/AddAccount`, body),
  updateAccount: (body: AccountUpdate) => http.post(`${B}/UpdateAccount`, body),
  recharge: (body: RechargeCreate) => http.post(`${B}/Recharge`, body),
  adjust: (body: AdjustCreate) => http.post(`${B}/AdjustBalance`, body),
  switchAccounts: (body: PowerCommand) => http.post(`${B}/SwitchAccounts`, body),
  ledger: (query: LedgerQuery): Promise<Page<LedgerRead>> => http.post(`${B}/GetLedgerList`, query),
  exportLedger: (query: LedgerQuery) => http.download(`${B}/ExportLedgerList`, query),
  bills: (query: BillQuery): Promise<Page<BillRead>> => http.post(`${B}/GetBillList`, query),
  exportBills: (query: BillQuery) => http.download(`${B}/ExportBillList`, query),
  orders: (query: OrderQuery): Promise<Page<OrderRead>> => http.post(`${B}/GetOrderList`, query),
  exportOrders: (query: OrderQuery) => http.download(`${B}/ExportOrderList`, query),
  addOrder: (body: OrderCreate) => http.post(`${B}/AddOrder`, body),
  reviewOrder: (body: OrderReview) => http.post(`${B}/ReviewOrder`, body),
  rule: () => http.get(`${B}/GetCutoffRule`),
  saveRule: (body: RuleWrite) => http.post(`${B}/SaveCutoffRule`, body),
};
