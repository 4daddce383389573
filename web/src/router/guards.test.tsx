import { screen, waitFor } from '@testing-library/react';
import { getToken, setSession } from '@/api/core';
import { brandWith, renderRoutes, stubApi } from '@/test/render';
import { loginPathFor, safeRedirect, WHITE_LIST } from './guards';
import { routes } from './routes';

const ME = { sysno: 1, account: '13800000000', mobile: '13800000000', name: '演示用户' };

afterEach(() => {
  sessionStorage.clear();
  vi.unstubAllGlobals();
});

describe('redirect helpers', () => {
  it('whitelists exactly the public screens', () => {
    expect(WHITE_LIST).toEqual(['/login', '/auth-redirect', '/register', '/findpsw']);
  });
  it('builds /login?redirect={path}', () => {
    expect(loginPathFor('/user-manage/setting/operate-list')).toBe('/login?redirect=%2Fuser-manage%2Fsetting%2Foperate-list');
  });
  it('only follows redirects inside the app', () => {
    expect(safeRedirect('/user-manage/eng')).toBe('/user-manage/eng');
    expect(safeRedirect(null)).toBe('/');
    expect(safeRedirect('https://evil.example')).toBe('/');
    expect(safeRedirect('//evil.example')).toBe('/');
    // browsers read a backslash, a tab or a newline after the slash as `//`
    expect(safeRedirect('/\\evil.example')).toBe('/');
    expect(safeRedirect('/\t/evil.example')).toBe('/');
    expect(safeRedirect('/\n/evil.example')).toBe('/');
    expect(safeRedirect('/user-manage/eng?project=1')).toBe('/user-manage/eng?project=1');
    expect(safeRedirect('/login')).toBe('/');
  });
});

describe('route guard', () => {
  it('sends a visitor without token to /login?redirect={path}', async () => {
    stubApi({});
    const { router } = renderRoutes(routes, { path: '/user-manage/setting/operate-list' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(router.state.location.search).toBe('?redirect=%2Fuser-manage%2Fsetting%2Foperate-list');
  });

  it.each(WHITE_LIST.filter((p) => p !== '/auth-redirect'))('lets a visitor open %s', async (path) => {
    stubApi({});
    const { router } = renderRoutes(routes, { path });
    await screen.findAllByRole('link');
    expect(router.state.location.pathname).toBe(path);
  });

  it('sends a logged-in user from /login to the root (and on to the dashboard)', async () => {
    setSession('tok', '演示用户');
    stubApi({ '/api/CustomerCenter/MyInfo': ME });
    const { router } = renderRoutes(routes, { path: '/login' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
  });

  it('resets the token when loading the user fails and goes to login', async () => {
    setSession('tok', '演示用户');
    stubApi({});
    const { router } = renderRoutes(routes, { path: '/user-manage/report' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(getToken()).toBeNull();
    expect(router.state.location.search).toContain('redirect=');
  });

  it('redirects /user-manage/setting to project-list and shows the left menu', async () => {
    setSession('tok', '演示用户');
    stubApi({ '/api/CustomerCenter/MyInfo': ME, '/api/CustomerProject/GetProjectList': { dataSource: [], totalCount: 0 } });
    const { router } = renderRoutes(routes, { path: '/user-manage/setting' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/user-manage/setting/project-list'));
    const menu = await screen.findByTestId('setting-menu');
    for (const label of ['项目管理', '网关管理', '分享管理', '日志', '离线日志', '操作日志', '状态日志', '命令日志']) {
      expect(menu).toHaveTextContent(label);
    }
    expect(menu).not.toHaveTextContent('短信模板');
    expect(await screen.findByRole('button', { name: /新建项目/ }, { timeout: 10_000 })).toBeInTheDocument();
  }, 20_000);

  it('shows the SMS settings only with SmsConfig', async () => {
    setSession('tok', '演示用户');
    stubApi({ '/api/CustomerCenter/MyInfo': ME });
    renderRoutes(routes, { path: '/user-manage/setting/SmsTemplate', brand: brandWith({ SmsConfig: true }) });
    const menu = await screen.findByTestId('setting-menu');
    expect(menu).toHaveTextContent('短信模板');
    expect(menu).toHaveTextContent('短信充值');
  });

  it('opens 电费管理 only with eletricList', async () => {
    setSession('tok', '演示用户');
    stubApi({ '/api/CustomerCenter/MyInfo': ME });
    const { router } = renderRoutes(routes, { path: '/user-manage/electricity' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/404'));
  });

  it('shows 电费管理 with eletricList', async () => {
    setSession('tok', '演示用户');
    stubApi({ '/api/CustomerCenter/MyInfo': ME, '/api/CustomerElectricity/GetAccountList': { dataSource: [], totalCount: 0 } });
    const { router } = renderRoutes(routes, { path: '/user-manage/electricity', brand: brandWith({ eletricList: true }) });
    expect(await screen.findByTestId('electricity-page', {}, { timeout: 10_000 })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/user-manage/electricity');
  }, 20_000);

  it('sends unknown paths to /404', async () => {
    setSession('tok', '演示用户');
    stubApi({ '/api/CustomerCenter/MyInfo': ME });
    const { router } = renderRoutes(routes, { path: '/no/such/page' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/404'));
  });
});
