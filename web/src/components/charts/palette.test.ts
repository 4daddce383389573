import { chartPalette } from './palette';

describe('chartPalette', () => {
  it('starts with the brand colour and keeps every colour once', () => {
    expect(chartPalette('#409EFF')[0]).toBe('#409EFF');
    const orange = chartPalette('#fa8c16');
    expect(orange[0]).toBe('#fa8c16');
    expect(orange.map((c) => c.toLowerCase()).filter((c) => c === '#fa8c16')).toHaveLength(1);
    expect(chartPalette('#13A085')).toHaveLength(10);
  });
});
