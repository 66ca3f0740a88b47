/**
 * Which payment a browser's call is about: the checkout token it sends (a Bearer header, or
 * `?token=` where a page cannot send headers), verified, its scope checked, and for a hosted card
 * page's token the payment that page made.
 */
import { CheckoutError } from '../http';
import type { HostedCard } from './hosted-card';
import type { CheckoutClaims, TokenSigner } from './token';

export interface CallClaimsDeps {
  readonly signer: TokenSigner;
  readonly hosted: HostedCard;
}

export function createCallClaims(deps: CallClaimsDeps) {
  const { signer, hosted } = deps;

  function tokenOf(request: Request, url: URL): string {
    const header = request.headers.get('authorization');
    const token = header?.startsWith('Bearer ')
      ? header.slice(7).trim()
      : url.searchParams.get('token');
    if (!token) throw new CheckoutError('unauthorized', 'This call needs the checkout token.');
    return token;
  }

  async function claimsOf(
    request: Request,
    url: URL,
    scope?: CheckoutClaims['scope'],
  ): Promise<CheckoutClaims> {
    const check = signer.verify(tokenOf(request, url), Math.floor(Date.now() / 1000));
    if (!check.ok) {
      throw new CheckoutError(
        'unauthorized',
        check.reason === 'expired'
          ? 'The checkout has expired; start it again.'
          : 'The checkout token is not valid.',
      );
    }
    // A frame ticket opens the challenge markup and nothing else; a checkout token, not that.
    if (check.claims.scope !== scope) {
      throw new CheckoutError('unauthorized', 'The checkout token is not valid here.');
    }
    return check.claims;
  }

  /** The token of one payment; it opens that payment and no other. */
  async function paymentClaims(
    request: Request,
    url: URL,
    scope?: CheckoutClaims['scope'],
  ): Promise<CheckoutClaims & { reference: string }> {
    const claims = await claimsOf(request, url, scope);
    if (!claims.reference) throw new CheckoutError('not_initiated', 'Start the payment first.');
    return claims as CheckoutClaims & { reference: string };
  }

  /**
   * The payment a status check or stream is about: the token's, or, for the token of a hosted
   * card page, the payment that page made (once its return or webhook told of it). A customer
   * whose browser went to the provider's page in the same tab comes back with that token only.
   */
  async function watchedClaims(
    request: Request,
    url: URL,
  ): Promise<CheckoutClaims & { reference: string }> {
    const claims = await claimsOf(request, url);
    if (!claims.reference && claims.hosted) {
      const { reference } = await hosted.outcome(claims.hosted);
      if (reference) return { ...claims, reference };
    }
    if (!claims.reference) throw new CheckoutError('not_initiated', 'Start the payment first.');
    return claims as CheckoutClaims & { reference: string };
  }

  return { tokenOf, claimsOf, paymentClaims, watchedClaims };
}

export type CallClaims = ReturnType<typeof createCallClaims>;
