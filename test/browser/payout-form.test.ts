// @vitest-environment jsdom
// The payout form (issue 14) as a person finds it, by label and role: fields from the
// requirements, validated as typed, the amount sent in minor units, the provider's failures on
// their fields, insufficient balance said plainly, and one tenantReference per submission.
import './setup-dom';
import { act, fireEvent, render, screen } from '@testing-library/preact';
import { h } from 'preact';
import { describe, expect, it } from 'vitest';
import { BackOfficeError } from '../../src/back-office/back-office-api';
import { PayoutForm } from '../../src/back-office/PayoutForm';
import { createPayoutFormModel } from '../../src/back-office/payout-form-model';
import type {
  PayoutFormRequirement,
  PayoutRequestWire,
  PayoutResultWire,
} from '../../src/protocol/back-office';

const NGN: PayoutFormRequirement = {
  currency: 'NGN',
  paymentMethodType: 'BankCode',
  paymentDestination: 'Local',
  requireFileUpload: false,
  fields: [
    {
      name: 'beneficiary.accountName',
      wireName: 'beneficiaryAccountName',
      label: 'Account name',
      pattern: null,
      minLength: 1,
      maxLength: 100,
      example: 'Ada Obi',
      numeric: false,
      required: true,
    },
    {
      name: 'beneficiary.accountNumber',
      wireName: 'beneficiaryAccountNumber',
      label: 'Account number',
      pattern: '\\d{10}',
      minLength: 10,
      maxLength: 10,
      example: '0123456789',
      numeric: true,
      required: true,
    },
    {
      name: 'paymentMethodValue',
      wireName: 'paymentMethodValue',
      label: 'Bank code',
      pattern: '\\d{3,6}',
      minLength: 3,
      maxLength: 6,
      example: '058',
      numeric: true,
      required: true,
    },
  ],
};
const GBP: PayoutFormRequirement = {
  ...NGN,
  currency: 'GBP',
  paymentMethodType: 'SortCode',
  fields: [
    NGN.fields[0] as PayoutFormRequirement['fields'][number],
    {
      ...(NGN.fields[1] as PayoutFormRequirement['fields'][number]),
      pattern: '\\d{8}',
      minLength: 8,
      maxLength: 8,
      example: '31926819',
    },
    {
      ...(NGN.fields[2] as PayoutFormRequirement['fields'][number]),
      label: 'Sort code',
      pattern: '\\d{2}-?\\d{2}-?\\d{2}',
      minLength: 6,
      maxLength: 8,
      example: '40-47-84',
    },
  ],
};

function fakeApi(answers: Array<PayoutResultWire | Error>) {
  const sent: PayoutRequestWire[] = [];
  return {
    sent,
    api: {
      requirements: async (currency: string) => (currency === 'GBP' ? GBP : NGN),
      sendPayout: async (body: PayoutRequestWire) => {
        sent.push(body);
        const next = answers.shift();
        if (!next) throw new Error('no answer scripted');
        if (next instanceof Error) throw next;
        return next;
      },
    },
  };
}

async function settle() {
  await act(async () => {
    for (let i = 0; i < 20; i++) await Promise.resolve();
  });
}

async function renderForm(answers: Array<PayoutResultWire | Error> = []) {
  const rig = fakeApi(answers);
  let n = 0;
  const model = createPayoutFormModel(
    { api: rig.api, newReference: () => `payout-test-${++n}`, sleep: async () => {} },
    'NGN',
  );
  render(h(PayoutForm, { api: rig.api, model }));
  await settle();
  return rig;
}

function type(label: string | RegExp, value: string) {
  fireEvent.input(screen.getByLabelText(label), { target: { value } });
}

function fillValid() {
  type(/^Amount/, '1500.50');
  type('Account name', 'Ada Obi');
  type('Account number', '0123456789');
  type('Bank code', '058');
  type('Narration', 'Supplier invoice 88');
}

const accepted: PayoutResultWire = {
  status: 'accepted',
  payout: {
    reference: 'PO_1',
    tenantReference: 'payout-test-1',
    status: 'Pending',
    amount: { amountMinor: 150_050, currency: 'NGN' },
    reason: null,
    createdAt: null,
    updatedAt: null,
  },
};

