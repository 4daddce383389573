import type { components } from '@/api/schema';

export interface OperationLogRow {
  sysno: number;
  operate_type: number;
  operate_type_name: string;
  detail: string;
  ip: string;
  is_success: number;
  create_time: string;
}

export interface OperationLogQuery {
  pageIndex: number;
  pageSize: number;
  operate_type: number | null;
  start_time: string | null;
  end_time: string | null;
  orderBy: string;
  sort: 'asc' | 'desc';
}

export interface Page<T> {
  dataSource: T[];
  totalCount: number;
}

export interface Option {
  value: number;
  label: string;
}

export type OfflineLogRead = components['schemas']['OfflineLogRead'];
export type OfflineLogQuery = components['schemas']['OfflineLogQuery'];
export type StatusLogRead = components['schemas']['StatusLogRead'];
export type StatusLogQuery = components['schemas']['StatusLogQuery'];
export type StatusTypeOption = components['schemas']['StatusTypeRead'];
