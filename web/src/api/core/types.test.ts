import type { AlarmRead, CommandRead } from '@/api/schema';
import { alarmApi } from '@/api/alarms/queries';
import type { OperationLogQuery, OperationLogRead } from '@/api/schema';
import { logKeys, operationLogApi } from '@/api/logs/queries';
import type { BodyOf, DataOf, QueryOf } from './client';
import type { Page } from './page';

// Checked by tsc (npm run lint); at run time these are no-ops.
describe('API types derived from the OpenAPI document', () => {
  it('types each call with the envelope data the document describes', () => {
    expectTypeOf(alarmApi.single).returns.resolves.toEqualTypeOf<AlarmRead>();
    expectTypeOf(operationLogApi.list).returns.resolves.toEqualTypeOf<Page<OperationLogRead>>();
    expectTypeOf<DataOf<'/api/CustomerOperationLog/GetCustomerOperationLogList', 'post'>>().toExtend<Page<OperationLogRead>>();
  });

  it('takes data from the success envelope, not from the error envelope every call may also answer', () => {
    expectTypeOf<DataOf<'/api/CustomerAlarm/GetSingleAlarm', 'get'>>().toEqualTypeOf<AlarmRead>();
    expectTypeOf<DataOf<'/api/CustomerControl/SendCommand', 'post'>>().toEqualTypeOf<CommandRead>();
    expectTypeOf<DataOf<'/api/CustomerCenter/LoginOut', 'post'>>().toEqualTypeOf<null>();
  });

  it('keeps what the server may leave empty nullable', () => {
    expectTypeOf<OperationLogRead['ip']>().toEqualTypeOf<string | null>();
  });

  it('types query parameters and bodies, and an empty body where an operation takes none', () => {
    expectTypeOf<QueryOf<'/api/CustomerAlarm/GetSingleAlarm', 'get'>>().toEqualTypeOf<{ sysno: number }>();
    expectTypeOf<BodyOf<'/api/CustomerSms/GetNotificationList', 'post'>>().toEqualTypeOf<Record<string, never>>();
  });

  it('keeps the literal parts of query keys', () => {
    expectTypeOf(logKeys.operationList).returns.toEqualTypeOf<readonly ['logs', 'operation-list', OperationLogQuery]>();
  });
});
