import { useState } from 'react';
import { Button } from 'antd';
import { useCountdown } from '@/hooks/useCountdown';
import { common } from '@/locales/zh-CN';
import { useMessage } from '@/components/Feedback';

interface Props {
  /** Answers a message when the code cannot be sent yet (e.g. the phone is missing), else null. */
  check?: () => string | null;
  send: () => Promise<unknown>;
  block?: boolean;
  testId?: string;
}

/** "Send code" button that locks for 60 seconds with a countdown after a successful send. */
export function SmsCodeButton({ check, send, block, testId }: Props) {
  const message = useMessage();
  const { remaining, running, start } = useCountdown();
  const [sending, setSending] = useState(false);

  async function onClick() {
    const problem = check?.() ?? null;
    if (problem) {
      message.warning(problem);
      return;
    }
    setSending(true);
    try {
      await send();
      message.success(common.smsSent);
      start();
    } catch {
      // The client already showed why the send failed; the button stays available.
    } finally {
      setSending(false);
    }
  }

  return (
    <Button onClick={onClick} disabled={running} loading={sending} block={block} data-testid={testId}>
      {running ? common.resendIn(remaining) : common.sendCode}
    </Button>
  );
}
