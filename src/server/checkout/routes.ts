/**
 * The companion's routes, by path (COMPANION_PATHS, as the widget calls them) and method: each
 * route's work, from reading its input to the answer. The handler (handler.ts) checks origins
 * and dispatches here; nothing else answers.
 */
import * as v from 'valibot';
import { COMPANION_PATHS } from '../../protocol/contract';
import {
  CheckoutError,
  type CheckoutLogger,
  clientAddressOf,
  clientSignal,
  eventStream,
  jsonAnswer,
  readJson as readBodyJson,
  type ShopOrigins,
} from '../http';
import type { CheckoutStore } from '../store';
import type { CallClaims } from './call-claims';
import { CARD_FRAME_PATH, CARD_PATH, cardFramePage } from './card-frame';
import { CARD } from './channels';
import type { CheckoutHandlerOptions } from './options';
import { challengeFrame, challengePage, missingPage, returnPage } from './pages';
import { paymentKeysOf, rememberPaymentKey } from './payment-key-cookie';
import type { PaymentService } from './payments';
import {
  CARD_ON_INITIATE_ISSUE,
  CardInput,
  CardPageInput,
  InitiateInput,
  issuesOf,
  SessionInput,
} from './schemas';
import type { CheckoutClaims, TokenSigner } from './token';

/** Browser bodies are small: an order id, a channel, a card. */
const MAX_BODY_BYTES = 8 * 1024;

/** What one route is given: the request, its URL, the headers to answer with, the public URL. */
export interface RouteContext {
  readonly request: Request;
  readonly url: URL;
  readonly headers: Headers;
  readonly publicUrl: string;
}
export type Route = (context: RouteContext) => Promise<Response>;
export type Routes = ReadonlyMap<string, Partial<Record<'GET' | 'POST', Route>>>;

export interface CheckoutRoutesDeps {
  readonly options: CheckoutHandlerOptions;
  readonly store: CheckoutStore;
  readonly signer: TokenSigner;
  readonly logger: CheckoutLogger;
  readonly payments: PaymentService;
  readonly claims: CallClaims;
  readonly receiveWebhook: (request: Request) => Promise<Response>;
  /** The shop's own pages, or one the merchant allowed (handler.ts). */
  readonly originAllowed: (origin: string, request: Request) => boolean;
  readonly shopOriginsFor: (request: Request) => ShopOrigins;
  readonly publicOrigin: string | undefined;
  readonly allowedOrigins: ReadonlySet<string>;
  /** Takes one of a checkout's event-stream places, or refuses (handler.ts). */
  readonly eventStreamSlot: (checkoutId: string) => () => void;
}

