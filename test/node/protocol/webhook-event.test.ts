import { describe, expect, it } from 'vitest';
import { parseWebhookEvent, type WireWebhook } from '../../../src/protocol';

/** Our default payload (DESIGN.md, "Webhook payload"). */
function paymentWebhook(data: Partial<WireWebhook['data']> = {}): WireWebhook {
  return {
    id: 'evt_01HF3Q8N2K',
    event: 'payment.success',
    createdAt: '2026-11-22T00:10:00Z',
    data: {
      reference: 'PBT-7f3a9c',
      paymentReference: 'PBT-7f3a9c',
      status: 'SUCCESSFUL',
      amount: 2500.5,
      currency: 'NGN',
      ...data,
    },
  };
}

function payoutWebhook(
  event: WireWebhook['event'] = 'payout.success',
  data: Partial<WireWebhook['data']> = {},
): WireWebhook {
  return {
    id: 'evt_01HF3Q9Z7P',
    event,
    createdAt: '2026-11-22T00:20:00Z',
    data: {
      reference: 'PO-20261122-0001',
      tenantReference: 'order-1001-payout',
      status: 'Completed',
      amount: '150000',
      currency: 'NGN',
      ...data,
    },
  };
}

describe('parseWebhookEvent with our default payload', () => {
  it('reads a payment.success with the amount in minor units', () => {
    expect(parseWebhookEvent(paymentWebhook())).toEqual({
      id: 'evt_01HF3Q8N2K',
      event: 'payment.success',
      reference: 'PBT-7f3a9c',
      tenantReference: null,
      status: 'SUCCESSFUL',
      amount: { amountMinor: 250050, currency: 'NGN' },
    });
  });

  it('reads a payment.failed', () => {
    const body = { ...paymentWebhook({ status: 'FAILED' }), event: 'payment.failed' };
    expect(parseWebhookEvent(body)).toMatchObject({ event: 'payment.failed', status: 'FAILED' });
  });

  it('prefers paymentReference over reference for payments', () => {
    const body = paymentWebhook({ reference: 'internal-1', paymentReference: 'PBT-7f3a9c' });
    expect(parseWebhookEvent(body)?.reference).toBe('PBT-7f3a9c');
  });

  it('falls back to reference when paymentReference is absent', () => {
    const body = paymentWebhook({ reference: 'PBT-only' });
    delete body.data.paymentReference;
    expect(parseWebhookEvent(body)?.reference).toBe('PBT-only');
  });

  it('reads 2500.55 exactly as 250055 kobo', () => {
    expect(parseWebhookEvent(paymentWebhook({ amount: 2500.55 }))?.amount).toEqual({
      amountMinor: 250055,
      currency: 'NGN',
    });
  });

  it('reads a payment amount sent as major-unit text', () => {
    expect(parseWebhookEvent(paymentWebhook({ amount: '2500.50' }))?.amount).toEqual({
      amountMinor: 250050,
      currency: 'NGN',
    });
  });

  it('converts with the currency of the event', () => {
    const gbp = paymentWebhook({ amount: 19.99, currency: 'GBP' });
    expect(parseWebhookEvent(gbp)?.amount).toEqual({ amountMinor: 1999, currency: 'GBP' });
    const kwd = paymentWebhook({ amount: 1.005, currency: 'KWD' });
    expect(parseWebhookEvent(kwd)?.amount).toEqual({ amountMinor: 1005, currency: 'KWD' });
    const jpy = paymentWebhook({ amount: 1500, currency: 'JPY' });
    expect(parseWebhookEvent(jpy)?.amount).toEqual({ amountMinor: 1500, currency: 'JPY' });
  });

  it('upper-cases the currency', () => {
    expect(parseWebhookEvent(paymentWebhook({ currency: 'ngn' }))?.amount).toEqual({
      amountMinor: 250050,
      currency: 'NGN',
    });
  });
});

