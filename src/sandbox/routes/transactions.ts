/**
 * Endpoint 9: the paginated transaction list, in creation order so pages stay stable while new
 * transactions arrive. Its envelope differs from the others (`status`, `data`, `meta`).
 */
import type { WireTransactionItem, WireTransactionList } from '../../protocol';
import { json } from '../responses';
import type { RouteContext } from './payments';

const MAX_PER_PAGE = 100;

function listRefusal(message: string): Response {
  return json(400, { status: false, message, data: [] });
}

function positiveInteger(text: string | null, fallback: number): number | undefined {
  if (text === null) return fallback;
  return /^\d{1,9}$/.test(text) ? Number(text) : undefined;
}

export function listTransactions({ world, request }: RouteContext): Response {
  const query = new URL(request.url).searchParams;
  const page = positiveInteger(query.get('page'), 1);
  const perPage = positiveInteger(query.get('perPage'), 20);
  if (page === undefined || page < 1) return listRefusal('page must be a whole number from 1.');
  if (perPage === undefined || perPage < 1 || perPage > MAX_PER_PAGE) {
    return listRefusal(`perPage must be a whole number from 1 to ${MAX_PER_PAGE}.`);
  }
  const items: WireTransactionItem[] = world.state.ledger.map(({ kind, reference }) => {
    if (kind === 'payment') {
      const payment = world.ledger.payment(reference);
      return {
        id: payment.reference,
        amount: payment.amountMinor,
        currency: payment.currency,
        status:
          payment.status === 'SUCCESSFUL'
            ? 'completed'
            : payment.status === 'FAILED'
              ? 'failed'
              : 'pending',
        type: 'payment',
        channel: payment.channel,
        reference: payment.reference,
        createdAt: new Date(payment.createdAt).toISOString(),
      };
    }
    const payout = world.ledger.payout(reference);
    return {
      id: payout.reference,
      amount: payout.amountMinor,
      currency: payout.currency,
      status: payout.status.toLowerCase(),
      type: 'payout',
      reference: payout.reference,
      tenantReference: payout.tenantReference,
      createdAt: new Date(payout.createdAt).toISOString(),
    };
  });
  const skipped = (page - 1) * perPage;
  const body: WireTransactionList = {
    status: true,
    data: items.slice(skipped, skipped + perPage),
    meta: {
      page,
      pageCount: Math.ceil(items.length / perPage),
      total: items.length,
      perPage,
      skipped,
    },
  };
  return json(200, body);
}
