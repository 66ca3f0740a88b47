/**
 * The two pages the companion serves from the merchant's own origin, so the merchant's CSP needs
 * nothing new: the bank's return page and the card challenge's host. Their scripts are files of
 * the companion (script-src 'self'); nothing inline runs in them.
 */
import { escapeHtml } from '../../protocol';
import { CARD_RETURN_PARAM, RETURN_PARAM } from '../../protocol/contract';

function html(body: string, csp: string, status = 200): Response {
  return new Response(`<!doctype html><html lang="en"><head><meta charset="utf-8">${body}</html>`, {
    status,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'content-security-policy': csp,
      // The token travels in these pages' URLs; it must not leak through Referer.
      'referrer-policy': 'no-referrer',
      'x-content-type-options': 'nosniff',
    },
  });
}

const STRICT =
  "default-src 'none'; script-src 'self'; style-src 'self'; base-uri 'none'; form-action 'none'";

/**
 * Tells the waiting widget that the bank, or the provider's hosted card page (`card.alias`), sent
 * the customer back, then closes the popup or, after a full-page redirect, goes back to the
 * merchant's page.
 */
export function returnPage(
  assetsUrl: string,
  reference: string,
  returnTo: string | null,
  card: { readonly alias: string | null; readonly cancelled: boolean } = {
    alias: null,
    cancelled: false,
  },
): Response {
  const text =
    card.alias === null
      ? 'Payment authorised at your bank. Returning to the shop…'
      : card.cancelled
        ? 'Payment cancelled. Returning to the shop…'
        : 'Returning to the shop…';
  return html(
    `<meta name="viewport" content="width=device-width,initial-scale=1"><title>Returning to the shop</title>
<link rel="stylesheet" href="${escapeHtml(assetsUrl)}/page.css"></head><body>
<main id="paydrop-return" data-reference="${escapeHtml(reference)}" data-return-to="${escapeHtml(returnTo ?? '')}" data-alias="${escapeHtml(card.alias ?? '')}" data-cancelled="${card.cancelled ? '1' : ''}">
<p>${text}</p>
<p><a href="${escapeHtml(returnTo ?? '#')}" id="paydrop-continue" hidden>Continue</a></p></main>
<script src="${escapeHtml(assetsUrl)}/return.js"></script></body>`,
    `${STRICT}; frame-ancestors 'none'`,
  );
}

/** The host of the card challenge: a sandboxed frame holding the issuer's markup, and a relay. */
export function challengePage(
  assetsUrl: string,
  frameUrl: string,
  reference: string,
  parentOrigin: string,
): Response {
  return html(
    `<meta name="viewport" content="width=device-width,initial-scale=1"><title>Verify your payment</title>
<link rel="stylesheet" href="${escapeHtml(assetsUrl)}/page.css"></head><body class="challenge">
<iframe id="paydrop-issuer" title="Verification by your card issuer" sandbox="allow-scripts allow-forms"
 src="${escapeHtml(frameUrl)}" data-reference="${escapeHtml(reference)}" data-parent-origin="${escapeHtml(parentOrigin)}"></iframe>
<script src="${escapeHtml(assetsUrl)}/challenge.js"></script></body>`,
    // The issuer's form posts to the issuer, inside the frame: https (and the sandbox on loopback).
    `${STRICT}; frame-src 'self' https: http://localhost:* http://127.0.0.1:*; frame-ancestors 'self' ${parentOrigin}`,
  );
}

/**
 * The issuer's markup itself, as its own document. The `sandbox` directive gives it an opaque
 * origin even if someone opens it directly: it can run its own scripts and post its form, but
 * never reach the companion's origin, its cookies or the page around it.
 */
export function challengeFrame(markup: string, parentOrigin: string): Response {
  return new Response(markup, {
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      // frame-ancestors is checked against every ancestor, the shop's page included.
      'content-security-policy': `sandbox allow-scripts allow-forms; frame-ancestors 'self' ${parentOrigin}`,
      'referrer-policy': 'no-referrer',
      'x-content-type-options': 'nosniff',
    },
  });
}

export function missingPage(message: string): Response {
  return html(
    `<title>Not available</title></head><body><p>${escapeHtml(message)}</p></body>`,
    STRICT,
    404,
  );
}

const PAGE_CSS = `body{font:16px/1.5 system-ui,sans-serif;margin:0;color:#1d2330;background:#fff}
main{max-width:420px;margin:48px auto;padding:0 16px}
body.challenge{background:transparent}
#paydrop-issuer{display:block;border:0;width:100%;height:100vh}`;

/**
 * Relays the challenge outcome: only a message from the issuer frame itself, for this payment,
 * of the expected shape, and only to the page that opened the checkout.
 */
const CHALLENGE_JS = `(() => {
  const frame = document.getElementById('paydrop-issuer');
  const reference = frame.dataset.reference;
  const target = frame.dataset.parentOrigin;
  let done = false;
  addEventListener('message', (event) => {
    if (done || event.source !== frame.contentWindow) return;
    const data = event.data;
    if (!data || typeof data !== 'object' || data.type !== 'challenge.completed') return;
    if (data.reference !== reference || (data.outcome !== 'passed' && data.outcome !== 'failed')) return;
    done = true;
    parent.postMessage({ type: 'paydrop:challenge-completed', reference, outcome: data.outcome }, target);
  });
})();
`;

/**
 * Tells the widget on the same origin (BroadcastChannel; never window.opener), then closes; if the
 * window cannot close (a full-page redirect), goes back to the shop's page, marked for resuming.
 */
const RETURN_JS = `(() => {
  const main = document.getElementById('paydrop-return');
  const reference = main.dataset.reference;
  const returnTo = main.dataset.returnTo;
  const alias = main.dataset.alias;
  const message = alias
    ? { type: 'paydrop:card-return', alias, reference, cancelled: main.dataset.cancelled === '1', at: Date.now() }
    : { type: 'paydrop:bank-return', reference, at: Date.now() };
  try { const channel = new BroadcastChannel('paydrop'); channel.postMessage(message); channel.close(); } catch {}
  setTimeout(() => {
    window.close();
    setTimeout(() => {
      if (returnTo) {
        const url = new URL(returnTo);
        url.searchParams.set('${RETURN_PARAM}', reference);
        if (alias) url.searchParams.set('${CARD_RETURN_PARAM}', alias);
        location.replace(url.href);
      } else {
        document.getElementById('paydrop-continue').hidden = false;
      }
    }, 300);
  }, 50);
})();
`;

export const ASSETS: Readonly<Record<string, { type: string; body: string }>> = {
  'page.css': { type: 'text/css; charset=utf-8', body: PAGE_CSS },
  'challenge.js': { type: 'text/javascript; charset=utf-8', body: CHALLENGE_JS },
  'return.js': { type: 'text/javascript; charset=utf-8', body: RETURN_JS },
};