describe('parseWebhookEvent with payout payloads', () => {
  it('reads a payout.success with the amount as a minor-unit digit string', () => {
    expect(parseWebhookEvent(payoutWebhook())).toEqual({
      id: 'evt_01HF3Q9Z7P',
      event: 'payout.success',
      reference: 'PO-20261122-0001',
      tenantReference: 'order-1001-payout',
      status: 'Completed',
      amount: { amountMinor: 150000, currency: 'NGN' },
    });
  });

  it.each(['payout.failed', 'payout.reversed'] as const)('reads a %s', (event) => {
    expect(parseWebhookEvent(payoutWebhook(event))).toMatchObject({
      event,
      reference: 'PO-20261122-0001',
      tenantReference: 'order-1001-payout',
      amount: { amountMinor: 150000, currency: 'NGN' },
    });
  });

  it('uses the service reference, not the tenantReference, as the reference', () => {
    const event = parseWebhookEvent(payoutWebhook());
    expect(event?.reference).toBe('PO-20261122-0001');
    expect(event?.tenantReference).toBe('order-1001-payout');
  });

  it('falls back to the tenantReference when the service reference is absent', () => {
    const body = payoutWebhook();
    const data: Record<string, unknown> = body.data;
    delete data.reference;
    expect(parseWebhookEvent(body)).toMatchObject({
      reference: 'order-1001-payout',
      tenantReference: 'order-1001-payout',
    });
  });

  it('does not read a payout digit string as major units', () => {
    // '150000' is 1,500.00 NGN in kobo, not 150,000.00 NGN.
    expect(parseWebhookEvent(payoutWebhook())?.amount?.amountMinor).not.toBe(15_000_000);
  });

  it('reads a payout amount in major-unit text as not money', () => {
    const event = parseWebhookEvent(payoutWebhook('payout.success', { amount: '1500.00' }));
    expect(event?.event).toBe('payout.success');
    expect(event?.amount).toBeNull();
  });
});

describe('parseWebhookEvent with other field names', () => {
  it('reads eventType, transactionReference and currencyCode', () => {
    const body = {
      eventId: 'wh_9',
      eventType: 'payment.success',
      data: {
        transactionReference: 'TX-42',
        paymentStatus: 'Successfull',
        amount: 100,
        currencyCode: 'GBP',
      },
    };
    expect(parseWebhookEvent(body)).toEqual({
      id: 'wh_9',
      event: 'payment.success',
      reference: 'TX-42',
      tenantReference: null,
      status: 'Successfull',
      amount: { amountMinor: 10000, currency: 'GBP' },
    });
  });

  it.each([
    ['type', { type: 'payment.failed' }],
    ['event_type', { event_type: 'payment.failed' }],
  ])('reads the event name from %s', (_field, name) => {
    const body = { ...name, data: { reference: 'PBT-1', amount: 10, currency: 'NGN' } };
    expect(parseWebhookEvent(body)?.event).toBe('payment.failed');
  });

  it('reads the event name regardless of case and surrounding space', () => {
    const body = { ...paymentWebhook(), event: ' PAYMENT.SUCCESS ' };
    expect(parseWebhookEvent(body)?.event).toBe('payment.success');
  });

  it('reads payload instead of data', () => {
    const body = {
      webhookId: 'wh_10',
      event: 'payout.failed',
      payload: {
        reference: 'PO-2',
        tenantReference: 'order-2-payout',
        status: 'Failed',
        amount: '99900',
        currency: 'NGN',
      },
    };
    expect(parseWebhookEvent(body)).toEqual({
      id: 'wh_10',
      event: 'payout.failed',
      reference: 'PO-2',
      tenantReference: 'order-2-payout',
      status: 'Failed',
      amount: { amountMinor: 99900, currency: 'NGN' },
    });
  });

  it('reads a flat body', () => {
    const body = {
      event: 'payment.success',
      paymentReference: 'PBA-5',
      status: 'SUCCESSFUL',
      amount: 19.99,
      currency: 'GBP',
    };
    expect(parseWebhookEvent(body)).toEqual({
      id: null,
      event: 'payment.success',
      reference: 'PBA-5',
      tenantReference: null,
      status: 'SUCCESSFUL',
      amount: { amountMinor: 1999, currency: 'GBP' },
    });
  });

  it('reads a numeric reference as text', () => {
    const body = { event: 'payment.success', data: { reference: 12345 } };
    expect(parseWebhookEvent(body)?.reference).toBe('12345');
  });

  it('reads a body with no status, id or amount, leaving them null', () => {
    const body = { event: 'payment.success', data: { reference: 'PBT-1' } };
    expect(parseWebhookEvent(body)).toEqual({
      id: null,
      event: 'payment.success',
      reference: 'PBT-1',
      tenantReference: null,
      status: null,
      amount: null,
    });
  });
});

