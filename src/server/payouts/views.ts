/**
 * What the payouts handler shows the back office: the provider client's payouts, links and list
 * entries as the views of src/protocol/back-office.ts, with one set of status names (a payout's
 * Pending, Completed, Failed, Reversed; a payment's PENDING, SUCCESSFUL, FAILED).
 */
import {
  normalizePayoutStatus,
  type PaymentLink,
  type TransactionListItem,
  type TransactionPage,
} from '../../protocol';
import type {
  PaymentLinkView,
  PayoutView,
  TransactionPageWire,
  TransactionView,
} from '../../protocol/back-office';
import type { Payout } from '../../provider/payouts';

/** A payout from the list, with what the store remembers of it (the webhook's reason, its time). */
export function payoutView(payout: Payout, remembered?: PayoutView): PayoutView {
  const sameState = remembered?.status === payout.status;
  return {
    reference: payout.reference,
    tenantReference: payout.tenantReference,
    status: payout.status,
    amount: payout.amount,
    reason:
      payout.status === 'Completed' || payout.status === 'Pending'
        ? null
        : (remembered?.reason ?? null),
    createdAt: payout.createdAt,
    updatedAt: sameState ? (remembered?.updatedAt ?? null) : null,
  };
}

function paymentStatus(text: string): string {
  switch (text.trim().toLowerCase()) {
    case 'completed':
    case 'successful':
    case 'successfull':
    case 'success':
      return 'SUCCESSFUL';
    case 'failed':
      return 'FAILED';
    default:
      return 'PENDING';
  }
}

export function transactionView(item: TransactionListItem): TransactionView {
  const type = typeof item.raw.type === 'string' ? item.raw.type.toLowerCase() : '';
  const kind =
    type === 'payout' || (type === '' && typeof item.raw.tenantReference === 'string')
      ? 'payout'
      : type === 'payment' || type === ''
        ? 'payment'
        : 'other';
  const createdAt = typeof item.raw.createdAt === 'string' ? item.raw.createdAt : null;
  const status =
    kind === 'payout'
      ? (normalizePayoutStatus(item.status) ?? item.status)
      : kind === 'payment'
        ? paymentStatus(item.status)
        : item.status;
  return { id: item.id, kind, amount: item.amount, status, createdAt };
}

export function transactionPageView(page: TransactionPage): TransactionPageWire {
  return {
    items: page.items.map(transactionView),
    page: page.meta.page,
    pageCount: page.meta.pageCount,
    total: page.meta.total,
    perPage: page.meta.perPage,
  };
}

export function linkView(link: PaymentLink): PaymentLinkView {
  return {
    alias: link.alias,
    name: link.name,
    description: link.description,
    url: link.url,
    amount: link.amount,
    linkType: link.linkType,
    status: link.status,
    createdAt: link.createdAt,
  };
}
