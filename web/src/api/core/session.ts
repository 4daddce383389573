/** Login state kept in session storage, as the spec asks: a token there means logged in. */
export const TOKEN_KEY = 'SYSTOKEN';
export const LOGIN_NAME_KEY = 'LOGIN_NAME';

export function getToken(): string | null {
  return sessionStorage.getItem(TOKEN_KEY);
}

export function setSession(token: string, loginName: string): void {
  sessionStorage.setItem(TOKEN_KEY, token);
  sessionStorage.setItem(LOGIN_NAME_KEY, loginName);
}

export function getLoginName(): string {
  return sessionStorage.getItem(LOGIN_NAME_KEY) ?? '';
}

export function clearSession(): void {
  sessionStorage.removeItem(TOKEN_KEY);
  sessionStorage.removeItem(LOGIN_NAME_KEY);
}

/** Password as the login call sends it: the same 13-digit millisecond stamp on both sides. */
export function encodeLoginPassword(plain: string, now: number = Date.now()): string {
  const stamp = String(now);
  return `${stamp}${plain}${stamp}`;
}