describe('parseWebhookEvent refuses what cannot be a webhook of ours', () => {
  it.each(['payment.pending', 'charge.success', 'payout.created', 'payment', ''])(
    'returns undefined for the unknown event %j',
    (event) => {
      expect(parseWebhookEvent({ ...paymentWebhook(), event })).toBeUndefined();
    },
  );

  it('returns undefined without an event name', () => {
    const body: Record<string, unknown> = { ...paymentWebhook() };
    delete body.event;
    expect(parseWebhookEvent(body)).toBeUndefined();
  });

  it('returns undefined for an event name that is not text', () => {
    expect(parseWebhookEvent({ ...paymentWebhook(), event: { name: 'payment.success' } })).toBe(
      undefined,
    );
  });

  it.each([
    ['no reference at all', { status: 'SUCCESSFUL', amount: 10, currency: 'NGN' }],
    ['empty references', { reference: '', paymentReference: '  ', amount: 10, currency: 'NGN' }],
    ['references that are not text', { reference: null, paymentReference: { id: 'x' } }],
  ])('returns undefined for a payment with %s', (_label, data) => {
    expect(parseWebhookEvent({ event: 'payment.success', data })).toBeUndefined();
  });

  it('returns undefined for a payout without any reference', () => {
    const data = { status: 'Completed', amount: '150000', currency: 'NGN' };
    expect(parseWebhookEvent({ event: 'payout.success', data })).toBeUndefined();
  });

  it.each([
    ['undefined', undefined],
    ['null', null],
    ['a string', 'payment.success'],
    ['JSON text', JSON.stringify(paymentWebhook())],
    ['a number', 42],
    ['a boolean', true],
    ['an array', [paymentWebhook()]],
  ])('returns undefined for %s', (_label, body) => {
    expect(parseWebhookEvent(body)).toBeUndefined();
  });
});

describe('parseWebhookEvent with an amount that is not money', () => {
  it.each([
    ['too many decimals', { amount: 2500.555 }],
    ['a negative amount', { amount: -5 }],
    ['NaN', { amount: Number.NaN }],
    ['Infinity', { amount: Number.POSITIVE_INFINITY }],
    ['words', { amount: 'two thousand' }],
    ['an object', { amount: { value: 2500.5 } }],
    ['a boolean', { amount: true }],
    ['null', { amount: null }],
    ['an exponent', { amount: '1e3' }],
    ['an unknown currency', { currency: 'XYZ' }],
    ['a currency that is not text', { currency: 566 }],
  ])('reads the event with amount null for %s', (_label, data) => {
    const body = paymentWebhook(data as Partial<WireWebhook['data']>);
    const event = parseWebhookEvent(body);
    expect(event).toMatchObject({
      event: 'payment.success',
      reference: 'PBT-7f3a9c',
      status: 'SUCCESSFUL',
    });
    expect(event?.amount).toBeNull();
  });

  it('reads the event with amount null when the currency is missing', () => {
    const body = paymentWebhook();
    const data: Record<string, unknown> = body.data;
    delete data.currency;
    const event = parseWebhookEvent(body);
    expect(event?.reference).toBe('PBT-7f3a9c');
    expect(event?.amount).toBeNull();
  });

  it('reads a payout amount too large to be exact as null', () => {
    const event = parseWebhookEvent(
      payoutWebhook('payout.success', { amount: '99999999999999999999' }),
    );
    expect(event?.reference).toBe('PO-20261122-0001');
    expect(event?.amount).toBeNull();
  });

  it('never throws for a currency named like an Object.prototype key', () => {
    for (const currency of ['constructor', 'toString', '__proto__']) {
      const event = parseWebhookEvent(paymentWebhook({ currency }));
      expect(event?.reference).toBe('PBT-7f3a9c');
      expect(event?.amount).toBeNull();
    }
  });
});
