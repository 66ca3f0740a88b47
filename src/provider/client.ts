/**
 * The server-only provider client: every operation of provider-api.md with clean types in and
 * out. The companion uses its payment operations; a merchant's back office uses the rest
 * (payment links, payouts, the transaction list). Never import this into browser code.
 */
import {
  type AuthenticationCheck,
  type Channel,
  type ChannelValidation,
  type Finalization,
  type FundTransferAccepted,
  type Initiation,
  InsufficientBalanceError,
  isKnownCurrency,
  type Money,
  PATHS,
  type PaymentLink,
  type PaymentStatusReport,
  type PayoutStatus,
  ProviderConflictError,
  ProviderValidationError,
  parseAuthenticationCheck,
  parseChannelValidation,
  parseFinalization,
  parseFundTransfer,
  parseInitiation,
  parsePaymentLink,
  parsePaymentStatus,
  parsePayoutRequirements,
  parseTransactionPage,
  referencePath,
  type TransactionListItem,
  type TransactionPage,
  toMajor,
  toMinorString,
  type WireCard,
  type WireFundTransferRequest,
  type WireInitiationRequest,
  type WirePaymentLinkRequest,
} from '../protocol';
import {
  type PayoutFieldFailure,
  type PayoutFormRequirement,
  toFieldFailures,
  toFormRequirement,
} from './payout-fields';
import {
  isPayoutNamed,
  memoryPayoutPositions,
  type Payout,
  type PayoutPositions,
  toPayout,
} from './payouts';
import {
  createProviderTransport,
  type ProviderTransport,
  type ProviderTransportOptions,
} from './transport';

export interface ProviderClientOptions extends ProviderTransportOptions {
  /**
   * Where payouts sit in the transaction list, remembered so `getPayout` reads one page. The
   * payouts handler passes its store, shared with the webhook receiver. Default: in memory.
   */
  readonly payoutPositions?: PayoutPositions | undefined;
}

/** The provider's list allows at most this many items per page (provider-api.md "Limits"). */
export const MAX_PER_PAGE = 100;
/** How many pages of 100 a lookup of a payout never seen before reads, newest first. */
const MAX_SCANNED_PAGES = 500;

export interface PayoutsOptions {
  /** Only payouts in this state. */
  readonly status?: PayoutStatus | undefined;
  /** Newest first (default oldest first, the list's own order). */
  readonly newestFirst?: boolean | undefined;
  /** Items per provider page, 1 to 100. Default 100. */
  readonly perPage?: number | undefined;
}

const PAYOUT_STATUSES: readonly PayoutStatus[] = ['Pending', 'Completed', 'Failed', 'Reversed'];

/** The customer, as initiation's `userInformation` takes it. */
export interface Customer {
  readonly firstName?: string | undefined;
  readonly lastName?: string | undefined;
  readonly email?: string | undefined;
  readonly phone?: string | undefined;
}

export interface InitiatePaymentInput {
  readonly channel: Channel;
  readonly amount: Money;
  readonly linkAlias?: string | undefined;
  readonly customer?: Customer | undefined;
  /** A bank payment: where the bank sends the customer after deciding. */
  readonly returnUrl?: string | undefined;
  /** A bank payment: false makes the bank page close itself instead of redirecting. */
  readonly redirect?: boolean | undefined;
  /** Card only. Never logged, never stored. */
  readonly card?: WireCard | undefined;
}

export interface CreatePaymentLinkInput {
  readonly name: string;
  readonly description?: string | undefined;
  /** `OneTime` (one payment, then `Paid`) or `Reusable`; anything else is refused. */
  readonly linkType: 'OneTime' | 'Reusable';
  readonly currency: string;
  /** A fixed amount; omit for a link where the payer chooses the amount. */
  readonly amount?: Money | undefined;
  /**
   * Where the link's hosted page sends the customer once the payment is final, with
   * `reference` and `alias` added to its query (`alias` and `cancelled=1` when they cancel).
   * An absolute http: or https: URL of at most 2048 characters.
   * @example returnUrl: 'https://shop.example/api/checkout/return?order=1042'
   */
  readonly returnUrl?: string | undefined;
}

export interface PayoutRequirementsInput {
  readonly amount: Money;
  /** Two-letter country code of the beneficiary's bank, e.g. NG. */
  readonly beneficiaryBankCountry: string;
}

