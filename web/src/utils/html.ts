/**
 * Text made safe to put into HTML that ECharts renders as such (a tooltip `formatter` function's
 * return value goes into the page as HTML): every name a user or a gateway sets passes through here.
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);
}
