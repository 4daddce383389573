import { createContext, useContext, useEffect, type ReactNode } from 'react';
import { message as staticMessage } from 'antd';
import type { MessageInstance } from 'antd/es/message/interface';
import { setNotifier } from '@/api/core';

const MessageContext = createContext<MessageInstance>(staticMessage);

/**
 * Themed toasts for the whole app. Only antd's message hook is used here (not <App>), so the
 * first page does not also load the modal and notification code.
 */
export function FeedbackProvider({ children }: { children: ReactNode }) {
  const [api, holder] = staticMessage.useMessage();
  useEffect(() => setNotifier(api), [api]);
  return (
    <MessageContext.Provider value={api}>
      {holder}
      {children}
    </MessageContext.Provider>
  );
}

export function useMessage(): MessageInstance {
  return useContext(MessageContext);
}
