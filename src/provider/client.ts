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
  type PayoutRequirement,
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
  createProviderTransport,
  type ProviderTransport,
  type ProviderTransportOptions,
} from './transport';

export type ProviderClientOptions = ProviderTransportOptions;

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
  /** PayByAccount: where the bank sends the customer after deciding. */
  readonly returnUrl?: string | undefined;
  /** PayByAccount: false makes the bank page close itself instead of redirecting. */
  readonly redirect?: boolean | undefined;
  /** Card only. Never logged, never stored. */
  readonly card?: WireCard | undefined;
}

export interface CreatePaymentLinkInput {
  readonly name: string;
  readonly description?: string | undefined;
  readonly linkType: 'OneTime' | 'Reusable';
  readonly currency: string;
  /** A fixed amount; omit for a link where the payer chooses the amount. */
  readonly amount?: Money | undefined;
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
  | { readonly status: 'invalid'; readonly failures: readonly string[]; readonly message: string }
  | { readonly status: 'insufficient_balance'; readonly message: string }
  | { readonly status: 'conflict'; readonly message: string };

function requireMoney(name: string, money: Money): void {
  if (!isKnownCurrency(money.currency)) {
    throw new TypeError(`${name}.currency "${money.currency}" is not a supported currency.`);
  }
  if (!Number.isSafeInteger(money.amountMinor) || money.amountMinor <= 0) {
    throw new TypeError(`${name}.amountMinor must be a whole number of minor units above 0.`);
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

  /** Endpoint 9, one page. */
  async function transactionPage(page = 1, perPage = 20): Promise<TransactionPage> {
    if (!Number.isInteger(page) || page < 1)
      throw new TypeError('page must be a whole number from 1.');
    if (!Number.isInteger(perPage) || perPage < 1) {
      throw new TypeError('perPage must be a whole number from 1.');
    }
    const answer = await provider.send({
      operation: 'transactions',
      method: 'GET',
      path: `${PATHS.transactions}?page=${page}&perPage=${Math.min(perPage, 100)}`,
      retry: 'safe',
    });
    return parseTransactionPage(answer);
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
      requireText('name', input.name);
      if (!isKnownCurrency(input.currency))
        throw new TypeError(`currency "${input.currency}" is not supported.`);
      if (input.amount) {
        requireMoney('amount', input.amount);
        if (input.amount.currency !== input.currency)
          throw new TypeError('amount.currency must equal currency.');
      }
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

    /** Endpoint 7: the fields a payout form must ask for. */
    async payoutRequirements(input: PayoutRequirementsInput): Promise<PayoutRequirement[]> {
      requireMoney('amount', input.amount);
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
      return parsePayoutRequirements(answer);
    },

    /**
     * Endpoint 8. Retried after a timeout or a dropped connection with the same
     * tenantReference and body, so the provider returns the one transfer rather than a second.
     * Throws only when the outcome is unknown (every attempt failed): retry later with the same
     * tenantReference.
     */
    async sendFundTransfer(input: FundTransferInput): Promise<FundTransferOutcome> {
      requireText('tenantReference', input.tenantReference);
      requireMoney('amount', input.amount);
      const { beneficiary } = input;
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
          return { status: 'invalid', failures: error.failures, message: error.message };
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
     * Every transaction, page after page until `meta` says the last one; `perPage` is capped at
     * the provider's 100.
     * @example for await (const item of provider.transactions({ perPage: 100 })) console.log(item.id);
     */
    async *transactions(options: { perPage?: number } = {}): AsyncGenerator<TransactionListItem> {
      const perPage = Math.min(100, options.perPage ?? 100);
      for (let page = 1; ; page++) {
        const result = await transactionPage(page, perPage);
        yield* result.items;
        if (result.isLastPage || result.items.length === 0) return;
      }
    },
  };
}

export type ProviderClient = ReturnType<typeof createProviderClient>;