export interface FundTransferInput {
  /** Your idempotency key: the same for every retry of this transfer, never regenerated. */
  readonly tenantReference: string;
  readonly amount: Money;
  readonly narration: string;
  readonly beneficiary: {
    readonly accountName: string;
    readonly accountNumber: string;
    readonly firstName?: string;
    readonly lastName?: string;
    readonly address?: string;
    readonly city?: string;
    readonly state?: string;
    readonly zip?: string;
    readonly countryIso?: string;
  };
  /** The routing field's name from payoutRequirements(), e.g. BankCode, SortCode. */
  readonly paymentMethodType: string;
  /** The routing value: bank code, sort code, routing number. */
  readonly paymentMethodValue: string;
}

/** What became of a fund transfer; the provider's refusals are outcomes, not throws. */
export type FundTransferOutcome =
  | ({ readonly status: 'accepted' } & FundTransferAccepted)
  | {
      readonly status: 'invalid';
      /** On the client's own field names, e.g. `{ field: 'beneficiary.accountNumber', message }`. */
      readonly failures: readonly PayoutFieldFailure[];
      /** The provider's sentences as it wrote them. */
      readonly providerFailures: readonly string[];
      readonly message: string;
    }
  | { readonly status: 'insufficient_balance'; readonly message: string }
  | { readonly status: 'conflict'; readonly message: string };

function requireMoney(name: string, money: Money): void {
  if (typeof money !== 'object' || money === null) {
    throw new TypeError(
      `${name} is required: { amountMinor, currency }, e.g. { amountMinor: 10000, currency: 'NGN' } for NGN 100.00.`,
    );
  }
  if (typeof money.currency !== 'string' || !isKnownCurrency(money.currency)) {
    throw new TypeError(`${name}.currency "${money.currency}" is not a supported currency.`);
  }
  if (!Number.isSafeInteger(money.amountMinor) || money.amountMinor <= 0) {
    throw new TypeError(
      `${name}.amountMinor must be a whole number of minor units above 0 (kobo, pence, cents: 10000 is 100.00), not ${String(money.amountMinor)}.`,
    );
  }
}

function requirePerPage(perPage: number): void {
  if (!Number.isInteger(perPage) || perPage < 1 || perPage > MAX_PER_PAGE) {
    throw new TypeError(
      `perPage must be a whole number from 1 to ${MAX_PER_PAGE} (the provider's limit), not ${String(perPage)}.`,
    );
  }
}

function optionalText(name: string, value: unknown): void {
  if (value !== undefined && typeof value !== 'string')
    throw new TypeError(`${name} must be a string when given.`);
}

/** The provider sends the customer's browser here: an absolute http(s) URL, as it accepts. */
function requireReturnUrl(value: unknown): void {
  let protocol = '';
  try {
    protocol = typeof value === 'string' ? new URL(value).protocol : '';
  } catch {
    // Not a URL at all: refused below with the same words.
  }
  if (typeof value !== 'string' || !/^https?:$/.test(protocol) || value.length > 2048) {
    throw new TypeError(
      `returnUrl must be an absolute http: or https: URL of at most 2048 characters, not ${JSON.stringify(typeof value === 'string' ? value.slice(0, 80) : value)}.`,
    );
  }
}

function requireText(name: string, value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '')
    throw new TypeError(`${name} must be a non-empty string.`);
  return value;
}

/**
 * @example
 * const provider = createProviderClient({ baseUrl: process.env.PROVIDER_BASE_URL, secretKey: process.env.PROVIDER_SECRET_KEY });
 * const outcome = await provider.sendFundTransfer({ tenantReference: 'refund-1042', ... });
 */
