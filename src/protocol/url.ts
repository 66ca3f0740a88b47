/**
 * A URL from the provider (a bank's AuthUrl, a challenge page) is opened only if https:, or http:
 * on this machine (the sandbox); `javascript:`, `data:` and the rest are refused. One rule, for
 * the companion that receives the URL and the widget that would open it.
 */
export function isSafeUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (
      url.protocol === 'https:' ||
      (url.protocol === 'http:' && /^(localhost|127\.0\.0\.1|\[::1\])$/.test(url.hostname))
    );
  } catch {
    return false;
  }
}
