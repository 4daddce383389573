/** Series colours in the app's tones after the brand's own (ECharts' default palette clashes with them). */
const TONES = ['#F56C6C', '#E6A23C', '#67C23A', '#9254DE', '#13C2C2', '#FA8C16', '#EB2F96', '#2F54EB', '#909399'];

/** The colours of a chart's series: the brand's theme colour first, then the app's tones. */
export function chartPalette(primary: string): string[] {
  return [primary, ...TONES.filter((tone) => tone.toLowerCase() !== primary.toLowerCase())];
}
