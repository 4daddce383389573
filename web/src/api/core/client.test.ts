import { http, ApiError, dispositionFilename, NetworkError, REQUEST_TIMEOUT_MS } from './client';
import { setNavigator, setNotifier } from './notify';
import { encodeLoginPassword, getLoginName, getToken, setSession } from './session';

function envelope(statusCode: number, message: string, data: unknown = null) {
  return new Response(JSON.stringify({ statusCode, message, data }), { status: 200, headers: { 'Content-Type': 'application/json' } });
}

const toast = { error: vi.fn(), success: vi.fn(), warning: vi.fn() };
const navigate = vi.fn();

beforeEach(() => {
  sessionStorage.clear();
  toast.error.mockReset();
  navigate.mockReset();
  setNotifier(toast);
  setNavigator(navigate);
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('http client', () => {
  it('sends the SYSTOKEN header only when a token exists', async () => {
    const fetchStub = vi.fn(async (_url: string, _init: RequestInit) => envelope(200, 'ok', { status: 'ok' }));
    vi.stubGlobal('fetch', fetchStub);
    await http.get('/api/health');
    expect(fetchStub.mock.calls[0][1].headers).not.toHaveProperty('SYSTOKEN');
    setSession('tok-1', '演示用户');
    await http.get('/api/health');
    expect(fetchStub.mock.calls[1][1].headers).toMatchObject({ SYSTOKEN: 'tok-1' });
  });

  it('resolves with data on statusCode 200', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => envelope(200, 'ok', { status: 'ok' })));
    await expect(http.get('/api/health')).resolves.toEqual({ status: 'ok' });
    expect(toast.error).not.toHaveBeenCalled();
  });

  it('posts JSON bodies', async () => {
    const fetchStub = vi.fn(async (_url: string, _init: RequestInit) => envelope(200, 'ok', null));
    vi.stubGlobal('fetch', fetchStub);
    await http.post('/api/CustomerCenter/SendLoginSms', { mobile: '13800000000' });
    const [url, init] = fetchStub.mock.calls[0];
    expect(url).toBe('/api/CustomerCenter/SendLoginSms');
    expect(init.method).toBe('POST');
    expect(JSON.parse(String(init.body))).toEqual({ mobile: '13800000000' });
  });

  it('rejects a non-200 statusCode and shows its message', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => envelope(400, '账号或密码错误')));
    const call = http.post('/api/CustomerCenter/LoginByPass', { mobile: '1', password: 'x' });
    await expect(call).rejects.toBeInstanceOf(ApiError);
    await expect(call).rejects.toMatchObject({ statusCode: 400, message: '账号或密码错误' });
    expect(toast.error).toHaveBeenCalledWith('账号或密码错误');
  });

  it('on body status 401 clears token and login name, shows the spec message and goes to /login', async () => {
    setSession('tok-1', '演示用户');
    vi.stubGlobal('fetch', vi.fn(async () => envelope(401, '未登录')));
    await expect(http.post('/api/CustomerCenter/MyInfo', {})).rejects.toMatchObject({ statusCode: 401 });
    expect(getToken()).toBeNull();
    expect(getLoginName()).toBe('');
    expect(toast.error).toHaveBeenCalledWith('您的登录已经失效,请重新登录...');
    expect(navigate).toHaveBeenCalledWith('/login');
  });

  it('shows network failures for 5 seconds and rejects', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))));
    await expect(http.get('/api/health')).rejects.toBeInstanceOf(NetworkError);
    expect(toast.error).toHaveBeenCalledWith({ content: 'Failed to fetch', duration: 5 });
  });

  it('gives up after 20 seconds', async () => {
    vi.useFakeTimers();
    vi.stubGlobal(
      'fetch',
      vi.fn(
        (_url: string, init: RequestInit) =>
          new Promise((_, reject) => init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')))),
      ),
    );
    const call = http.get('/api/health');
    const outcome = expect(call).rejects.toBeInstanceOf(NetworkError);
    await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS - 1);
    expect(toast.error).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    await outcome;
    expect(REQUEST_TIMEOUT_MS).toBe(20_000);
    expect(toast.error).toHaveBeenCalledWith({ content: '请求超时，请稍后重试', duration: 5 });
  });
});

describe('file downloads', () => {
  // Any POST path of the document: the client does not care what it is.
  const path = '/api/CustomerCenter/SendLoginSms';

  it('reads the UTF-8 name of Content-Disposition, else its plain name', () => {
    expect(dispositionFilename(`attachment; filename*=UTF-8''${encodeURIComponent('能耗报表 2026-11.xlsx')}`)).toBe('能耗报表 2026-11.xlsx');
    expect(dispositionFilename('attachment; filename="report.xlsx"; filename*=UTF-8\'\'%E6%8A%A5.xlsx')).toBe('报.xlsx');
    expect(dispositionFilename('attachment; filename="report.xlsx"')).toBe('report.xlsx');
    expect(dispositionFilename('attachment')).toBeNull();
    expect(dispositionFilename(null)).toBeNull();
  });

  it('resolves a file answer with its bytes and name, sending the token', async () => {
    setSession('tok-1', '演示用户');
    const fetchStub = vi.fn(
      async (_url: string, _init: RequestInit) =>
        new Response('xlsx', { status: 200, headers: { 'Content-Type': 'application/octet-stream', 'Content-Disposition': "attachment; filename*=UTF-8''a%20b.xlsx" } }),
    );
    vi.stubGlobal('fetch', fetchStub);
    const file = await http.download(path, { mobile: '13800000000' });
    expect(file.filename).toBe('a b.xlsx');
    expect(await file.blob.text()).toBe('xlsx');
    expect(fetchStub.mock.calls[0][1]).toMatchObject({ method: 'POST', headers: { SYSTOKEN: 'tok-1' } });
  });

  it('rejects a refusal sent as an envelope and shows its message', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => envelope(400, '导出范围过大')));
    await expect(http.download(path, { mobile: '1' })).rejects.toMatchObject({ statusCode: 400, message: '导出范围过大' });
    expect(toast.error).toHaveBeenCalledWith('导出范围过大');
  });
});

describe('login password encoding', () => {
  it('wraps the password in the same 13-digit millisecond stamp', () => {
    expect(encodeLoginPassword('demo123456', 1763700000123)).toBe('1763700000123demo1234561763700000123');
  });
});
