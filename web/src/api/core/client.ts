import type { paths } from '@/api/schema';
import { envConfig } from '@/config/env';
import { common } from '@/locales/zh-CN';
import { clearSession, getToken } from './session';
import { navigate, notifier } from './notify';

export const REQUEST_TIMEOUT_MS = 20_000;
export const NETWORK_ERROR_SECONDS = 5;
export const STATUS_OK = 200;
export const STATUS_UNAUTHORIZED = 401;

export interface Envelope<T> {
  statusCode: number;
  message: string;
  data: T;
}

/** A call the server answered with a non-200 statusCode; its message was already shown. */
export class ApiError extends Error {
  readonly statusCode: number;
  constructor(statusCode: number, message: string) {
    super(message);
    this.name = 'ApiError';
    this.statusCode = statusCode;
  }
}

/** The call never got an answer (offline, refused, timed out); the message was already shown. */
export class NetworkError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NetworkError';
  }
}

type Method = 'get' | 'post' | 'put' | 'delete';

/** Paths of the OpenAPI document that accept the given method. */
export type PathFor<M extends Method> = {
  [P in keyof paths]: NonNullable<paths[P][M]> extends never ? never : P;
}[keyof paths];

type Operation<P extends keyof paths, M extends Method> = NonNullable<paths[P][M]>;

type JsonBody<R> = [R] extends [never]
  ? Record<string, never>
  : R extends { content: { 'application/json': infer B } }
    ? B
    : Record<string, never>;

/** JSON body of an operation, or an empty object where it takes none. */
export type BodyOf<P extends keyof paths, M extends Method> = JsonBody<NonNullable<Operation<P, M>['requestBody']>>;

/**
 * The envelope's `data` on success, typed by the OpenAPI document. Every operation's HTTP 200 answer
 * is its success envelope (`statusCode: 200`) or an error envelope (another `statusCode`, `data: null`,
 * which `send` turns into an ApiError); only the success envelope has the literal 200.
 */
export type DataOf<P extends keyof paths, M extends Method> =
  Operation<P, M> extends { responses: { 200: { content: { 'application/json': infer Answer } } } }
    ? Extract<Answer, { statusCode: typeof STATUS_OK }> extends { data: infer D }
      ? D
      : unknown
    : unknown;

/** Query-string parameters of an operation (GET/DELETE), named and typed by the OpenAPI document. */
export type QueryOf<P extends keyof paths, M extends Method> = NonNullable<Operation<P, M>['parameters']['query']>;

export interface RequestOptions<Q> {
  params?: Q;
}

function buildUrl(path: string, params: object = {}): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== null) query.set(key, String(value));
  }
  const qs = query.toString();
  return `${envConfig.apiBaseUrl}${path}${qs ? `?${qs}` : ''}`;
}

function onUnauthorized(): void {
  clearSession();
  notifier().error(common.sessionExpired);
  const here = window.location.pathname;
  if (here !== '/login') navigate('/login');
}

async function send<T>(method: Method, path: string, body: unknown, params?: object): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  const token = getToken();
  if (token) headers.SYSTOKEN = token;
  const init: RequestInit = { method: method.toUpperCase(), headers };
  if (method === 'post' || method === 'put') {
    headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body ?? {});
  }
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), REQUEST_TIMEOUT_MS);
  init.signal = controller.signal;

  let envelope: Envelope<T>;
  try {
    const response = await fetch(buildUrl(path, params), init);
    if (!response.ok) throw new Error(`${common.requestFailed} (HTTP ${response.status})`);
    envelope = await response.json();
  } catch (cause) {
    const timedOut = controller.signal.aborted;
    const text = timedOut ? common.timeout : cause instanceof Error && cause.message ? cause.message : common.networkError;
    notifier().error({ content: text, duration: NETWORK_ERROR_SECONDS });
    throw new NetworkError(text);
  } finally {
    clearTimeout(timer);
  }

  if (envelope.statusCode === STATUS_OK) return envelope.data;
  if (envelope.statusCode === STATUS_UNAUTHORIZED) {
    onUnauthorized();
    throw new ApiError(STATUS_UNAUTHORIZED, common.sessionExpired);
  }
  const text = envelope.message || common.requestFailed;
  notifier().error(text);
  throw new ApiError(envelope.statusCode, text);
}

/**
 * The one HTTP client of the app. Paths and bodies are checked against the OpenAPI document;
 * the resolved value is the envelope's `data`.
 */
export const http = {
  get<P extends PathFor<'get'>>(path: P, options: RequestOptions<QueryOf<P, 'get'>> = {}): Promise<DataOf<P, 'get'>> {
    return send('get', path, undefined, options.params);
  },
  delete<P extends PathFor<'delete'>>(
    path: P,
    options: RequestOptions<QueryOf<P, 'delete'>> = {},
  ): Promise<DataOf<P, 'delete'>> {
    return send('delete', path, undefined, options.params);
  },
  post<P extends PathFor<'post'>>(path: P, body: BodyOf<P, 'post'>): Promise<DataOf<P, 'post'>> {
    return send('post', path, body);
  },
  put<P extends PathFor<'put'>>(path: P, body: BodyOf<P, 'put'>): Promise<DataOf<P, 'put'>> {
    return send('put', path, body);
  },
};
