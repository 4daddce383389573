/** A dark palette of the large screen. */
export interface ScreenTheme {
  background: string;
  panel: string;
  border: string;
  accent: string;
  accent2: string;
  text: string;
  muted: string;
  grid: string;
  /** Map regions and their borders. */
  land: string;
  landBorder: string;
}

const base = {
  text: '#e6f0ff',
  muted: 'rgba(214,228,255,.62)',
  grid: 'rgba(255,255,255,.08)',
};

/** The themes the profile's serial_no (大屏主题) chooses; "brand" is built from the brand colour. */
export const SCREEN_THEMES: Record<string, ScreenTheme> = {
  '1': { ...base, background: '#020b1f', panel: 'rgba(6,30,66,.72)', border: 'rgba(0,210,255,.35)', accent: '#00d2ff', accent2: '#3ee0a1', land: '#0b2a55', landBorder: '#1e78c8' },
  '2': { ...base, background: '#0b0320', panel: 'rgba(38,16,80,.66)', border: 'rgba(179,127,235,.38)', accent: '#b37feb', accent2: '#ff85c0', land: '#251046', landBorder: '#7c4dcc' },
  '3': { ...base, background: '#021512', panel: 'rgba(4,52,48,.66)', border: 'rgba(54,207,201,.36)', accent: '#36cfc9', accent2: '#95de64', land: '#073b36', landBorder: '#1f9e96' },
  '4': { ...base, background: '#110d06', panel: 'rgba(60,42,10,.6)', border: 'rgba(250,173,20,.36)', accent: '#faad14', accent2: '#ff7a45', land: '#3a2a0c', landBorder: '#b07d12' },
};

/** The brand's own dark theme: a deep navy with the brand colour as accent. */
export function brandScreenTheme(color: string): ScreenTheme {
  return {
    ...base,
    background: '#040c1c',
    panel: 'rgba(10,32,68,.7)',
    border: `${color}66`,
    accent: color,
    accent2: '#3ee0a1',
    land: '#0c2850',
    landBorder: color,
  };
}

export function screenTheme(theme: string, brandColor: string): ScreenTheme {
  return SCREEN_THEMES[theme] ?? brandScreenTheme(brandColor);
}

/** Colours of a project's state on the map, the same in every theme (red means the same everywhere). */
export const STATE_COLORS: Record<string, string> = {
  normal: '#52c41a',
  offline: '#faad14',
  alarm: '#ff4d4f',
  empty: '#8c8c8c',
};

/** Colours of the alarm levels 提示, 重要, 紧急. */
export const LEVEL_COLORS: Record<number, string> = { 1: '#1890ff', 2: '#faad14', 3: '#ff4d4f' };

/** Colours of the tariff periods 尖, 峰, 平, 谷, 深谷. */
export const PERIOD_COLORS = ['#ff4d4f', '#fa8c16', '#fadb14', '#52c41a', '#13c2c2'];
