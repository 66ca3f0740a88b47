/**
 * The direct card path's frame (issue 19): the document the widget frames, its script and
 * stylesheet, and POST /card, the one route that takes card details, from that frame alone.
 *
 * The frame's Content-Security-Policy starts with `sandbox allow-scripts allow-forms`, so the
 * document has an opaque origin however it is loaded: a page script that strips the iframe's
 * sandbox attribute, or opens the URL in a window of its own, still cannot read it. Being opaque,
 * its requests carry `Origin: null`, which POST /card alone accepts.
 */
import { escapeHtml } from '../../protocol';
import { CARD_FRAME_PATH, CARD_PATH } from '../../protocol/card-frame';
import { CheckoutError, SOURCE_DIST, sourceDistReader } from '../http';

export { CARD_FRAME_PATH, CARD_PATH };

/**
 * The built files' text. Bundled (the published dist/server.js, and Vitest) they are Vite `?raw`
 * imports, strings inside the server's code that any runtime serves; run from the sources by plain
 * Node (tsx, as the demo runs), where `?raw` means nothing and would run the frame's script,
 * they are read from dist/. `import.meta.env` is Vite's and tells the two apart.
 */
async function builtText(
  name: 'paydrop-card-frame.js' | 'paydrop-card-frame.css',
  bundled: () => Promise<{ default: string }>,
): Promise<string> {
  if ((import.meta as { env?: unknown }).env) return (await bundled()).default;
  return sourceDistReader('the built card frame').readFile(new URL(name, SOURCE_DIST), 'utf8');
}

/** The frame's files under {basePath}/assets/, built by `vite build --mode card-frame`. */
const FILES: Readonly<Record<string, { type: string; load: () => Promise<string> }>> = {
  'card-frame.js': {
    type: 'text/javascript; charset=utf-8',
    load: () =>
      builtText('paydrop-card-frame.js', () => import('../../../dist/paydrop-card-frame.js?raw')),
  },
  'card-frame.css': {
    type: 'text/css; charset=utf-8',
    load: () =>
      builtText('paydrop-card-frame.css', () => import('../../../dist/paydrop-card-frame.css?raw')),
  },
};

/** One of the frame's files, or undefined for any other name. */
export async function cardFrameAsset(name: string): Promise<Response | undefined> {
  if (!Object.hasOwn(FILES, name)) return undefined;
  const file = FILES[name] as (typeof FILES)[string];
  let body: string;
  try {
    body = await file.load();
  } catch (error) {
    // Only a source checkout that was never built gets here; a published package inlines them.
    throw new CheckoutError(
      'unavailable',
      'The card frame is not built: run `npm run build:widget`.',
      { cause: error },
    );
  }
  return new Response(body, {
    headers: {
      'content-type': file.type,
      'cache-control': 'public, max-age=300',
      'x-content-type-options': 'nosniff',
      // The frame's opaque origin loads these as a cross-origin page would.
      'cross-origin-resource-policy': 'cross-origin',
    },
  });
}

/**
 * The frame document: nothing inline, its script and stylesheet from the companion's origin,
 * named explicitly rather than as 'self'. Chromium (156, checked) honours either in a document
 * whose CSP sandbox makes its origin opaque, but CSP defines 'self' by the document's origin,
 * which is opaque here, and engines have not always agreed; the explicit origin means the same
 * everywhere.
 *
 * @param assetsUrl {publicUrl}/assets
 * @param pageOrigins the origins that may frame it: the companion's own and allowedOrigins
 */
export function cardFramePage(assetsUrl: string, pageOrigins: readonly string[]): Response {
  const own = new URL(assetsUrl).origin;
  const csp = [
    'sandbox allow-scripts allow-forms',
    "default-src 'none'",
    `script-src ${own}`,
    `style-src ${own}`,
    `connect-src ${own}`,
    "base-uri 'none'",
    "form-action 'none'",
    `frame-ancestors ${pageOrigins.join(' ')}`,
  ].join('; ');
  const body = `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1"><title>Card details</title>
<link rel="stylesheet" href="${escapeHtml(assetsUrl)}/card-frame.css"></head><body>
<script src="${escapeHtml(assetsUrl)}/card-frame.js"></script></body></html>`;
  return new Response(body, {
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'content-security-policy': csp,
      'referrer-policy': 'no-referrer',
      'x-content-type-options': 'nosniff',
    },
  });
}

/**
 * Whether the request is the card frame's own, which comes from an opaque origin (browsers send
 * `Origin: null`, Chromium even on its script and stylesheet): POST /card, answered to that
 * origin alone; a page (the merchant's or another) that posts a card is refused, so the page
 * never sends one. And the frame's two files, which anyone may load.
 */
export function checkCardOrigin(request: Request, path: string, headers: Headers): boolean {
  const name = path.startsWith('/assets/') ? path.slice('/assets/'.length) : '';
  if (request.method === 'GET' && Object.hasOwn(FILES, name)) {
    return request.headers.get('origin') === 'null';
  }
  if (path !== CARD_PATH) return false;
  if (request.headers.get('origin') !== 'null') {
    // Not even an allowed page may read the answer: it is the frame's.
    headers.delete('access-control-allow-origin');
    throw new CheckoutError(
      'cross_site_request',
      'Card details are accepted only from the card frame.',
    );
  }
  headers.set('access-control-allow-origin', 'null');
  headers.set('access-control-expose-headers', 'x-request-id, retry-after');
  return true;
}

/** The preflight of the frame's POST /card: a bearer token and a JSON body. */
export function cardPreflight(headers: Headers): Response {
  headers.set('access-control-allow-methods', 'POST');
  headers.set('access-control-allow-headers', 'authorization, content-type');
  headers.set('access-control-max-age', '600');
  return new Response(null, { status: 204, headers });
}
