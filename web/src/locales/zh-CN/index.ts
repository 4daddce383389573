export { common } from './common';
export { account } from './account';
export { layout } from './layout';
export { routeTitles, errorPages } from './routes';
export type { RouteName } from './routes';
export { logs } from './logs';
export { codes } from './codes';
