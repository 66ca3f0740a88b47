/**
 * The one message the challenge page may send: the companion's relay saying the issuer's
 * challenge is over. It is taken only from the frame the widget made (its window), from the
 * companion's origin, about this payment, in exactly this shape; anything else is ignored.
 */
export interface ChallengeMessageSource {
  readonly origin: string;
  readonly source: unknown;
  readonly data: unknown;
}

export function isChallengeCompletion(
  event: ChallengeMessageSource,
  expected: { readonly origin: string; readonly frame: unknown; readonly reference: string },
): boolean {
  if (event.origin !== expected.origin || event.source !== expected.frame || !expected.frame) {
    return false;
  }
  const data = event.data as { type?: unknown; reference?: unknown; outcome?: unknown } | null;
  return (
    typeof data === 'object' &&
    data !== null &&
    !Array.isArray(data) &&
    data.type === 'paydrop:challenge-completed' &&
    data.reference === expected.reference &&
    (data.outcome === 'passed' || data.outcome === 'failed')
  );
}
