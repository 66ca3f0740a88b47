/**
 * Text made safe to place in HTML markup or a quoted attribute. The companion and the sandbox
 * both serve pages that show provider and customer text; both escape it here.
 */
const ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** @example escapeHtml('<b>"Ada"</b>') // '&lt;b&gt;&quot;Ada&quot;&lt;/b&gt;' */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => ESCAPES[character] ?? character);
}
