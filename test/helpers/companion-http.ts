/**
 * Calls to a companion by its URL alone, as the widget makes them: for companions in other
 * processes (companion-process.ts), where there is no in-process rig.
 *
 * @example
 * const { token, reference } = await beginPayment(companion.url, 'order-ngn:1', 'PayByTransfer');
 */

export interface CompanionAnswer {
  readonly status: number;
  // biome-ignore lint/suspicious/noExplicitAny: tests read whatever JSON came back
  readonly body: any;
  readonly text: string;
}

export async function callCompanion(
  companionUrl: string,
  method: string,
  path: string,
  options: { body?: unknown; token?: string; headers?: Record<string, string> } = {},
): Promise<CompanionAnswer> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(companionUrl + path, {
    method,
    headers,
    ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
    redirect: 'manual',
  });
  const text = await response.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  return { status: response.status, body, text };
}

/** Session then initiation of `channel`, each expected to answer 200. */
export async function beginPayment(
  companionUrl: string,
  order: string,
  channel: 'PayByTransfer' | 'PayByAccount' | 'Card',
  extra: Record<string, unknown> = {},
): Promise<{ token: string; reference: string }> {
  const session = await callCompanion(companionUrl, 'POST', '/session', { body: { order } });
  if (session.status !== 200) throw new Error(`session failed: ${session.text}`);
  // A card is sent by the card frame alone (issue 19): POST /card from its opaque origin.
  const initiated =
    channel === 'Card'
      ? await callCompanion(companionUrl, 'POST', '/card', {
          token: session.body.token,
          body: extra,
          headers: { origin: 'null' },
        })
      : await callCompanion(companionUrl, 'POST', '/initiate', {
          token: session.body.token,
          body: { channel, ...extra },
        });
  if (initiated.status !== 200) throw new Error(`initiate failed: ${initiated.text}`);
  return {
    token: initiated.body.token as string,
    reference: initiated.body.payment.reference as string,
  };
}
