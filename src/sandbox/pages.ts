/**
 * The look of the pages a customer's browser sees in the sandbox, as the provider's would be:
 * each channel's own pages (the bank's authorisation page, the card issuer's challenge, the
 * hosted payment-link page) are in its folder under channels/ and are drawn with these. No key
 * is needed: the customer's browser does not have one.
 */
import { escapeHtml, toMajorText } from '../protocol';

export const STYLE = `body{font:16px/1.5 system-ui,sans-serif;margin:0;background:#f4f5f7;color:#1d2330}
main{max-width:420px;margin:40px auto;background:#fff;border-radius:12px;padding:28px;box-shadow:0 2px 12px #0002}
h1{font-size:20px;margin:0 0 8px}.amount{font-size:28px;font-weight:600;margin:12px 0}
.muted{color:#5b6475;font-size:14px}button,input{font:inherit;padding:10px 14px;border-radius:8px}
button{border:0;cursor:pointer;margin:8px 8px 0 0}.approve{background:#1a7f4b;color:#fff}
.decline{background:#e7e9ee;color:#1d2330}input{border:1px solid #b8bfcc;width:10ch;letter-spacing:.2em}`;

export function page(title: string, body: string, headers: Record<string, string> = {}): Response {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title>
<style>${STYLE}</style></head><body><main>${body}</main></body></html>`;
  return new Response(html, {
    status: 200,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      ...headers,
    },
  });
}

export function notFound(what: string): Response {
  const response = page('Not found', `<h1>Not found</h1><p>${escapeHtml(what)}</p>`);
  return new Response(response.body, { status: 404, headers: response.headers });
}

export function money(amountMinor: number, currency: string): string {
  return `${escapeHtml(currency)} ${toMajorText(amountMinor, currency)}`;
}

export async function readForm(request: Request): Promise<URLSearchParams | null> {
  const type = request.headers.get('content-type') ?? '';
  if (!type.startsWith('application/x-www-form-urlencoded')) return null;
  const text = await request.text();
  return text.length > 4096 ? null : new URLSearchParams(text);
}
