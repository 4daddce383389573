import { Alert, Button, Descriptions, Modal, Typography } from 'antd';
import type { GatewaySecret } from '@/api/schema';
import { gateways } from '@/locales/zh-CN';

interface Props {
  /** The secret just issued (registration or reset); null when closed. */
  secret: GatewaySecret | null;
  onClose: () => void;
}

const copyable = (text: string) => ({ text, tooltips: [gateways.copy, gateways.copied] as [string, string] });

/** Shows a gateway's secret the one time the server hands it out. */
export function SecretModal({ secret, onClose }: Props) {
  return (
    <Modal
      open={secret !== null}
      title={gateways.secretTitle}
      onCancel={onClose}
      maskClosable={false}
      keyboard={false}
      width={560}
      footer={
        <Button type="primary" onClick={onClose} data-testid="secret-saved">
          {gateways.secretSaved}
        </Button>
      }
    >
      {secret && (
        <>
          <Alert type="warning" showIcon message={gateways.secretWarning} style={{ marginBottom: 16 }} />
          <Descriptions column={1} bordered size="small">
            <Descriptions.Item label={gateways.sn}>{secret.sn}</Descriptions.Item>
            <Descriptions.Item label={gateways.mqttUsername}>
              <Typography.Text copyable={copyable(secret.mqtt_username)}>{secret.mqtt_username}</Typography.Text>
            </Descriptions.Item>
            <Descriptions.Item label={gateways.secret}>
              <Typography.Text code copyable={copyable(secret.secret)} data-testid="gateway-secret" style={{ wordBreak: 'break-all' }}>
                {secret.secret}
              </Typography.Text>
            </Descriptions.Item>
          </Descriptions>
        </>
      )}
    </Modal>
  );
}
