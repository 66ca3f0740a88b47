/**
 * The pages a customer's browser sees in the sandbox, as the provider's would be: the bank's
 * authorisation page (PayByAccount's AuthUrl) and the card issuer's challenge (authenticationhtml
 * and the page its form posts to); the hosted payment-link page is link-pages.ts. No key is
 * needed: the customer's browser does not have one.
 */
import { escapeHtml, toMajorText } from '../protocol';
import { CHALLENGE_PASS_CODE } from './test-data';
import type { World } from './world';

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;margin:0;background:#f4f5f7;color:#1d2330}
main{max-width:420px;margin:40px auto;background:#fff;border-radius:12px;padding:28px;box-shadow:0 2px 12px #0002}
h1{font-size:20px;margin:0 0 8px}.amount{font-size:28px;font-weight:600;margin:12px 0}
.muted{color:#5b6475;font-size:14px}button,input{font:inherit;padding:10px 14px;border-radius:8px}
button{border:0;cursor:pointer;margin:8px 8px 0 0}.approve{background:#1a7f4b;color:#fff}
.decline{background:#e7e9ee;color:#1d2330}input{border:1px solid #b8bfcc;width:10ch;letter-spacing:.2em}`;

function page(title: string, body: string, headers: Record<string, string> = {}): Response {
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

function notFound(what: string): Response {
  const response = page('Not found', `<h1>Not found</h1><p>${escapeHtml(what)}</p>`);
  return new Response(response.body, { status: 404, headers: response.headers });
}

function money(amountMinor: number, currency: string): string {
  return `${escapeHtml(currency)} ${toMajorText(amountMinor, currency)}`;
}

/** GET /pages/bank/{reference}: approve or decline, as at the customer's bank. */
export function bankPage(world: World, reference: string, baseUrl: string): Response {
  const payment = world.state.payments.get(reference);
  if (payment?.channel !== 'PayByAccount') {
    return notFound('No bank authorisation is waiting under this reference.');
  }
  if (payment.stage !== 'awaiting-bank') {
    return page(
      'Sandbox Bank',
      `<h1>Sandbox Bank</h1><p>This payment has already been ${payment.stage === 'authorised' ? 'authorised' : escapeHtml(payment.status.toLowerCase())}.</p>`,
    );
  }
  const action = `${baseUrl}/pages/bank/${encodeURIComponent(reference)}`;
  return page(
    'Sandbox Bank: authorise payment',
    `<h1>Sandbox Bank</h1><p class="muted">A merchant asks you to authorise a payment.</p>
<p class="amount">${money(payment.amountMinor, payment.currency)}</p>
<p class="muted">Reference ${escapeHtml(reference)}</p>
<form method="post" action="${escapeHtml(action)}">
<button class="approve" name="decision" value="approve" type="submit">Approve</button>
<button class="decline" name="decision" value="decline" type="submit">Decline</button></form>`,
  );
}

/** POST /pages/bank/{reference}: the customer's decision, then back to the merchant. */
export async function bankDecision(
  world: World,
  reference: string,
  request: Request,
): Promise<Response> {
  const form = await readForm(request);
  const decision = form?.get('decision');
  if (decision !== 'approve' && decision !== 'decline') {
    return page('Sandbox Bank', '<h1>Sandbox Bank</h1><p>Choose Approve or Decline.</p>');
  }
  const payment = world.state.payments.get(reference);
  if (payment?.channel !== 'PayByAccount') return notFound('No such payment.');
  if (payment.stage === 'awaiting-bank') world.ledger.bank(reference, decision === 'approve');
  if (payment.redirect && payment.returnUrl) {
    const target = new URL(payment.returnUrl);
    target.searchParams.set('reference', reference);
    return new Response(null, { status: 303, headers: { location: target.href } });
  }
  // metaData.redirect false: the page closes itself instead of sending the customer anywhere.
  return page(
    'Sandbox Bank',
    `<h1>Sandbox Bank</h1><p>${decision === 'approve' ? 'Payment authorised.' : 'Payment declined.'} You can close this window.</p>
<script>window.close()</script>`,
  );
}

/**
 * The challenge markup returned as `authenticationhtml`: a self-contained page, as issuers send,
 * whose form posts the one-time code to the sandbox.
 */
export function challengeHtml(baseUrl: string, reference: string, amount: string): string {
  const action = `${baseUrl}/pages/challenge/${encodeURIComponent(reference)}`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1"><title>Verify your payment</title>
<style>${STYLE}</style></head><body><main>
<h1>Sandbox Issuer: verify it's you</h1>
<p class="muted">Enter the one-time code we sent to your phone to pay ${escapeHtml(amount)}.</p>
<p class="muted">Test code: ${CHALLENGE_PASS_CODE}</p>
<form method="post" action="${escapeHtml(action)}">
<label for="code">One-time code</label><br>
<input id="code" name="code" inputmode="numeric" autocomplete="one-time-code" maxlength="8" required>
<button class="approve" type="submit">Verify</button></form></main></body></html>`;
}

/**
 * POST /pages/challenge/{reference}: checks the code and tells the frame's parent by postMessage.
 * The message is `{ type: 'challenge.completed', reference, outcome: 'passed' | 'failed' }`.
 */
export async function challengeResult(
  world: World,
  reference: string,
  request: Request,
): Promise<Response> {
  const form = await readForm(request);
  const code = form?.get('code');
  const payment = world.state.payments.get(reference);
  if (payment?.channel !== 'Card') return notFound('No challenge is waiting under this reference.');
  if (payment.challenge === 'not-needed') {
    return notFound('No challenge is waiting under this reference.');
  }
  if (payment.challenge === 'required') {
    world.ledger.completeChallenge(
      reference,
      typeof code === 'string' && code.trim() === CHALLENGE_PASS_CODE,
    );
  }
  const outcome = payment.challenge === 'passed' ? 'passed' : 'failed';
  const message = JSON.stringify({ type: 'challenge.completed', reference, outcome });
  // JSON inside a script: `<` escaped so a reference can never close the script element.
  const script = `parent.postMessage(${message.replaceAll('<', '\\u003c')}, '*');`;
  return page(
    'Verification',
    `<h1>${outcome === 'passed' ? 'Verified' : 'Verification failed'}</h1>
<p class="muted">${outcome === 'passed' ? 'Returning to the merchant…' : 'The code was not correct.'}</p>
<script>${script}</script>`,
  );
}

async function readForm(request: Request): Promise<URLSearchParams | null> {
  const type = request.headers.get('content-type') ?? '';
  if (!type.startsWith('application/x-www-form-urlencoded')) return null;
  const text = await request.text();
  return text.length > 4096 ? null : new URLSearchParams(text);
}
