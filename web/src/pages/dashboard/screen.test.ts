import { fitScale, STAGE_HEIGHT, STAGE_WIDTH } from './ScaledStage';
import { projectTooltip } from './components/ChinaMap';
import { onlineRate } from './components/Equipment';
import { periodShare } from './components/Energy';
import { brandScreenTheme, screenTheme, SCREEN_THEMES } from './themes';

describe('the large screen', () => {
  it('scales 1920×1080 to fit any box whole', () => {
    expect(fitScale(1920, 1080)).toBe(1);
    expect(fitScale(3840, 2160)).toBe(2);
    // a wide box is bounded by its height, a tall one by its width: nothing is cropped
    for (const [w, h] of [[1440, 600], [390, 844], [1280, 800], [1000, 1000]]) {
      const scale = fitScale(w, h);
      expect(STAGE_WIDTH * scale).toBeLessThanOrEqual(w + 1e-9);
      expect(STAGE_HEIGHT * scale).toBeLessThanOrEqual(h + 1e-9);
      expect(Math.max(STAGE_WIDTH * scale - w, STAGE_HEIGHT * scale - h)).toBeCloseTo(0);
    }
    expect(fitScale(0, 800)).toBe(0);
  });

  it('counts an empty fleet as fully online', () => {
    expect(onlineRate(0, 0)).toBe(100);
    expect(onlineRate(1, 3)).toBe(33);
  });

  it('shows each span split by tariff period in shares', () => {
    const figure = (kwh: number[]) => ({ kwh, cost: [0, 0, 0, 0, 0], total_kwh: 0, total_cost: 0 });
    const energy = { periods: ['尖', '峰', '平', '谷', '深谷'], today: figure([0, 0, 0, 0, 0]), month: figure([1, 1, 2, 0, 0]), year: figure([0, 3, 0, 1, 0]) };
    expect(periodShare(energy, 'today', 2)).toBe(0);
    expect([0, 1, 2].map((i) => periodShare(energy, 'month', i))).toEqual([25, 25, 50]);
    expect(periodShare(energy, 'year', 1)).toBe(75);
  });

  it('chooses the theme the profile names, else the brand’s', () => {
    expect(screenTheme('2', '#13A085')).toBe(SCREEN_THEMES['2']);
    expect(screenTheme('brand', '#13A085')).toEqual(brandScreenTheme('#13A085'));
    expect(screenTheme('brand', '#13A085').accent).toBe('#13A085');
  });
});

describe('the map tooltip', () => {
  it('shows a project name as text, never as HTML (sharees and kiosks read it)', () => {
    const name = '<img src=x onerror=alert(1)>&"\'';
    const html = projectTooltip({
      sysno: 1, name, state: 'alarm', device_count: 3, device_online_count: 2, gateway_count: 1,
      gateway_online_count: 1, open_alarm_count: 1, latitude: 30, longitude: 120,
    });
    expect(html.startsWith('&lt;img src=x onerror=alert(1)&gt;&amp;&quot;&#39;<br/>')).toBe(true);
    const box = document.createElement('div');
    box.innerHTML = html;
    expect(box.querySelector('img')).toBeNull();
    expect(box.textContent).toContain(name);
  });
});
