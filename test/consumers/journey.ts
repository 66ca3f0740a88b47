/**
 * One whole payment and one signed webhook through a companion mounted at `${base}/api/checkout`
 * on whatever framework or runtime serves it: session, PayByTransfer, the event stream open
 * while the customer pays in the sandbox, the signed webhook, the outcome and the stream's
 * SUCCESSFUL. The sandbox's webhooks must already point at `${base}/api/checkout/webhooks`.
 */
import { expect } from 'vitest';
import type { Sandbox } from '../helpers/sandbox';

async function post(url: string, body: unknown, token?: string) {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  expect(response.status, text).toBe(200);
  return JSON.parse(text);
}

/** Reads an event stream until `pattern` shows up in it; what it read. */
async function readUntil(response: Response, pattern: RegExp, timeoutMs: number): Promise<string> {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let text = '';
  const timer = setTimeout(() => void reader.cancel(), timeoutMs);
  try {
    while (!pattern.test(text)) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
  } finally {
    clearTimeout(timer);
    await reader.cancel().catch(() => {});
  }
  return text;
}

export async function payOnceWithSignedWebhook(options: {
  base: string;
  sandbox: Sandbox;
  /** The references the merchant's onPaymentOutcome has seen so far. */
  outcomes: () => Promise<readonly string[]> | readonly string[];
  order?: string;
}): Promise<string> {
  const checkout = `${options.base}/api/checkout`;
  const session = await post(`${checkout}/session`, {
    order: options.order ?? `order-ngn:${crypto.randomUUID()}`,
  });
  expect(session.checkout.amount).toEqual({ amountMinor: 2_500_050, currency: 'NGN' });
  const initiated = await post(`${checkout}/initiate`, { channel: 'PayByTransfer' }, session.token);
  const reference: string = initiated.payment.reference;
  const status = await fetch(`${checkout}/status`, {
    headers: { authorization: `Bearer ${initiated.token}` },
  });
  expect(await status.json()).toMatchObject({ reference, status: 'PENDING' });

  const stream = await fetch(`${checkout}/events`, {
    headers: { authorization: `Bearer ${initiated.token}`, accept: 'text/event-stream' },
  });
  expect(stream.status).toBe(200);
  expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
  const heard = readUntil(stream, /SUCCESSFUL/, 10_000);

  const paid = await options.sandbox.request('POST', `/__sandbox/payments/${reference}/transfer`);
  expect(paid.status, await paid.text()).toBeLessThan(300);
  await expect.poll(options.outcomes, { interval: 50 }).toContain(reference);
  expect(await heard).toMatch(/event: status\ndata: .*SUCCESSFUL/);
  // The signed webhook passed the signature check: delivered with a 200, not refused or retried.
  const deliveries = await (await options.sandbox.request('GET', '/__sandbox/webhooks')).json();
  expect(
    deliveries.webhooks.filter(
      (webhook: { reference: string; event: string }) =>
        webhook.reference === reference && webhook.event === 'payment.success',
    ),
  ).toMatchObject([{ state: 'delivered', lastStatus: 200, attempts: 1 }]);
  return reference;
}
