/**
 * What a Redis must be configured with to hold payments (issue 22, item 2), read at start-up with
 * CONFIG GET where the server allows it:
 * - `maxmemory-policy noeviction`: any other policy drops keys when memory is full, and every key
 *   of ours has an expiry, so even the `volatile-*` policies may drop once-only markers and queued
 *   confirmations without a word. Refused under NODE_ENV=production, warned of elsewhere.
 * - `appendonly yes`: without an append-only log a restart loses the writes since the last
 *   snapshot (minutes of them), or all of them with snapshots off. Warned of.
 * Managed Redis often refuses CONFIG (renamed, or not in the user's ACL): then it says once that
 * it could not check, naming both settings. BullMQ's production guide asks the same of Redis.
 */

/** The two settings read, as CONFIG GET answers them (undefined: not answered). */
export interface RedisSettings {
  readonly appendonly: string | undefined;
  readonly maxmemoryPolicy: string | undefined;
}

/** What the settings mean for payments: a refusal (production only) and warnings. */
export interface RedisSettingsVerdict {
  readonly refusal?: string;
  readonly warnings: readonly string[];
}

const POSTGRES_ADVICE =
  'For several instances PostgreSQL (paydrop/server/postgres) is the recommended system of record.';

/** The store's own errors start with its name, so the store never mistakes them for an outage. */
export class RedisSettingsError extends Error {
  override readonly name = 'RedisSettingsError' as const;
}

/** Judges what CONFIG GET answered; `production` is NODE_ENV=production. */
export function judgeRedisSettings(
  settings: RedisSettings,
  production: boolean,
): RedisSettingsVerdict {
  const warnings: string[] = [];
  let refusal: string | undefined;
  const policy = settings.maxmemoryPolicy;
  if (policy !== undefined && policy !== 'noeviction') {
    const why = `Redis's maxmemory-policy is ${policy}: when its memory is full it evicts keys, and the checkout's once-only markers and queued confirmations are among them (every one has an expiry, so volatile-* policies drop them too). Set maxmemory-policy noeviction (in redis.conf, or CONFIG SET maxmemory-policy noeviction; a managed Redis has it in its parameter group or settings).`;
    if (production) refusal = `createRedisStore: refused under NODE_ENV=production. ${why}`;
    else warnings.push(`paydrop: ${why} Under NODE_ENV=production the store refuses it.`);
  }
  if (settings.appendonly !== undefined && settings.appendonly !== 'yes') {
    warnings.push(
      `paydrop: Redis keeps no append-only log (appendonly ${settings.appendonly}): a restart loses the writes since its last snapshot, outcomes and queued confirmations among them. Set appendonly yes (appendfsync everysec loses at most a second). ${POSTGRES_ADVICE}`,
    );
  }
  return refusal === undefined ? { warnings } : { refusal, warnings };
}

/** The one line said when CONFIG GET is refused (renamed, disabled, or outside the user's ACL). */
export function uncheckedWarning(reply: string): string {
  return `paydrop: could not check Redis's appendonly and maxmemory-policy (CONFIG GET was refused: ${reply.slice(0, 200)}). Make sure the server has maxmemory-policy noeviction (an evicting policy drops once-only markers and queued confirmations) and appendonly yes (without it a restart loses recent writes). ${POSTGRES_ADVICE}`;
}

/** A reply of the server itself (ioredis's ReplyError), as opposed to a connection failure. */
function isReply(error: unknown): error is Error {
  return error instanceof Error && error.name === 'ReplyError';
}

interface ConfigReader {
  config(subcommand: 'GET', parameter: string): Promise<unknown>;
}

/** CONFIG GET of one parameter; undefined when the server does not know it. */
async function configValue(redis: ConfigReader, parameter: string): Promise<string | undefined> {
  const answer = await redis.config('GET', parameter);
  return Array.isArray(answer) && typeof answer[1] === 'string' ? answer[1] : undefined;
}

/**
 * Reads the settings: the settings, or the server's refusal of CONFIG (its reply). A connection
 * failure is thrown as it is: the caller checks again once connected.
 */
export async function readRedisSettings(
  redis: ConfigReader,
): Promise<RedisSettings | { readonly refused: string }> {
  try {
    // One parameter a call: CONFIG GET of several needs Redis 7.
    const [appendonly, maxmemoryPolicy] = await Promise.all([
      configValue(redis, 'appendonly'),
      configValue(redis, 'maxmemory-policy'),
    ]);
    return { appendonly, maxmemoryPolicy };
  } catch (error) {
    if (isReply(error)) return { refused: error.message };
    throw error;
  }
}
