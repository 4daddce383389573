import type { TransformSmsBody } from '@/api/schema';

/** Which phone a transfer code goes to. */
export type TransferSmsTarget = TransformSmsBody['type'];
export const TRANSFER_SMS_CURRENT: TransferSmsTarget = 1;
export const TRANSFER_SMS_TARGET: TransferSmsTarget = 2;
