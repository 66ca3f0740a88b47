/**
 * A chunk's stylesheet joins the dialog's shadow root once, when the chunk first draws there (a
 * ref callback, before the browser paints): the card step's and the transfer panel's. Constructed
 * sheets, not <style>: a strict CSP needs no 'unsafe-inline'.
 */
const sheets = new Map<string, CSSStyleSheet>();

export function adoptStyles(node: Element | null, css: string): void {
  const root = node?.getRootNode() as ShadowRoot | undefined;
  if (!root?.adoptedStyleSheets) return;
  let sheet = sheets.get(css);
  if (!sheet) {
    sheet = new CSSStyleSheet();
    sheet.replaceSync(css);
    sheets.set(css, sheet);
  }
  if (!root.adoptedStyleSheets.includes(sheet)) {
    root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
  }
}
