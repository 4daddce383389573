import type { AccuracyRow } from '@/api/schema';

/** A share (0–1) as a percentage with one decimal. */
export function percent(share: number): string {
  return `${(share * 100).toFixed(1)}%`;
}

/** Whether a measured input reaches both its targets (recall at least, false alarms at most). */
export function meetsTarget(row: Pick<AccuracyRow, 'recall' | 'false_alarms' | 'target_recall' | 'target_false_alarms'>): boolean {
  return row.recall >= row.target_recall && row.false_alarms <= row.target_false_alarms;
}
