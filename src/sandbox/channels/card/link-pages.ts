/**
 * The hosted page of a payment link, as the provider's is: the link's name, description and
 * amount, a card form, the issuer's challenge when the card needs one, and the way back to the
 * merchant (DESIGN.md, "Card entry on the hosted link page"; issue 19). Plain HTML forms and no
 * script: the page that takes a card runs no code, may not be framed, and may post only to
 * itself and to the merchant's return URL.
 *
 * A card paid here takes endpoint 3's own path (`startPayment`, with `link.alias`), then the
 * authentication check and finalize of endpoints 4 and 5, on the same ledger: the payment, its
 * status, its failure message and its webhook are those of any card payment on the link.
 */
import * as v from 'valibot';
import { escapeHtml, toMajor, toMajorText } from '../../../protocol';
import { type CardFormErrors, type CardFormField, readCardForm } from '../../card-form';
import type { LinkRecord, PaymentRecord } from '../../records';
import { SandboxRefusal } from '../../refusal';
import { startPayment } from '../../routes/payments';
import { InitiationRequest } from '../../schemas';
import { CHALLENGE_PASS_CODE } from '../../test-data';
import type { World } from '../../world';

/** A card form is a few hundred bytes; anything past this is refused before it is parsed. */
export const MAX_LINK_FORM_BYTES = 4096;

const STYLE = `:root{color-scheme:light dark;--bg:#f4f5f7;--card:#fff;--text:#1d2330;--muted:#545d6e;--border:#7c8599;--accent:#1a56db;--on-accent:#fff;--error:#b42318;--error-bg:#fdeceb;--ok:#146c3e}
@media (prefers-color-scheme:dark){:root{--bg:#0e1016;--card:#1a1e28;--text:#e8eaf0;--muted:#a9b1c2;--border:#737c8f;--accent:#8bb0ff;--on-accent:#0b1020;--error:#ffa198;--error-bg:#3b1a17;--ok:#6ee0a4}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--text);font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
main{max-width:440px;margin:32px auto;padding:28px;background:var(--card);border-radius:12px;box-shadow:0 2px 12px #0003}
@media (max-width:480px){main{margin:0;min-height:100vh;border-radius:0;box-shadow:none;padding:20px 16px}}
h1{font-size:1.25rem;line-height:1.3;margin:0 0 4px;overflow-wrap:anywhere}
p{margin:0 0 12px;overflow-wrap:anywhere}
.muted{color:var(--muted);font-size:.875rem}
.amount{font-size:1.75rem;font-weight:650;margin:4px 0 20px}
.field{margin:0 0 16px}
.row{display:flex;gap:12px}.row>.field{flex:1;min-width:0}
label{display:block;font-weight:600;font-size:.9375rem;margin:0 0 4px}
input{display:block;width:100%;font:inherit;padding:10px 12px;border:1px solid var(--border);border-radius:8px;background:var(--card);color:var(--text)}
input[aria-invalid=true]{border:2px solid var(--error)}
input:focus-visible,button:focus-visible,a:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
.error{color:var(--error);font-size:.875rem;margin:4px 0 0}
.notice{background:var(--error-bg);color:var(--error);padding:10px 12px;border-radius:8px}
.success{color:var(--ok)}
button{display:block;width:100%;font:inherit;font-weight:600;padding:12px 16px;margin:8px 0 0;border:1px solid var(--accent);border-radius:8px;background:var(--accent);color:var(--on-accent);cursor:pointer}
button.secondary{background:transparent;color:var(--text);border-color:var(--border)}
a{color:var(--accent)}
.hint{margin-top:20px}`;

/**
 * The one origin besides the sandbox's own that the page's forms may reach: the merchant's
 * return URL. Chromium checks `form-action` on each redirect that follows a form's post too, so
 * the 303 back to the merchant is blocked unless its origin is listed here. CSP's host grammar
 * has no IPv6 literals: such an origin is allowed by its scheme alone, the narrowest it can say.
 */
function returnSource(returnUrl: string): string {
  const url = new URL(returnUrl);
  return /^https?:\/\/[a-z0-9.-]+(:\d+)?$/i.test(url.origin) ? url.origin : url.protocol;
}

function securityHeaders(link: LinkRecord | undefined): Record<string, string> {
  const formAction = ["'self'", ...(link?.returnUrl ? [returnSource(link.returnUrl)] : [])];
  return {
    'content-security-policy': `default-src 'none'; style-src 'unsafe-inline'; form-action ${formAction.join(' ')}; frame-ancestors 'none'`,
    'x-frame-options': 'DENY',
    'cache-control': 'no-store',
    // The page's address names the link; the merchant learns the alias from the return URL.
    'referrer-policy': 'no-referrer',
  };
}

