import type { TaskRow } from '@/api/schema';
import { timedTask } from '@/locales/zh-CN';

/** A task's plan in words: 每周一、周三 08:00、20:00, 每天 07:30, or 单次 2026-11-22 08:00. */
export function describeSchedule(task: Pick<TaskRow, 'repeat' | 'weekdays' | 'times' | 'run_at'>): string {
  if (task.repeat === 'once') return `${timedTask.once} ${task.run_at?.slice(0, 16) ?? ''}`;
  const days =
    task.weekdays.length === 7 ? timedTask.allDays : task.weekdays.map((d) => timedTask.weekdayNames[d - 1]).join('、');
  return timedTask.every(days, task.times.join('、'));
}
