export { http, ApiError, NetworkError, REQUEST_TIMEOUT_MS, NETWORK_ERROR_SECONDS, dispositionFilename } from './client';
export type { DownloadedFile } from './client';
export type { Page } from './page';
export { useRefreshingMutation } from './mutation';
export { queryKey } from './queryKey';
export { getToken, setSession, clearSession, getLoginName, encodeLoginPassword } from './session';
export { setNotifier, setNavigator } from './notify';
