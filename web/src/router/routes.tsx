import { Navigate, useParams, type RouteObject } from 'react-router';
import { routeTitles, type RouteName } from '@/locales/zh-CN';
import { lazyPage } from './lazyPage';
import { PublicOnly, RequireAuth } from './guards';
import { RootBoundary } from './RootBoundary';
import { Root } from './Root';
import { SmsConfigGate } from '@/pages/setting/SmsConfigGate';
import { AlarmDetailGate } from '@/pages/alarm/AlarmDetailGate';
import { ElectricityGate } from '@/pages/electricity/ElectricityGate';

export interface RouteHandle {
  title?: string;
  name?: RouteName;
}

const handle = (name: RouteName): RouteHandle => ({ name, title: routeTitles[name] });

const Login = lazyPage(() => import('@/pages/login'));
const Register = lazyPage(() => import('@/pages/register'));
const FindPassword = lazyPage(() => import('@/pages/findpsw'));
const AuthRedirect = lazyPage(() => import('@/pages/auth-redirect'));
const NotFound = lazyPage(() => import('@/pages/error/NotFound'));
const Unauthorized = lazyPage(() => import('@/pages/error/Unauthorized'));
const AppLayout = lazyPage(() => import('@/layout/AppLayout'));
const SettingLayout = lazyPage(() => import('@/pages/setting/SettingLayout'));
const OperateList = lazyPage(() => import('@/pages/setting/operate-list'));
const Dashboard = lazyPage(() => import('@/pages/dashboard'));
const Kiosk = lazyPage(() => import('@/pages/dashboard/kiosk'));
const DevicesManage = lazyPage(() => import('@/pages/devices-manage'));
const AlarmManage = lazyPage(() => import('@/pages/alarm-manage'));
const AlarmStatistics = lazyPage(() => import('@/pages/alarm'));
const SmsTemplate = lazyPage(() => import('@/pages/setting/SmsTemplate'));
const SmsNotification = lazyPage(() => import('@/pages/setting/SmsNotification'));
const SmsRecharge = lazyPage(() => import('@/pages/setting/SmsRecharge'));
const ProjectList = lazyPage(() => import('@/pages/setting/project-list'));
const GatewayList = lazyPage(() => import('@/pages/setting/gateway-list'));
const OfflineList = lazyPage(() => import('@/pages/setting/offline-list'));
const StatList = lazyPage(() => import('@/pages/setting/stat-list'));
const CmdList = lazyPage(() => import('@/pages/setting/cmd-list'));
const TimingTask = lazyPage(() => import('@/pages/timing-task'));
const GroupControl = lazyPage(() => import('@/pages/group-control'));
const Energy = lazyPage(() => import('@/pages/eng'));
const Reports = lazyPage(() => import('@/pages/report'));
const TariffList = lazyPage(() => import('@/pages/setting/tariff-list'));
const Electricity = lazyPage(() => import('@/pages/electricity'));
const LoadIdentify = lazyPage(() => import('@/pages/load-identify'));
const ShareList = lazyPage(() => import('@/pages/setting/share-list'));

/** /redirect/{path}: re-enters a page (used by the tags view's refresh). */
function RedirectHelper() {
  const params = useParams();
  return <Navigate to={`/${params['*'] ?? ''}`} replace />;
}

export const routes: RouteObject[] = [
  {
    element: <Root />,
    errorElement: <RootBoundary />,
    children: [
      { element: <PublicOnly />, children: [{ path: '/login', handle: handle('login'), element: <Login /> }] },
      { path: '/register', handle: handle('register'), element: <Register /> },
      { path: '/findpsw', handle: handle('findpsw'), element: <FindPassword /> },
      { path: '/auth-redirect', handle: handle('auth-redirect'), element: <AuthRedirect /> },
      // A kiosk link: the large screen without a login (the token in the path is its only key).
      { path: '/kiosk/:token', handle: handle('dashboard'), element: <Kiosk /> },
      {
        element: <RequireAuth />,
        children: [
          { path: '/redirect/*', element: <RedirectHelper /> },
          { path: '/404', handle: handle('404'), element: <NotFound /> },
          { path: '/401', handle: handle('401'), element: <Unauthorized /> },
          {
            path: '/',
            element: <AppLayout />,
            children: [
              { index: true, element: <Navigate to="/dashboard" replace /> },
              { path: 'dashboard', handle: handle('dashboard'), element: <Dashboard /> },
              {
                path: 'user-manage',
                children: [
                  { index: true, element: <Navigate to="devices-manage" replace /> },
                  { path: 'load-identify', handle: handle('load-identify'), element: <LoadIdentify /> },
                  { path: 'devices-manage', handle: handle('devices-manage'), element: <DevicesManage /> },
                  { path: 'eng', handle: handle('eng'), element: <Energy /> },
                  { path: 'report', handle: handle('report'), element: <Reports /> },
                  { path: 'timing-task', handle: handle('timing-task'), element: <TimingTask /> },
                  { path: 'group-control', handle: handle('group-control'), element: <GroupControl /> },
                  { path: 'alarm-manage', handle: handle('alarm-manage'), element: <AlarmManage /> },
                  {
                    element: <ElectricityGate />,
                    children: [{ path: 'electricity', handle: handle('electricity'), element: <Electricity /> }],
                  },
                  {
                    element: <AlarmDetailGate />,
                    children: [{ path: 'alarm', handle: handle('alarm'), element: <AlarmStatistics /> }],
                  },
                  {
                    path: 'setting',
                    handle: handle('setting'),
                    element: <SettingLayout />,
                    children: [
                      { index: true, element: <Navigate to="project-list" replace /> },
                      { path: 'share-list', handle: handle('share-list'), element: <ShareList /> },
                      { path: 'operate-list', handle: handle('operate-list'), element: <OperateList /> },
                      { path: 'project-list', handle: handle('project-list'), element: <ProjectList /> },
                      { path: 'gateway-list', handle: handle('gateway-list'), element: <GatewayList /> },
                      { path: 'tariff-list', handle: handle('tariff-list'), element: <TariffList /> },
                      { path: 'offline-list', handle: handle('offline-list'), element: <OfflineList /> },
                      { path: 'stat-list', handle: handle('stat-list'), element: <StatList /> },
                      { path: 'cmd-list', handle: handle('cmd-list'), element: <CmdList /> },
                      {
                        element: <SmsConfigGate />,
                        children: [
                          { path: 'SmsTemplate', handle: handle('SmsTemplate'), element: <SmsTemplate /> },
                          { path: 'SmsNotification', handle: handle('SmsNotification'), element: <SmsNotification /> },
                          { path: 'SmsRecharge', handle: handle('SmsRecharge'), element: <SmsRecharge /> },
                        ],
                      },
                    ],
                  },
                ],
              },
            ],
          },
          { path: '*', element: <Navigate to="/404" replace /> },
        ],
      },
    ],
  },
];
