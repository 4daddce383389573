import { message } from 'antd';
import type { MessageInstance } from 'antd/es/message/interface';

/**
 * The toast API the client uses. The app root swaps in the context-aware instance from
 * antd's <App>, so toasts pick up the brand theme; tests swap in a spy.
 */
/** The toasts the app raises outside React components: errors, successes, warnings. */
export type Notifier = Pick<MessageInstance, 'error' | 'success' | 'warning'>;

let current: Notifier = message;

export function setNotifier(instance: Notifier): void {
  current = instance;
}

export function notifier(): Notifier {
  return current;
}

type Navigate = (to: string) => void;

let navigateTo: Navigate = (to) => window.location.assign(to);

/** The router registers its navigate function so the client can send the user to /login. */
export function setNavigator(navigate: Navigate): void {
  navigateTo = navigate;
}

export function navigate(to: string): void {
  navigateTo(to);
}
