import type { ThemeConfig } from 'antd';

/**
 * antd's theme from the brand colour. antd derives links (colorLink) and info icons and tags
 * (colorInfo) from its own #1677FF, not from colorPrimary, so all three are set from the brand.
 */
export function brandTheme(color: string): ThemeConfig {
  return { token: { colorPrimary: color, colorInfo: color, colorLink: color } };
}
