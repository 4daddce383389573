import { useEffect, useRef } from 'react';
import { notification } from 'antd';
import { notifier } from '@/api/core/notify';
import { useNoticePollQuery } from '@/api/alarms/queries';
import type { NoticePoll } from '@/api/schema';
import { NOTICE_TYPE_ALARM } from '@/api/alarms/types';
import { notices } from '@/locales/zh-CN';
import { playAlarmSound } from '@/utils/alarmSound';

/** How long a pushed notice other than an alarm stays as a toast (spec: 15 s). */
export const PUSHED_TOAST_SECONDS = 15;
const ALARM_KEY = 'pushed-alarm';

export interface PushHandlers {
  alarm: (poll: NoticePoll) => void;
  other: (poll: NoticePoll) => void;
}

/** What to do with one poll answer: alarms get the sound and the warning, others a toast. */
export function handlePush(poll: NoticePoll | undefined, handlers: PushHandlers): void {
  if (!poll || poll.is_push !== 1) return;
  if (poll.notice_type === NOTICE_TYPE_ALARM) handlers.alarm(poll);
  else handlers.other(poll);
}

/**
 * The 30-second notice poll of the logged-in shell: feeds the bell badge, plays the alarm sound
 * and shows the persistent bottom-left warning (its click opens the dialog) for a pushed alarm,
 * and a 15-second warning toast for any other pushed notice.
 */
export function useNoticePoll(openDialog: () => void) {
  const poll = useNoticePollQuery();
  const [api, holder] = notification.useNotification();
  const handled = useRef(0);
  const open = useRef(openDialog);
  open.current = openDialog;

  useEffect(() => {
    if (!poll.dataUpdatedAt || handled.current === poll.dataUpdatedAt) return;
    handled.current = poll.dataUpdatedAt;
    handlePush(poll.data, {
      alarm: (data) => {
        playAlarmSound();
        api.warning({
          key: ALARM_KEY,
          title: notices.warningTitle,
          description: data.notice_detail,
          placement: 'bottomLeft',
          duration: false,
          props: { 'data-testid': 'alarm-warning' } as React.HTMLAttributes<HTMLDivElement>,
          style: { cursor: 'pointer' },
          onClick: () => {
            api.destroy(ALARM_KEY);
            open.current();
          },
        });
      },
      other: (data) => {
        notifier().warning({ content: data.notice_detail, duration: PUSHED_TOAST_SECONDS });
      },
    });
  }, [poll.dataUpdatedAt, poll.data, api]);

  return {
    unreadCount: poll.data?.unread_count ?? 0,
    holder,
    refresh: () => void poll.refetch(),
  };
}
