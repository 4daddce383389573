import { useState, type MouseEvent } from 'react';
import { Button, Modal, Space, Tooltip, Typography } from 'antd';
import { PoweroffOutlined, ThunderboltOutlined } from '@ant-design/icons';
import { ApiError } from '@/api/core';
import { useSendCommand } from '@/api/control/queries';
import { useCanControl } from '@/api/projects/queries';
import { useMessage } from '@/components/Feedback';
import { control } from '@/locales/zh-CN';
import { formatTime } from '@/utils/format';

type SwitchAction = 'switch_on' | 'switch_off';

export interface SwitchTarget {
  sysno: number;
  name: string;
  /** Its project: a project shared 仅查看 leaves both actions disabled. */
  project_sysno?: number | null;
  online: number | null | undefined;
  gateway_online?: number | null;
  /** 1 closed (合闸), 0 open (分闸), null unknown: the action it is already in is disabled. */
  switch_state?: number | null;
}

interface Props {
  device: SwitchTarget;
  size?: 'small' | 'middle';
}

const LABEL: Record<SwitchAction, string> = { switch_on: control.switchOn, switch_off: control.switchOff };

/** The breaker state each action leads to, and why its button is off once the breaker is there. */
const RESULT_STATE: Record<SwitchAction, number> = { switch_on: 1, switch_off: 0 };
const ALREADY: Record<SwitchAction, string> = { switch_on: control.alreadyOn, switch_off: control.alreadyOff };

/** The outcome line under the buttons: what was asked, how it ended, when. */
export function resultText(action: SwitchAction, outcome: string): string {
  return control.result(LABEL[action], outcome, formatTime(Date.now(), 'HH:mm:ss'));
}

/**
 * 合闸 / 分闸 for one device: asks for confirmation, sends the command, waits for the gateway's
 * answer and shows it to the person who pressed. Clicks never reach the card or row underneath.
 */
export function SwitchButton({ device, size = 'small' }: Props) {
  const send = useSendCommand();
  const message = useMessage();
  const [asking, setAsking] = useState<SwitchAction | null>(null);
  const [last, setLast] = useState<{ text: string; ok: boolean } | null>(null);
  const canControl = useCanControl();
  const viewOnly = !canControl(device.project_sysno);
  const offline = device.online === 0 || device.online == null || device.gateway_online === 0;

  async function confirm() {
    if (!asking) return;
    const action = asking;
    try {
      const command = await send.mutateAsync({ sysno: device.sysno, action });
      void message.success(`${command?.action_name ?? LABEL[action]}成功`);
      setLast({ text: resultText(action, '成功'), ok: true });
    } catch (error) {
      // The client has already shown the server's message; keep it beside the buttons too.
      const reason = error instanceof ApiError ? error.message : '失败';
      setLast({ text: `${formatTime(Date.now(), 'HH:mm:ss')} ${reason}`, ok: false });
    } finally {
      setAsking(null);
    }
  }

  const stop = (event: MouseEvent) => event.stopPropagation();
  const button = (action: SwitchAction) => {
    const already = device.switch_state === RESULT_STATE[action];
    return (
      <Tooltip key={action} title={!viewOnly && !offline && already ? ALREADY[action] : undefined}>
        <Button
          size={size}
          danger={action === 'switch_off'}
          type={action === 'switch_on' ? 'primary' : 'default'}
          icon={action === 'switch_on' ? <ThunderboltOutlined /> : <PoweroffOutlined />}
          disabled={viewOnly || offline || already || send.isPending}
          loading={send.isPending && send.variables?.action === action}
          onClick={() => setAsking(action)}
          data-testid={`${action}-button`}
        >
          {LABEL[action]}
        </Button>
      </Tooltip>
    );
  };

  return (
    <span onClick={stop} data-testid="switch-button" data-view-only={viewOnly || undefined} style={{ display: 'inline-block' }}>
      <Tooltip title={viewOnly ? control.viewOnly : offline ? control.offline : undefined}>
        <Space size={6} wrap>
          {button('switch_on')}
          {button('switch_off')}
        </Space>
      </Tooltip>
      {last && (
        <Typography.Text
          type={last.ok ? 'success' : 'danger'}
          style={{ display: 'block', fontSize: 12, marginTop: 4 }}
          data-testid="switch-result"
        >
          {last.text}
        </Typography.Text>
      )}
      <Modal
        open={asking !== null}
        title={asking ? control.confirmTitle(LABEL[asking]) : ''}
        okText={control.ok}
        cancelText={control.cancel}
        okButtonProps={{ danger: asking === 'switch_off', id: 'switch-confirm' }}
        confirmLoading={send.isPending}
        onOk={() => void confirm()}
        onCancel={() => !send.isPending && setAsking(null)}
        destroyOnHidden
      >
        {asking && (
          <>
            <p>{control.confirmBody(LABEL[asking], device.name)}</p>
            {asking === 'switch_off' && <Typography.Text type="warning">{control.confirmOff}</Typography.Text>}
            {send.isPending && <p>{control.sending}</p>}
          </>
        )}
      </Modal>
    </span>
  );
}
