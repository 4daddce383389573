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

/**
 * One call: the token, the JSON body, the time limit. `read` takes the answer's body within the
 * time limit; a call that gets no answer is shown and rejected as a NetworkError.
 */
async function exchange<R>(
  method: Method,
  path: string,
  body: unknown,
  params: object | undefined,
  read: (response: Response) => Promise<R>,
  { accept = 'application/json', timeoutMs = REQUEST_TIMEOUT_MS } = {},
): Promise<R> {
  const headers: Record<string, string> = { Accept: accept };
  const token = getToken();
  if (token) headers.SYSTOKEN = token;
  const init: RequestInit = { method: method.toUpperCase(), headers };
  if (method === 'post' || method === 'put') {
    headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body ?? {});
  }
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  init.signal = controller.signal;
  try {
    const response = await fetch(buildUrl(path, params), init);
    if (!response.ok) throw new Error(`${common.requestFailed} (HTTP ${response.status})`);
    return await read(response);
  } catch (cause) {
    const timedOut = controller.signal.aborted;
    const text = timedOut ? common.timeout : cause instanceof Error && cause.message ? cause.message : common.networkError;
    notifier().error({ content: text, duration: NETWORK_ERROR_SECONDS });
    throw new NetworkError(text);
  } finally {
    clearTimeout(timer);
  }
}

/** The envelope's data; any other statusCode is shown (401 also ends the session) and rejected as an ApiError. */
function unwrap<T>(envelope: Envelope<T>): T {
  if (envelope.statusCode === STATUS_OK) return envelope.data;
  if (envelope.statusCode === STATUS_UNAUTHORIZED) {
    onUnauthorized();
    throw new ApiError(STATUS_UNAUTHORIZED, common.sessionExpired);
  }
  const text = envelope.message || common.requestFailed;
  notifier().error(text);
  throw new ApiError(envelope.statusCode, text);
}

async function send<T>(method: Method, path: string, body: unknown, params?: object): Promise<T> {
  return unwrap(await exchange(method, path, body, params, (response): Promise<Envelope<T>> => response.json()));
}

/** A file the server sent, and the name it gave it (null when it gave none). */
export interface DownloadedFile {
  blob: Blob;
  filename: string | null;
}

/** Files are built while the user waits: a year of detail takes longer than a list. */
export const DOWNLOAD_TIMEOUT_MS = 120_000;

/** The name in a `Content-Disposition` header: the UTF-8 `filename*`, else the plain `filename`. */
export function dispositionFilename(header: string | null): string | null {
  if (!header) return null;
  const encoded = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(header);
  if (encoded) {
    try {
      return decodeURIComponent(encoded[1].trim());
    } catch {
      // A malformed escape: fall back to the plain name.
    }
  }
  const plain = /filename\s*=\s*"?([^";]+)"?/i.exec(header);
  return plain ? plain[1].trim() : null;
}

/** A file answer, or the JSON envelope an export answers with when it refuses (shown and rejected as an ApiError). */
async function download(path: string, body: unknown): Promise<DownloadedFile> {
  const answer = await exchange(
    'post',
    path,
    body,
    undefined,
    async (response): Promise<DownloadedFile | Envelope<unknown>> =>
      response.headers.get('Content-Type')?.includes('application/json')
        ? response.json()
        : { blob: await response.blob(), filename: dispositionFilename(response.headers.get('Content-Disposition')) },
    { accept: '*/*', timeoutMs: DOWNLOAD_TIMEOUT_MS },
  );
  if ('blob' in answer) return answer;
  unwrap(answer);
  // A success envelope where a file was due.
  notifier().error(common.requestFailed);
  throw new ApiError(STATUS_OK, common.requestFailed);
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
  /** POSTs a JSON body to a route that answers with a file (an export). */
  download<P extends PathFor<'post'>>(path: P, body: BodyOf<P, 'post'>): Promise<DownloadedFile> {
    return download(path, body);
  },
};
