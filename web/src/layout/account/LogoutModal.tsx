import { useState, type ReactNode } from 'react';
import { Modal, type FormInstance } from 'antd';
import { common } from '@/locales/zh-CN';
import { useMessage } from '@/components/Feedback';
import { useLogout } from './useLogout';

interface Props<V> {
  title: string;
  open: boolean;
  onClose: () => void;
  form: FormInstance<V>;
  /** Sends the validated values; when it succeeds the modal says `success`, closes and logs the user out. */
  save: (values: V) => Promise<unknown>;
  success: string;
  children: ReactNode;
}

/** A confirm/cancel modal around an account form whose change ends the session (password, transfer). */
export function LogoutModal<V>({ title, open, onClose, form, save, success, children }: Props<V>) {
  const message = useMessage();
  const logout = useLogout();
  const [saving, setSaving] = useState(false);

  async function submit() {
    const values = await form.validateFields();
    setSaving(true);
    try {
      await save(values);
      message.success(success);
      onClose();
      await logout(false);
    } finally {
      setSaving(false);
    }
  }

  return (
    <Modal
      title={title}
      open={open}
      onCancel={onClose}
      onOk={() => submit().catch(() => undefined)}
      confirmLoading={saving}
      okText={common.confirm}
      cancelText={common.cancel}
      destroyOnHidden
      forceRender
    >
      {children}
    </Modal>
  );
}
