/**
 * Where the web app finds its API and images, per deployment environment.
 * The product served by `powerportal serve` uses the production entry: same origin, so the
 * API base is ''. A build can pick another entry with VITE_APP_ENV=<name>.
 */
export type EnvName =
  | 'localDev'
  | 'dev-release'
  | 'dev'
  | 'test'
  | 'prod'
  | 'onprem-campus'
  | 'onprem-industrial-park';

export interface EnvConfig {
  /** Prefix put before every `/api/...` path. '' means the page's own origin. */
  apiBaseUrl: string;
  /** Prefix for image paths the server hands out (logos, device pictures). */
  imageBaseUrl: string;
  /** Gateway type id of the building gateway kind (the one gateway kind the client singles out). */
  gatewayTypeId: number;
}

const BUILDING_GATEWAY_TYPE_ID = 2;

export const ENVIRONMENTS: Record<EnvName, EnvConfig> = {
  localDev: { apiBaseUrl: 'http://127.0.0.1:8000', imageBaseUrl: 'http://127.0.0.1:8000', gatewayTypeId: BUILDING_GATEWAY_TYPE_ID },
  'dev-release': { apiBaseUrl: 'https://dev-release.powerportal.local', imageBaseUrl: 'https://dev-release.powerportal.local', gatewayTypeId: BUILDING_GATEWAY_TYPE_ID },
  dev: { apiBaseUrl: 'https://dev.powerportal.local', imageBaseUrl: 'https://dev.powerportal.local', gatewayTypeId: BUILDING_GATEWAY_TYPE_ID },
  test: { apiBaseUrl: 'https://test.powerportal.local', imageBaseUrl: 'https://test.powerportal.local', gatewayTypeId: BUILDING_GATEWAY_TYPE_ID },
  prod: { apiBaseUrl: '', imageBaseUrl: '', gatewayTypeId: BUILDING_GATEWAY_TYPE_ID },
  // On-premise sites serve the web app from their own server, so they use the same origin too.
  'onprem-campus': { apiBaseUrl: '', imageBaseUrl: '', gatewayTypeId: BUILDING_GATEWAY_TYPE_ID },
  'onprem-industrial-park': { apiBaseUrl: '', imageBaseUrl: '', gatewayTypeId: BUILDING_GATEWAY_TYPE_ID },
};

export const DEFAULT_ENV: EnvName = 'prod';

function isEnvName(value: unknown): value is EnvName {
  return typeof value === 'string' && value in ENVIRONMENTS;
}

export function selectEnv(requested: unknown): EnvName {
  return isEnvName(requested) ? requested : DEFAULT_ENV;
}

export const CURRENT_ENV: EnvName = selectEnv(import.meta.env.VITE_APP_ENV);
export const envConfig: EnvConfig = ENVIRONMENTS[CURRENT_ENV];

/** Full URL of an image path the server returned (absolute URLs pass through). */
export function imageUrl(path: string | null | undefined): string {
  if (!path) return '';
  if (/^(https?:)?\/\//.test(path) || path.startsWith('data:')) return path;
  return `${envConfig.imageBaseUrl}${path}`;
}