function page(link: LinkRecord | undefined, title: string, body: string, status = 200): Response {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${escapeHtml(title)}</title><style>${STYLE}</style></head>
<body><main>${body}</main></body></html>`;
  return new Response(html, {
    status,
    headers: { 'content-type': 'text/html; charset=utf-8', ...securityHeaders(link) },
  });
}

/** `NGN 1,500,000.50`: grouped, so a customer reads the size of the sum at a glance. */
function money(amountMinor: number, currency: string): string {
  const [whole = '', fraction] = toMajorText(amountMinor, currency).split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+$)/g, ',');
  return `${escapeHtml(currency)} ${fraction === undefined ? grouped : `${grouped}.${fraction}`}`;
}

/** Paths, not URLs: the forms post to whatever origin the customer's browser reached us on. */
function linkPath(baseUrl: string, alias: string, rest = ''): string {
  return `${new URL(baseUrl).pathname.replace(/\/+$/, '')}/pages/link/${encodeURIComponent(alias)}${rest}`;
}

function asksAmount(link: LinkRecord): boolean {
  return link.amountType === 'dynamic' || link.amountMinor === null;
}

function isPayable(link: LinkRecord): boolean {
  return link.linkType === 'Reusable' || link.status === 'New';
}

function heading(link: LinkRecord, amount: string): string {
  return `<h1>${escapeHtml(link.name)}</h1>
${link.description ? `<p class="muted">${escapeHtml(link.description)}</p>` : ''}
<p class="amount">${amount}</p>`;
}

function notFound(): Response {
  return page(
    undefined,
    'Payment link not found',
    '<h1>Payment link not found</h1><p>No payment link has this address. Check the link you were sent.</p>',
    404,
  );
}

function alreadyPaid(link: LinkRecord, status = 200): Response {
  return page(
    link,
    `${link.name}: paid`,
    `${heading(link, asksAmount(link) ? '' : money(link.amountMinor ?? 0, link.currency))}
<p>This link has already been paid. Nothing more can be paid on it.</p>`,
    status,
  );
}

interface FormView {
  readonly errors?: CardFormErrors;
  readonly kept?: { readonly name: string; readonly amount: string };
  /** A problem with the payment as a whole, not one field. */
  readonly notice?: string;
}

function field(
  id: CardFormField,
  label: string,
  attributes: string,
  view: FormView,
  value = '',
  focused = false,
): string {
  const error = view.errors?.[id];
  const described = error ? ` aria-invalid="true" aria-describedby="${id}-error"` : '';
  return `<div class="field"><label for="${id}">${label}</label>
<input id="${id}" name="${id}" ${attributes}${described}${value ? ` value="${escapeHtml(value)}"` : ''}${focused ? ' autofocus' : ''}>
${error ? `<p class="error" id="${id}-error">${escapeHtml(error)}</p>` : ''}</div>`;
}

/** The card form, empty or with the errors of a post (the name and amount kept, nothing else). */
function cardForm(link: LinkRecord, baseUrl: string, view: FormView = {}, status = 200): Response {
  const errors = view.errors ?? {};
  const order: CardFormField[] = ['amount', 'name', 'number', 'expiry', 'cvc'];
  const firstWrong = order.find((id) => errors[id] !== undefined);
  const count = Object.keys(errors).length;
  const dynamic = asksAmount(link);
  const suggested =
    dynamic && link.amountMinor !== null ? toMajorText(link.amountMinor, link.currency) : '';
  const amountText = dynamic ? '' : money(link.amountMinor ?? 0, link.currency);
  const notice = view.notice
    ? `<p class="notice" role="alert">${escapeHtml(view.notice)}</p>`
    : count > 0
      ? `<p class="notice" role="alert">${count === 1 ? 'One field needs' : `${count} fields need`} your attention.</p>`
      : '';
  const cancel = link.returnUrl
    ? `<form method="post" action="${escapeHtml(linkPath(baseUrl, link.alias, '/cancel'))}">
<button class="secondary" type="submit">Cancel and return to the merchant</button></form>`
    : '';
  return page(
    link,
    `Pay ${link.name}`,
    `${heading(link, dynamic ? `<span class="muted">Amount of your choice in ${escapeHtml(link.currency)}</span>` : amountText)}
${notice}
<form method="post" action="${escapeHtml(linkPath(baseUrl, link.alias, '/pay'))}">
${
  dynamic
    ? field(
        'amount',
        `Amount (${escapeHtml(link.currency)})`,
        'inputmode="decimal" autocomplete="transaction-amount" maxlength="20" required',
        view,
        view.kept?.amount ?? suggested,
        firstWrong === 'amount',
      )
    : ''
}
${field('name', 'Name on card', 'autocomplete="cc-name" maxlength="100" required', view, view.kept?.name ?? '', firstWrong === 'name')}
${field('number', 'Card number', 'inputmode="numeric" autocomplete="cc-number" maxlength="23" required', view, '', firstWrong === 'number')}
<div class="row">
${field('expiry', 'Expiry (MM/YY)', 'inputmode="numeric" autocomplete="cc-exp" placeholder="MM/YY" maxlength="7" required', view, '', firstWrong === 'expiry')}
${field('cvc', 'Security code', 'inputmode="numeric" autocomplete="cc-csc" maxlength="4" required', view, '', firstWrong === 'cvc')}
</div>
<button type="submit">${dynamic ? 'Pay' : `Pay ${amountText}`}</button>
</form>
${cancel}
<p class="muted hint">Sandbox: pay with 4242 4242 4242 4242 or another test card, any future expiry date and any security code.</p>`,
    status,
  );
}

function challengeForm(
  link: LinkRecord,
  baseUrl: string,
  payment: PaymentRecord,
  error = '',
  status = 200,
): Response {
  const action = linkPath(
    baseUrl,
    link.alias,
    `/challenge/${encodeURIComponent(payment.reference)}`,
  );
  return page(
    link,
    'Verify your payment',
    `<h1>Verify it's you</h1>
<p>Your card issuer asks for the one-time code sent to your phone to pay
<strong>${money(payment.amountMinor, payment.currency)}</strong> to ${escapeHtml(link.name)}.</p>
<form method="post" action="${escapeHtml(action)}">
<div class="field"><label for="code">One-time code</label>
<input id="code" name="code" inputmode="numeric" autocomplete="one-time-code" maxlength="8" required autofocus${error ? ' aria-invalid="true" aria-describedby="code-error"' : ''}>
${error ? `<p class="error" id="code-error">${escapeHtml(error)}</p>` : ''}</div>
<button type="submit">Verify and pay</button></form>
<p class="muted hint">Sandbox: the code ${CHALLENGE_PASS_CODE} passes; any other fails the payment.</p>`,
    status,
  );
}

/**
 * A final payment: back to the merchant with `reference` and `alias` added to the return URL's
 * query (its own parameters kept), or, without a return URL, a page that says how it ended.
 */
function outcome(link: LinkRecord, baseUrl: string, payment: PaymentRecord): Response {
  if (link.returnUrl) {
    const target = new URL(link.returnUrl);
    target.searchParams.set('reference', payment.reference);
    target.searchParams.set('alias', link.alias);
    return new Response(null, {
      status: 303,
      headers: { location: target.href, ...securityHeaders(link) },
    });
  }
  if (payment.status === 'SUCCESSFUL') {
    return page(
      link,
      'Payment successful',
      `<h1 class="success">Payment successful</h1>
<p>You paid <strong>${money(payment.amountMinor, payment.currency)}</strong> to ${escapeHtml(link.name)}.</p>
<p class="muted">Reference ${escapeHtml(payment.reference)}. You can close this window.</p>`,
    );
  }
  const retry = isPayable(link)
    ? `<p><a href="${escapeHtml(linkPath(baseUrl, link.alias))}">Try another card</a></p>`
    : '';
  return page(
    link,
    'Payment failed',
    `<h1>Payment failed</h1>
<p>${escapeHtml(payment.failureReason ?? 'The payment did not go through.')} Nothing was charged.</p>
<p class="muted">Reference ${escapeHtml(payment.reference)}.</p>${retry}`,
  );
}

type FormRead = { ok: true; form: URLSearchParams } | { ok: false; response: Response };

/**
 * The posted form, read no further than MAX_LINK_FORM_BYTES: a declared length over it is
 * refused before a byte is read, and a body that runs past it is cut off there.
 */
async function readForm(request: Request, link: LinkRecord): Promise<FormRead> {
  const refuse = (status: number, title: string, text: string): FormRead => ({
    ok: false,
    response: page(link, title, `<h1>${title}</h1><p>${text}</p>`, status),
  });
  const type = request.headers.get('content-type') ?? '';
  if (!/^application\/x-www-form-urlencoded\s*(;|$)/i.test(type)) {
    return refuse(
      415,
      'Form not understood',
      'The form must be sent as application/x-www-form-urlencoded, as the page sends it.',
    );
  }
  const tooLarge = () =>
    refuse(413, 'Form too large', `The form is larger than ${MAX_LINK_FORM_BYTES} bytes.`);
  if (Number(request.headers.get('content-length') ?? 0) > MAX_LINK_FORM_BYTES) return tooLarge();
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (request.body) {
    const reader = request.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > MAX_LINK_FORM_BYTES) {
        await reader.cancel();
        return tooLarge();
      }
      chunks.push(value);
    }
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return { ok: true, form: new URLSearchParams(new TextDecoder().decode(bytes)) };
}

/** GET /pages/link/{alias}: the link, and its card form while it can be paid. */
export function linkPage(world: World, alias: string, baseUrl: string): Response {
  const link = world.state.links.get(alias);
  if (!link) return notFound();
  if (!isPayable(link)) return alreadyPaid(link);
  return cardForm(link, baseUrl);
}

/**
 * POST /pages/link/{alias}/pay: the card, initiated on the link exactly as endpoint 3 would with
 * `link.alias`, checked for authentication, then the challenge or, without one, finalized.
 */
export async function payOnLink(
  world: World,
  alias: string,
  baseUrl: string,
  request: Request,
): Promise<Response> {
  const link = world.state.links.get(alias);
  if (!link) return notFound();
  if (!isPayable(link)) return alreadyPaid(link, 409);
  const read = await readForm(request, link);
  if (!read.ok) return read.response;
  const dynamic = asksAmount(link);
  const parsed = readCardForm(read.form, {
    now: world.clock.now(),
    currency: link.currency,
    asksAmount: dynamic,
  });
  if (!parsed.ok) {
    return cardForm(link, baseUrl, { errors: parsed.errors, kept: parsed.kept }, 400);
  }
  const { entry } = parsed;
  const amountMinor = dynamic ? (entry.amountMinor ?? 0) : (link.amountMinor ?? 0);
  const request3 = v.safeParse(InitiationRequest, {
    amount: toMajor(amountMinor, link.currency),
    channel: 'Card',
    currency: link.currency,
    link: { alias: link.alias },
    card: {
      number: entry.number,
      expiryMonth: entry.expiryMonth,
      expiryYear: entry.expiryYear,
      cvv: entry.cvv,
      holderName: entry.holderName,
    },
  });
  // The form's rules are at least endpoint 3's, so this is only a second line of defence.
  if (!request3.success) {
    return cardForm(
      link,
      baseUrl,
      { notice: 'The payment could not be started. Check the details and try again.' },
      400,
    );
  }
  let started: ReturnType<typeof startPayment>;
  try {
    started = startPayment(world, request3.output);
  } catch (error) {
    // Paid by another payment a moment ago: the one-time link takes no second one.
    if (error instanceof SandboxRefusal && error.status === 409) return alreadyPaid(link, 409);
    throw error;
  }
  if (!started.ok) {
    return cardForm(
      link,
      baseUrl,
      {
        notice: `The payment could not be started: ${started.failures.join(' ')}`,
        kept: {
          name: entry.holderName,
          amount: dynamic ? toMajorText(amountMinor, link.currency) : '',
        },
      },
      400,
    );
  }
  const payment = world.ledger.checkAuthentication(started.record.reference);
  if (payment.challenge === 'required') return challengeForm(link, baseUrl, payment);
  world.ledger.finalize(payment.reference);
  return outcome(link, baseUrl, payment);
}

/**
 * POST /pages/link/{alias}/challenge/{reference}: the one-time code. The right one lets the
 * payment be finalized at once; any other fails it, as the issuer's challenge does.
 */
export async function challengeOnLink(
  world: World,
  alias: string,
  reference: string,
  baseUrl: string,
  request: Request,
): Promise<Response> {
  const link = world.state.links.get(alias);
  if (!link) return notFound();
  const payment = world.state.payments.get(reference);
  if (payment?.linkAlias !== alias || payment.channel !== 'Card') {
    return page(
      link,
      'Payment not found',
      '<h1>Payment not found</h1><p>No payment of this link has this reference.</p>',
      404,
    );
  }
  const read = await readForm(request, link);
  if (!read.ok) return read.response;
  if (payment.challenge === 'required') {
    const code = (read.form.get('code') ?? '').trim();
    if (code === '') {
      return challengeForm(link, baseUrl, payment, 'Enter the one-time code.', 400);
    }
    world.ledger.completeChallenge(reference, code === CHALLENGE_PASS_CODE);
  }
  // A second post of the same code (a double click, the back button) finds the payment final.
  if (payment.status === 'PENDING' && payment.stage === 'ready-to-finalize') {
    world.ledger.finalize(reference);
  }
  if (payment.status === 'PENDING') return challengeForm(link, baseUrl, payment);
  return outcome(link, baseUrl, payment);
}

/** POST /pages/link/{alias}/cancel: back to the merchant with `cancelled=1`; nothing is charged. */
export function cancelOnLink(world: World, alias: string): Response {
  const link = world.state.links.get(alias);
  if (!link) return notFound();
  if (link.returnUrl) {
    const target = new URL(link.returnUrl);
    target.searchParams.set('alias', link.alias);
    target.searchParams.set('cancelled', '1');
    return new Response(null, {
      status: 303,
      headers: { location: target.href, ...securityHeaders(link) },
    });
  }
  return page(
    link,
    'Payment cancelled',
    `<h1>Payment cancelled</h1><p>Nothing was charged. You can close this window.</p>`,
  );
}