export function createCheckoutRoutes(deps: CheckoutRoutesDeps): Routes {
  const {
    options,
    store,
    signer,
    logger,
    payments,
    receiveWebhook,
    originAllowed,
    shopOriginsFor,
    publicOrigin,
    allowedOrigins,
    eventStreamSlot,
  } = deps;
  const { tokenOf, claimsOf, paymentClaims, watchedClaims } = deps.claims;
  const json = (body: unknown, headers: Headers, status = 200) => jsonAnswer(body, status, headers);
  const readJson = (request: Request) => readBodyJson(request, MAX_BODY_BYTES, { logger });

  function parse<S extends v.GenericSchema>(schema: S, input: unknown): v.InferOutput<S> {
    const result = v.safeParse(schema, input);
    if (!result.success) {
      throw new CheckoutError('invalid_request', 'The request is not valid.', {
        issues: issuesOf(result.issues),
      });
    }
    return result.output;
  }

  /** The page that opened the checkout: the only one that may frame the challenge, or hear it. */
  const pageOrigin = (claims: CheckoutClaims, publicUrl: string) =>
    claims.origin ?? new URL(publicUrl).origin;

  /**
   * The companion's routes, by path (COMPANION_PATHS, as the widget calls them) and method, like
   * the sandbox's table: nothing else answers.
   */
  return new Map<string, Partial<Record<'GET' | 'POST', Route>>>([
    [
      COMPANION_PATHS.session,
      {
        POST: async ({ request, headers }) => {
          const input = parse(SessionInput, await readJson(request));
          // The keys of the payments this browser started: sent, or kept in its cookie.
          const paymentKeys = [...(input.paymentKeys ?? []), ...paymentKeysOf(request)];
          return json(
            await payments.startSession(
              { ...input, paymentKeys },
              request.headers.get('origin'),
              request,
            ),
            headers,
          );
        },
      },
    ],
    [
      COMPANION_PATHS.initiate,
      {
        POST: async ({ request, url, headers, publicUrl }) => {
          const claims = await claimsOf(request, url);
          const body = await readJson(request);
          if (body && typeof body === 'object' && Object.hasOwn(body, 'card')) {
            throw new CheckoutError('invalid_request', 'The request is not valid.', {
              issues: [`card ${CARD_ON_INITIATE_ISSUE}`],
            });
          }
          const input = parse(InitiateInput, body);
          const allowedReturn = (target: string) => originAllowed(new URL(target).origin, request);
          const client = { request, address: clientAddressOf(request, options) };
          const answer = await payments.initiate(claims, input, publicUrl, allowedReturn, client);
          rememberPaymentKey(headers, request, answer.paymentKey, publicUrl);
          return json(answer, headers);
        },
      },
    ],
    [
      COMPANION_PATHS.cardPage,
      {
        POST: async ({ request, url, headers, publicUrl }) => {
          const claims = await claimsOf(request, url);
          // The body is optional: only a full-page redirect needs `returnTo`.
          const input = parse(
            CardPageInput,
            request.headers.get('content-type') === null ? {} : await readJson(request),
          );
          const allowedReturn = (target: string) => originAllowed(new URL(target).origin, request);
          const client = { request, address: clientAddressOf(request, options) };
          return json(
            await payments.openCardPage(claims, input, publicUrl, allowedReturn, client),
            headers,
          );
        },
      },
    ],
    [
      CARD_FRAME_PATH,
      {
        GET: async ({ request, publicUrl }) =>
          cardFramePage(`${publicUrl}/assets`, [
            ...new Set([
              ...(publicOrigin ? [publicOrigin] : []),
              ...shopOriginsFor(request).accepted,
              ...allowedOrigins,
            ]),
          ]),
      },
    ],
    [
      CARD_PATH,
      {
        // The card frame's own call (its origin checked in handle): the same initiation as
        // /initiate, with the card it alone may send.
        POST: async ({ request, url, headers, publicUrl }) => {
          const claims = await claimsOf(request, url);
          const { card, customer } = parse(CardInput, await readJson(request));
          // Counted against the customer's address like any card attempt (issue 20).
          const client = { request, address: clientAddressOf(request, options) };
          return json(
            await payments.initiate(
              claims,
              { channel: CARD, card, customer },
              publicUrl,
              () => false,
              client,
            ),
            headers,
          );
        },
      },
    ],
    [
      COMPANION_PATHS.cardPagePayment,
      {
        // POST, though it only reads: the widget's one call shape (a token, no body) is enough.
        POST: async ({ request, url, headers }) =>
          json(await payments.cardPagePayment(await claimsOf(request, url)), headers),
      },
    ],
    [
      COMPANION_PATHS.authenticate,
      {
        POST: async ({ request, url, headers, publicUrl }) => {
          const claims = await paymentClaims(request, url);
          const token = tokenOf(request, url);
          const challengeUrl = `${publicUrl}${COMPANION_PATHS.challenge}?token=${encodeURIComponent(token)}`;
          return json(await payments.authenticate(claims.reference, challengeUrl), headers);
        },
      },
    ],
    [
      COMPANION_PATHS.finalize,
      {
        POST: async ({ request, url, headers }) => {
          const claims = await paymentClaims(request, url);
          return json(await payments.finalize(claims.reference), headers);
        },
      },
    ],
    [
      COMPANION_PATHS.status,
      {
        GET: async ({ request, url, headers }) => {
          const claims = await watchedClaims(request, url);
          return json(await payments.status(claims.reference), headers);
        },
      },
    ],
    [
      COMPANION_PATHS.events,
      {
        GET: async ({ request, url, headers }) => {
          const claims = await watchedClaims(request, url);
          const lastEventId =
            request.headers.get('last-event-id') ?? url.searchParams.get('lastEventId');
          await payments.watching(claims.reference);
          const release = eventStreamSlot(claims.sid);
          return eventStream(
            store,
            claims.reference,
            lastEventId,
            clientSignal(request),
            headers,
            release,
          );
        },
      },
    ],
    [
      COMPANION_PATHS.bankReturn,
      {
        GET: async ({ url, publicUrl }) => {
          const reference = url.searchParams.get('reference');
          // The provider's hosted card page comes back with its link's alias too (or a cancel).
          const alias = url.searchParams.get('alias');
          const cancelled = url.searchParams.get('cancelled') === '1';
          const valid = (value: string | null) => value !== null && /^[\w.:-]{1,128}$/.test(value);
          if (
            alias !== null ? !valid(alias) || (!cancelled && !valid(reference)) : !valid(reference)
          )
            return missingPage('This link is not a payment return.');
          const { returnTo } = await payments.bankReturn(
            cancelled ? null : reference,
            alias,
            cancelled,
          );
          return returnPage(`${publicUrl}/assets`, cancelled ? '' : (reference ?? ''), returnTo, {
            alias,
            cancelled,
          });
        },
      },
    ],
    [
      COMPANION_PATHS.challenge,
      {
        GET: async ({ request, url, publicUrl }) => {
          const claims = await paymentClaims(request, url);
          if (!(await payments.challengeHtml(claims.reference)))
            return missingPage('No verification is waiting.');
          // The issuer's markup can read its frame's URL: it gets a ticket for itself, not the token.
          const ticket = signer.sign({
            ...claims,
            scope: 'frame',
            exp: Math.min(claims.exp, Math.floor(Date.now() / 1000) + 15 * 60),
          });
          const frameUrl = `${publicUrl}${COMPANION_PATHS.challengeFrame}?token=${encodeURIComponent(ticket)}`;
          return challengePage(
            `${publicUrl}/assets`,
            frameUrl,
            claims.reference,
            pageOrigin(claims, publicUrl),
          );
        },
      },
    ],
    [
      COMPANION_PATHS.challengeFrame,
      {
        GET: async ({ request, url, publicUrl }) => {
          const claims = await paymentClaims(request, url, 'frame');
          const markup = await payments.challengeHtml(claims.reference);
          return markup
            ? challengeFrame(markup, pageOrigin(claims, publicUrl))
            : missingPage('No verification is waiting.');
        },
      },
    ],
    [COMPANION_PATHS.webhooks, { POST: ({ request }) => receiveWebhook(request) }],
  ]);
}