describe('PayoutForm', () => {
  it('renders the NGN fields from the requirements, each labelled, then GBP ones', async () => {
    await renderForm();
    for (const label of [
      /^Amount \(NGN\)/,
      'Account name',
      'Account number',
      'Bank code',
      'Narration',
    ])
      expect(screen.getAllByLabelText(label)).toHaveLength(1);
    fireEvent.change(screen.getByLabelText('Currency'), { target: { value: 'GBP' } });
    await settle();
    expect(screen.getAllByLabelText('Sort code')).toHaveLength(1);
    expect(screen.queryByLabelText('Bank code')).toBeNull();
  });

  it('validates as typed: the error on its field, aria-invalid, described by', async () => {
    await renderForm();
    type('Account number', '12');
    const input = screen.getByLabelText('Account number');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    const describedBy = input.getAttribute('aria-describedby') ?? '';
    const error = describedBy
      .split(' ')
      .map((id) => document.getElementById(id)?.textContent)
      .join(' ');
    expect(error).toMatch(/Account number must be 10 digits/);
    type('Account number', '0123456789');
    expect(input.getAttribute('aria-invalid')).toBe('false');
  });

  it('refuses to send with empty fields, says so, focuses the first one', async () => {
    const rig = await renderForm();
    fireEvent.submit(screen.getByRole('button', { name: 'Send payout' }));
    await settle();
    expect(rig.sent).toHaveLength(0);
    expect(
      screen
        .getAllByRole('alert')
        .map((node) => node.textContent)
        .join(' '),
    ).toMatch(/Nothing was sent/);
    expect(document.activeElement).toBe(screen.getByLabelText(/^Amount/));
  });

  it('sends the amount in minor units with one tenantReference, and announces the payout', async () => {
    const rig = await renderForm([accepted]);
    fillValid();
    fireEvent.submit(screen.getByRole('button', { name: 'Send payout' }));
    await settle();
    expect(rig.sent).toEqual([
      {
        tenantReference: 'payout-test-1',
        amount: { amountMinor: 150_050, currency: 'NGN' },
        narration: 'Supplier invoice 88',
        paymentMethodType: 'BankCode',
        paymentMethodValue: '058',
        beneficiary: { accountName: 'Ada Obi', accountNumber: '0123456789' },
      },
    ]);
    expect(screen.getByRole('status').textContent).toMatch(
      /Payout PO_1 of .* accepted by the provider: Pending\./,
    );
  });

  it('a lost answer is retried with the same tenantReference', async () => {
    const rig = await renderForm([new BackOfficeError('no answer', 0, 'network'), accepted]);
    fillValid();
    fireEvent.submit(screen.getByRole('button', { name: 'Send payout' }));
    await settle();
    expect(rig.sent.map((body) => body.tenantReference)).toEqual([
      'payout-test-1',
      'payout-test-1',
    ]);
  });

  it("the provider's failures land on their fields; insufficient balance is said plainly", async () => {
    const rig = await renderForm([
      {
        status: 'invalid',
        failures: [{ field: 'paymentMethodValue', message: 'Bank code is unknown.' }],
      },
      { status: 'insufficient_balance', message: 'Wallet balance is not sufficient' },
    ]);
    fillValid();
    fireEvent.submit(screen.getByRole('button', { name: 'Send payout' }));
    await settle();
    expect(screen.getByLabelText('Bank code').getAttribute('aria-invalid')).toBe('true');
    expect(document.body.textContent).toMatch(/Bank code is unknown\./);
    type('Bank code', '044');
    fireEvent.submit(screen.getByRole('button', { name: 'Send payout' }));
    await settle();
    expect(rig.sent).toHaveLength(2);
    expect(rig.sent[0]?.tenantReference).not.toBe(rig.sent[1]?.tenantReference);
    expect(screen.getByLabelText(/^Amount/).getAttribute('aria-invalid')).toBe('true');
    expect(
      screen
        .getAllByRole('alert')
        .map((node) => node.textContent)
        .join(' '),
    ).toMatch(/Your NGN balance is not enough for this payout\. Nothing was sent\./);
  });
});
