/** The card issuer's challenge: the markup sent as `authenticationhtml`, and the page it posts to. */
import { escapeHtml } from '../../../protocol';
import { notFound, page, readForm, STYLE } from '../../pages';
import { CHALLENGE_PASS_CODE } from '../../test-data';
import type { World } from '../../world';

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
