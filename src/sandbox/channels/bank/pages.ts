/** The bank's authorisation page (PayByAccount's AuthUrl), as the customer's bank shows it. */
import { escapeHtml } from '../../../protocol';
import { money, notFound, page, readForm } from '../../pages';
import type { World } from '../../world';

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
