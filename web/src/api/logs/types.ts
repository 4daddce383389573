export type {
  OfflineLogQuery,
  OfflineLogRead,
  OperationLogQuery,
  OperationLogRead,
  StatusLogQuery,
  StatusLogRead,
} from '@/api/schema';
