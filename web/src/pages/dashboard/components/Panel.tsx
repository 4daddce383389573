import type { CSSProperties, ReactNode } from 'react';
import type { ScreenTheme } from '../themes';

interface Props {
  title: ReactNode;
  theme: ScreenTheme;
  height: number;
  extra?: ReactNode;
  testId?: string;
  children: ReactNode;
}

/** A framed tile of the large screen: a title bar with an accent mark and a body of fixed height. */
export function Panel({ title, theme, height, extra, testId, children }: Props) {
  const frame: CSSProperties = {
    height,
    background: theme.panel,
    border: `1px solid ${theme.border}`,
    borderRadius: 6,
    boxShadow: `inset 0 0 24px ${theme.border}`,
    display: 'flex',
    flexDirection: 'column',
    overflow: 'hidden',
  };
  return (
    <section style={frame} data-testid={testId}>
      <header style={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', padding: '10px 16px 6px' }}>
        <h2 style={{ margin: 0, fontSize: 20, fontWeight: 600, color: theme.text, borderLeft: `4px solid ${theme.accent}`, paddingLeft: 10, letterSpacing: 1 }}>
          {title}
        </h2>
        {extra}
      </header>
      <div style={{ flex: 1, minHeight: 0, padding: '4px 16px 12px', position: 'relative' }}>{children}</div>
    </section>
  );
}

/** A big figure with its label and unit. */
export function Figure({ label, value, unit, color, theme, size = 34 }: { label: ReactNode; value: ReactNode; unit?: string; color?: string; theme: ScreenTheme; size?: number }) {
  return (
    <div style={{ minWidth: 0 }}>
      <div style={{ color: theme.muted, fontSize: 15, whiteSpace: 'nowrap' }}>{label}</div>
      <div style={{ color: color ?? theme.accent, fontSize: size, fontWeight: 700, fontFamily: 'DIN Alternate, Bahnschrift, Roboto Mono, monospace', whiteSpace: 'nowrap', lineHeight: 1.25 }}>
        {value}
        {unit && <span style={{ fontSize: 15, marginLeft: 4, color: theme.muted, fontWeight: 400 }}>{unit}</span>}
      </div>
    </div>
  );
}

/** A number as the screen shows it: thousands grouped, at most `digits` decimals. */
export function formatNumber(value: number, digits = 2): string {
  return value.toLocaleString('zh-CN', { maximumFractionDigits: digits, minimumFractionDigits: 0 });
}
