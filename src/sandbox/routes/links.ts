/**
 * Endpoint 1: payment links, one-time or reusable, each with an alias and a hosted page.
 */
import * as v from 'valibot';
import { toMajor, type WirePaymentLink } from '../../protocol';
import { failuresOf, readJsonBody, success, validationFailure } from '../responses';
import { majorToMinor, PaymentLinkRequest } from '../schemas';
import type { LinkRecord } from '../state';
import type { RouteContext } from './payments';

/** Offset-carrying ISO 8601, as the provider's `createdDate` is. */
function withOffset(ms: number): string {
  return new Date(ms).toISOString().replace('Z', '+00:00');
}

function newAlias(): string {
  const alphabet = 'abcdefghijkmnpqrstuvwxyz23456789';
  const bytes = crypto.getRandomValues(new Uint8Array(10));
  return Array.from(bytes, (byte) => alphabet[byte % alphabet.length]).join('');
}

export function wirePaymentLink(link: LinkRecord, baseUrl: string): WirePaymentLink {
  return {
    id: link.id,
    name: link.name,
    description: link.description,
    alias: link.alias,
    link: `${baseUrl}/pages/link/${link.alias}`,
    amountInfo:
      link.amountMinor === null
        ? null
        : { currencyCode: link.currency, amount: toMajor(link.amountMinor, link.currency) },
    linkType: link.linkType === 'OneTime' ? 'OneTime' : 'Reuseable',
    status: link.status,
    createdDate: withOffset(link.createdAt),
    environment: 'Test',
  };
}

export async function createPaymentLink({
  world,
  request,
  baseUrl,
}: RouteContext): Promise<Response> {
  const read = await readJsonBody(request);
  if (!read.ok) return read.response;
  const parsed = v.safeParse(PaymentLinkRequest, read.body);
  if (!parsed.success) return validationFailure(failuresOf(parsed.issues));
  const input = parsed.output;
  const failures: string[] = [];
  let amountMinor: number | null = null;
  if (input.amountInfo) {
    if (input.amountInfo.currencyCode !== input.currencyCode) {
      failures.push('amountInfo.currencyCode must equal currencyCode.');
    }
    const minor = majorToMinor(
      input.amountInfo.amount,
      input.amountInfo.currencyCode,
      'amountInfo.amount',
    );
    if (minor.ok) amountMinor = minor.minor;
    else failures.push(minor.failure);
  } else if (input.amountType === 0) {
    failures.push('amountInfo is required when amountType is 0 (static).');
  }
  if (failures.length > 0) return validationFailure(failures);
  const link: LinkRecord = {
    id: crypto.randomUUID(),
    alias: newAlias(),
    name: input.name,
    description: input.description ?? '',
    linkType: input.linkType === 0 ? 'OneTime' : 'Reusable',
    amountType: input.amountType === 0 ? 'static' : 'dynamic',
    currency: input.currencyCode,
    // A dynamic link's amountInfo is kept as a suggestion; only a static one binds the payer.
    amountMinor,
    createdAt: world.clock.now(),
    returnUrl: input.metaData?.['return-url'] ?? null,
    status: 'New',
  };
  world.state.links.set(link.alias, link);
  return success(wirePaymentLink(link, baseUrl), 'Payment link created.');
}