export function createProviderClient(
  options: ProviderClientOptions,
  transport?: ProviderTransport,
) {
  const provider = transport ?? createProviderTransport(options);
  const positions = options.payoutPositions ?? memoryPayoutPositions();

  /** Endpoint 9, one page. `perPage` above 100 is refused, as the provider would. */
  async function transactionPage(page = 1, perPage = 20): Promise<TransactionPage> {
    if (!Number.isInteger(page) || page < 1)
      throw new TypeError(`page must be a whole number from 1, not ${String(page)}.`);
    requirePerPage(perPage);
    const answer = await provider.send({
      operation: 'transactions',
      method: 'GET',
      path: `${PATHS.transactions}?page=${page}&perPage=${perPage}`,
      retry: 'safe',
    });
    return parseTransactionPage(answer);
  }

  async function remember(payout: Payout, position: number): Promise<void> {
    await positions.set(payout.reference, position);
    if (payout.tenantReference) await positions.set(payout.tenantReference, position);
  }

  /**
   * One payout by the provider's reference or by your tenantReference; null when the list has
   * none. Its position is remembered, so the next lookup reads one page.
   */
  async function getPayout(referenceOrTenantReference: string): Promise<Payout | null> {
    const reference = requireText('referenceOrTenantReference', referenceOrTenantReference);
    const known = await positions.get(reference);
    if (known !== undefined) {
      const page = await transactionPage(Math.floor(known / MAX_PER_PAGE) + 1, MAX_PER_PAGE);
      const item = page.items.find((entry) => isPayoutNamed(entry, reference));
      const payout = item && toPayout(item);
      if (payout) return payout;
    }
    // Never seen: payouts are recent, so read from the last page back.
    const first = await transactionPage(1, MAX_PER_PAGE);
    const last = first.meta.pageCount;
    for (let number = last; number >= 1 && last - number < MAX_SCANNED_PAGES; number--) {
      const page = number === 1 ? first : await transactionPage(number, MAX_PER_PAGE);
      const index = page.items.findIndex((entry) => isPayoutNamed(entry, reference));
      const item = page.items[index];
      const payout = item && toPayout(item);
      if (payout) {
        await remember(payout, page.meta.skipped + index);
        return payout;
      }
    }
    return null;
  }

  /** Every payout of the list, oldest first or newest first, optionally in one state. */
  async function* payouts(options: PayoutsOptions = {}): AsyncGenerator<Payout> {
    if (typeof options !== 'object' || options === null)
      throw new TypeError('payouts() takes { status?, newestFirst?, perPage? }.');
    const { status, newestFirst = false, perPage = MAX_PER_PAGE } = options;
    if (status !== undefined && !PAYOUT_STATUSES.includes(status)) {
      throw new TypeError(
        `status must be one of ${PAYOUT_STATUSES.join(', ')}, not "${String(status)}".`,
      );
    }
    requirePerPage(perPage);
    const emit = async function* (page: TransactionPage) {
      const entries = page.items.map((item, index) => ({ item, index }));
      if (newestFirst) entries.reverse();
      for (const { item, index } of entries) {
        const payout = toPayout(item);
        if (!payout) continue;
        await remember(payout, page.meta.skipped + index);
        if (status === undefined || payout.status === status) yield payout;
      }
    };
    if (!newestFirst) {
      for (let number = 1; ; number++) {
        const page = await transactionPage(number, perPage);
        yield* emit(page);
        if (page.isLastPage || page.items.length === 0) return;
      }
    }
    // Newest first: the list only grows at its end, so pages below the last never shift.
    const first = await transactionPage(1, perPage);
    for (let number = first.meta.pageCount; number >= 1; number--) {
      yield* emit(number === 1 ? first : await transactionPage(number, perPage));
    }
  }

  return {
    /** Endpoint 2: which channels take this amount. */
    async validateChannels(
      amount: Money,
      channels?: readonly Channel[],
    ): Promise<ChannelValidation> {
      requireMoney('amount', amount);
      const answer = await provider.send({
        operation: 'validate',
        method: 'POST',
        path: PATHS.validate,
        body: {
          amount: {
            currencyCode: amount.currency,
            amount: toMajor(amount.amountMinor, amount.currency),
          },
          ...(channels ? { channels } : {}),
        },
        retry: 'safe',
      });
      return parseChannelValidation(answer);
    },

    /** Endpoint 3. Never retried: a second initiation would be a second payment. */
    async initiatePayment(input: InitiatePaymentInput): Promise<Initiation> {
      requireMoney('amount', input.amount);
      const customer = input.customer;
      const body: WireInitiationRequest = {
        amount: toMajor(input.amount.amountMinor, input.amount.currency),
        channel: input.channel,
        currency: input.amount.currency,
        ...(input.linkAlias ? { link: { alias: input.linkAlias } } : {}),
        ...(customer
          ? {
              userInformation: {
                ...(customer.firstName ? { firstName: customer.firstName } : {}),
                ...(customer.lastName ? { lastName: customer.lastName } : {}),
                ...(customer.email ? { emailAddress: customer.email } : {}),
                ...(customer.phone ? { phone: customer.phone } : {}),
              },
            }
          : {}),
        ...(input.returnUrl !== undefined || input.redirect !== undefined
          ? {
              metaData: {
                ...(input.returnUrl !== undefined ? { 'return-url': input.returnUrl } : {}),
                ...(input.redirect !== undefined ? { redirect: input.redirect } : {}),
              },
            }
          : {}),
        ...(input.card ? { card: input.card } : {}),
      };
      const answer = await provider.send({
        operation: 'initiate',
        method: 'POST',
        path: PATHS.initiate,
        body,
        retry: 'never',
      });
      return parseInitiation(answer, { currency: input.amount.currency });
    },

    /** Endpoint 4: does this payment need a challenge? */
    async checkAuthentication(reference: string): Promise<AuthenticationCheck> {
      const answer = await provider.send({
        operation: 'authenticate',
        method: 'GET',
        path: referencePath('authenticate', requireText('reference', reference)),
        retry: 'safe',
      });
      return parseAuthenticationCheck(answer);
    },

    /** Endpoint 5: the customer's part is done. Not retried blindly. */
    async finalizePayment(reference: string): Promise<Finalization> {
      const answer = await provider.send({
        operation: 'finalize',
        method: 'POST',
        path: PATHS.finalize,
        body: { paymentReference: requireText('reference', reference) },
        retry: 'never',
      });
      return parseFinalization(answer);
    },

    /** Endpoint 6. Poll sparingly: the provider rate-limits it. */
    async paymentStatus(reference: string): Promise<PaymentStatusReport> {
      const answer = await provider.send({
        operation: 'status',
        method: 'GET',
        path: referencePath('status', requireText('reference', reference)),
        retry: 'safe',
      });
      return parsePaymentStatus(answer);
    },

    /** Endpoint 1. Not retried: a retry could create a second link. */
    async createPaymentLink(input: CreatePaymentLinkInput): Promise<PaymentLink> {
      if (typeof input !== 'object' || input === null)
        throw new TypeError('createPaymentLink needs { name, linkType, currency, amount? }.');
      requireText('name', input.name);
      optionalText('description', input.description);
      if (input.linkType !== 'OneTime' && input.linkType !== 'Reusable') {
        throw new TypeError(
          `linkType must be 'OneTime' or 'Reusable', not ${JSON.stringify(input.linkType)}.`,
        );
      }
      if (!isKnownCurrency(input.currency))
        throw new TypeError(`currency "${input.currency}" is not supported.`);
      if (input.amount) {
        requireMoney('amount', input.amount);
        if (input.amount.currency !== input.currency)
          throw new TypeError('amount.currency must equal currency.');
      }
      if (input.returnUrl !== undefined) requireReturnUrl(input.returnUrl);
      const body: WirePaymentLinkRequest = {
        name: input.name,
        ...(input.description ? { description: input.description } : {}),
        linkType: input.linkType === 'OneTime' ? 0 : 1,
        amountType: input.amount ? 0 : 1,
        currencyCode: input.currency,
        ...(input.amount
          ? {
              amountInfo: {
                currencyCode: input.currency,
                amount: toMajor(input.amount.amountMinor, input.currency),
              },
            }
          : {}),
        ...(input.returnUrl !== undefined ? { metaData: { 'return-url': input.returnUrl } } : {}),
      };
      const answer = await provider.send({
        operation: 'paymentLink',
        method: 'POST',
        path: PATHS.paymentLink,
        body,
        retry: 'never',
      });
      return parsePaymentLink(answer);
    },

    /**
     * Endpoint 7: the fields a payout form must ask for, as descriptors it can render (name,
     * label, pattern, length, example), on the client's own field names.
     * @example const [ngn] = await provider.payoutRequirements({ amount: { amountMinor: 150_000, currency: 'NGN' }, beneficiaryBankCountry: 'NG' });
     * ngn.fields.map((field) => field.label); // ['Account name', 'Account number', 'Bank code']
     */
    async payoutRequirements(input: PayoutRequirementsInput): Promise<PayoutFormRequirement[]> {
      if (typeof input !== 'object' || input === null)
        throw new TypeError('payoutRequirements needs { amount, beneficiaryBankCountry }.');
      requireMoney('amount', input.amount);
      if (!/^[A-Z]{2}$/.test(String(input.beneficiaryBankCountry))) {
        throw new TypeError(
          `beneficiaryBankCountry must be a two-letter country code such as NG, not ${JSON.stringify(input.beneficiaryBankCountry)}.`,
        );
      }
      const answer = await provider.send({
        operation: 'paymentMethods',
        method: 'POST',
        path: PATHS.paymentMethods,
        body: {
          BeneficiaryCurrencyCode: input.amount.currency,
          BeneficiaryBankCountryCode: requireText(
            'beneficiaryBankCountry',
            input.beneficiaryBankCountry,
          ),
          CurrencyCode: input.amount.currency,
          Amount: toMinorString(input.amount.amountMinor),
        },
        retry: 'safe',
      });
      return parsePayoutRequirements(answer).map(toFormRequirement);
    },

    /**
     * Endpoint 8. Retried after a timeout or a dropped connection with the same
     * tenantReference and body, so the provider returns the one transfer rather than a second.
     * Throws only when the outcome is unknown (every attempt failed): retry later with the same
     * tenantReference.
     */
    async sendFundTransfer(input: FundTransferInput): Promise<FundTransferOutcome> {
      if (typeof input !== 'object' || input === null)
        throw new TypeError('sendFundTransfer needs a FundTransferInput object.');
      requireText('tenantReference', input.tenantReference);
      requireMoney('amount', input.amount);
      const { beneficiary } = input;
      if (typeof beneficiary !== 'object' || beneficiary === null) {
        throw new TypeError(
          'beneficiary is required: { accountName, accountNumber } (and the address fields where the requirements ask for them).',
        );
      }
      for (const name of ['accountName', 'accountNumber'] as const) {
        if (typeof beneficiary[name] !== 'string')
          throw new TypeError(`beneficiary.${name} must be a string.`);
      }
      for (const name of [
        'firstName',
        'lastName',
        'address',
        'city',
        'state',
        'zip',
        'countryIso',
      ] as const)
        optionalText(`beneficiary.${name}`, beneficiary[name]);
      for (const name of ['narration', 'paymentMethodType', 'paymentMethodValue'] as const) {
        if (typeof input[name] !== 'string') throw new TypeError(`${name} must be a string.`);
      }
      const body: WireFundTransferRequest = {
        tenantReference: input.tenantReference,
        amount: toMinorString(input.amount.amountMinor),
        currencyCode: input.amount.currency,
        narration: input.narration,
        beneficiaryAccountName: beneficiary.accountName,
        beneficiaryAccountNumber: beneficiary.accountNumber,
        paymentMethodType: input.paymentMethodType,
        paymentMethodValue: input.paymentMethodValue,
        ...(beneficiary.firstName ? { beneficiaryFirstName: beneficiary.firstName } : {}),
        ...(beneficiary.lastName ? { beneficiaryLastName: beneficiary.lastName } : {}),
        ...(beneficiary.address ? { beneficiaryAddress: beneficiary.address } : {}),
        ...(beneficiary.city ? { beneficiaryCity: beneficiary.city } : {}),
        ...(beneficiary.state ? { beneficiaryState: beneficiary.state } : {}),
        ...(beneficiary.zip ? { beneficiaryZIP: beneficiary.zip } : {}),
        ...(beneficiary.countryIso ? { beneficiaryCountryIso: beneficiary.countryIso } : {}),
      };
      try {
        const answer = await provider.send({
          operation: 'fundTransfer',
          method: 'POST',
          path: PATHS.fundTransfer,
          body,
          retry: 'idempotent',
        });
        return { status: 'accepted', ...parseFundTransfer(answer) };
      } catch (error) {
        if (error instanceof ProviderValidationError) {
          return {
            status: 'invalid',
            failures: toFieldFailures(error.failures),
            providerFailures: error.failures,
            message: error.message,
          };
        }
        if (error instanceof InsufficientBalanceError) {
          return { status: 'insufficient_balance', message: error.message };
        }
        if (error instanceof ProviderConflictError)
          return { status: 'conflict', message: error.message };
        throw error;
      }
    },

    transactionPage,

    /**
     * Every transaction, page after page until `meta` says the last one; `perPage` from 1 to
     * the provider's 100.
     * @example for await (const item of provider.transactions({ perPage: 100 })) console.log(item.id);
     */
    async *transactions(options: { perPage?: number } = {}): AsyncGenerator<TransactionListItem> {
      const perPage = options.perPage ?? MAX_PER_PAGE;
      requirePerPage(perPage);
      for (let page = 1; ; page++) {
        const result = await transactionPage(page, perPage);
        yield* result.items;
        if (result.isLastPage || result.items.length === 0) return;
      }
    },

    getPayout,

    /**
     * Every payout, read from the transaction list with the protocol's status names.
     * @example for await (const payout of provider.payouts({ status: 'Failed', newestFirst: true })) console.log(payout.reference);
     */
    payouts,
  };
}

export type ProviderClient = ReturnType<typeof createProviderClient>;
