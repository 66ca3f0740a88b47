/**
 * The shared store for several instances, on the Redis the merchant already runs (ioredis).
 * Every instance sees the same values, event logs, jobs and leases:
 * - values are keys with `PX` expiry; `add` is `SET NX PX`, so exactly one instance wins;
 * - each payment's events are a Redis Stream (ids 1, 2, 3…), so a browser reconnecting to any
 *   instance replays from its `Last-Event-ID` (`XRANGE`);
 * - an append publishes a wake-up on the stream's channel, so the instance holding the browser's
 *   open stream hears of an event appended on another instance;
 * - jobs are a sorted set by due time (a claimed job's score moves to the end of its lease) with
 *   its values in hashes, claimed by a Lua script: each job goes to exactly one owner;
 * - named leases are `SET PX` when free or ours, released by compare-and-delete;
 * - a `commit` is one Lua script (COMMIT): all its writes or, when an `add` finds its key, none,
 *   with the appends' wake-ups published after the writes;
 * - lists are sorted sets of store keys by score, paged with their values by a script (PAGE) that
 *   drops the entries whose value is gone.
 * A commit's keys and a page's values span many slots; a Redis Cluster is not supported.
 */
import { createHash } from 'node:crypto';
import { Redis } from 'ioredis';
import type { CheckoutStore, PageEntry, ScheduledJob, StoredEvent } from '../store';
import { withOutages } from '../store-unavailable';
import { checkKeys, checkPage, checkWrites, writePlace } from '../store-writes';
import { checkMs, checkTime, decodeValue, encodeValue, parseEventId } from '../stored-value';
import {
  judgeRedisSettings,
  RedisSettingsError,
  readRedisSettings,
  uncheckedWarning,
} from './redis-settings';
import { APPEND, CLAIM, COMMIT, LEASE, PAGE, RELEASE, SCHEDULE } from './scripts';

interface RedisStoreCommonOptions {
  /** Put before every key and channel, so one Redis can serve other things too. Default `paydrop:`. */
  readonly prefix?: string | undefined;
  /** Another name for `prefix` (ioredis's). */
  readonly keyPrefix?: string | undefined;
  /** Events kept per stream, approximately (`XADD MAXLEN ~`). Default 100. */
  readonly maxEventsPerStream?: number | undefined;
  /** How long an idle stream is kept, in ms. Default 24 hours. */
  readonly streamTtlMs?: number | undefined;
  /**
   * How long one command may wait for Redis (while it is unreachable, too), in ms, before the
   * store gives up and the companion answers 503 `unavailable`. Default 2000. Applies to the
   * connection the store opens from `url`; a `client` of yours keeps its own `commandTimeout`
   * (set one: ioredis's default waits for ever).
   */
  readonly commandTimeoutMs?: number | undefined;
  /**
   * Where the start-up check of Redis's settings (`maxmemory-policy`, `appendonly`) says what it
   * found wanting, or that CONFIG was refused. Default console.
   * @example logger: { warn: (message) => log.warn(message) }
   */
  readonly logger?: { warn(message: string, details?: Record<string, unknown>): void } | undefined;
}

/** The Redis store: a CheckoutStore that checks Redis's settings when it starts. */
export interface RedisStore extends CheckoutStore {
  /**
   * Resolves once Redis's settings were read (or CONFIG was refused, or Redis was unreachable:
   * then they are read when it connects); rejects when the store refuses them (an evicting
   * `maxmemory-policy` under NODE_ENV=production). Every command waits for the check too, so
   * awaiting this is only for failing at boot rather than at the first payment.
   * @example const store = createRedisStore({ url: process.env.REDIS_URL }); await store.ready();
   */
  ready(): Promise<void>;
}

export type RedisStoreOptions = RedisStoreCommonOptions &
  (
    | {
        /** `redis://[:password@]host:port[/db]` or `rediss://…` (TLS). The store opens and quits its connections. */
        readonly url: string;
        readonly client?: undefined;
      }
    | {
        /**
         * A connected ioredis client. The store uses it for commands and a duplicate of it (which
         * it quits on close) for subscriptions; the client itself stays open, yours to quit.
         */
        readonly client: Redis;
        readonly url?: undefined;
      }
  );

const WHERE = 'createRedisStore';
/** Default of commandTimeoutMs: well inside the provider's 10 s, and a slow Redis is not normal. */
const COMMAND_TIMEOUT_MS = 2000;
/** Redis's refusals that mean "not now" rather than a bug: loading, a replica, out of memory… */
const TRANSIENT_REPLY =
  /^(LOADING|READONLY|MASTERDOWN|BUSY|TRYAGAIN|CLUSTERDOWN|MISCONF|NOREPLICAS|OOM)\b/;

/**
 * Redis unreachable, timing out, or refusing for now; not our own argument checks (TypeError),
 * a store used after close(), nor a reply that means a bug (WRONGTYPE and the like).
 */
function isOutage(error: unknown): boolean {
  if (!(error instanceof Error) || error instanceof TypeError) return false;
  if (error.message.startsWith(`${WHERE}:`)) return false;
  if (error.name === 'ReplyError') return TRANSIENT_REPLY.test(error.message);
  return true;
}

interface Listener {
  readonly deliver: (event: StoredEvent) => void;
  /** The id of the last event this listener heard, once its subscription is live. */
  last: number;
  ready: boolean;
  /** While not ready: the smallest id heard on the channel. */
  earliest: number;
  pulling: boolean;
  again: boolean;
}

function checkOptions(options: RedisStoreOptions): void {
  if (typeof options !== 'object' || options === null)
    throw new TypeError(
      `${WHERE}: pass { url } (e.g. { url: process.env.REDIS_URL }) or { client }`,
    );
  const { url, client } = options;
  if (url !== undefined && client !== undefined)
    throw new TypeError(`${WHERE}: pass either url or client, not both`);
  if (client !== undefined) {
    const candidate = client as unknown as Record<string, unknown>;
    if (
      typeof candidate !== 'object' ||
      candidate === null ||
      typeof candidate.duplicate !== 'function' ||
      typeof candidate.evalsha !== 'function'
    )
      throw new TypeError(`${WHERE}: client must be an ioredis client (new Redis(…))`);
    // ioredis would prefix keys but not the patterns clear() scans for, nor pub/sub channels.
    if ((candidate.options as { keyPrefix?: string } | undefined)?.keyPrefix)
      throw new TypeError(`${WHERE}: use the store's prefix option, not the client's keyPrefix`);
  } else {
    let protocol = '';
    try {
      protocol = typeof url === 'string' ? new URL(url).protocol : '';
    } catch {
      // Reported below without echoing the URL, which may carry a password.
    }
    if (protocol !== 'redis:' && protocol !== 'rediss:')
      throw new TypeError(
        `${WHERE}: url must be a redis:// or rediss:// URL, e.g. redis://localhost:6379`,
      );
  }
  if (options.keyPrefix !== undefined && options.keyPrefix !== options.prefix)
    throw new TypeError(`${WHERE}: give prefix or keyPrefix, not both`);
  if (options.prefix !== undefined && (typeof options.prefix !== 'string' || options.prefix === ''))
    throw new TypeError(
      `${WHERE}: prefix must be a non-empty string (clear() deletes every key under it)`,
    );
  if (options.logger !== undefined && typeof options.logger?.warn !== 'function')
    throw new TypeError(`${WHERE}: logger must have a warn(message) method`);
  for (const name of ['maxEventsPerStream', 'streamTtlMs', 'commandTimeoutMs'] as const) {
    const value = options[name];
    if (value !== undefined && !(Number.isInteger(value) && value > 0))
      throw new TypeError(`${WHERE}: ${name} must be a positive integer`);
  }
}

/**
 * `createRedisStore(url)` is short for `createRedisStore({ url })`.
 *
 * @example
 * import { createCheckoutHandler } from 'paydrop/server';
 * import { createRedisStore } from 'paydrop/server/redis';
 *
 * const checkout = createCheckoutHandler({
 *   // …
 *   store: createRedisStore({ url: process.env.REDIS_URL }),
 * });
 */
export function createRedisStore(options: RedisStoreOptions | string): RedisStore {
  if (typeof options === 'string') return createRedisStore({ url: options });
  if (options?.keyPrefix !== undefined && options.prefix === undefined)
    return createRedisStore({ ...options, prefix: options.keyPrefix, keyPrefix: undefined });
  checkOptions(options);
  const prefix = options.prefix ?? 'paydrop:';
  const maxEvents = options.maxEventsPerStream ?? 100;
  const streamTtlMs = options.streamTtlMs ?? 24 * 3600 * 1000;
  const owned = options.client === undefined;
  // Bounded while Redis is down (issue 20, item 6): a command waits at most commandTimeout,
  // queued or sent, and the queue of commands waiting for a connection is failed after every
  // second reconnection attempt, so a request is answered 503 in seconds, not after a hang.
  // The offline queue stays on: commands sent while the first connection opens, or across a
  // blip shorter than the timeout, still succeed.
  const timeoutMs = options.commandTimeoutMs ?? COMMAND_TIMEOUT_MS;
  const redis =
    options.client ??
    new Redis(options.url, {
      commandTimeout: timeoutMs,
      maxRetriesPerRequest: 1,
      connectTimeout: timeoutMs,
    });
  // Connection errors surface through the commands that fail; ioredis reconnects by itself.
  if (owned) redis.on('error', () => {});
  let subscriber: Redis | undefined;
  const channels = new Map<string, Set<Listener>>();
  const subscribed = new Map<string, Promise<unknown>>();
  let closed = false;

  // Redis's settings, checked before the first command is answered (issue 22, item 2).
  const logger = options.logger ?? { warn: (message: string) => console.warn(message) };
  const production = typeof process !== 'undefined' && process.env?.NODE_ENV === 'production';
  const told = new Set<string>();
  const tell = (message: string) => {
    if (told.has(message)) return;
    told.add(message);
    logger.warn(message);
  };
  let refusal: RedisSettingsError | undefined;
  /** The check while it runs (every command waits for it); rejects with the refusal. */
  let checking: Promise<void> | undefined;
  let checked = false;
  function onSettings(settings: Awaited<ReturnType<typeof readRedisSettings>>): void {
    checked = true;
    if ('refused' in settings) {
      tell(uncheckedWarning(settings.refused));
      return;
    }
    const verdict = judgeRedisSettings(settings, production);
    for (const warning of verdict.warnings) tell(warning);
    if (verdict.refusal !== undefined) {
      refusal = new RedisSettingsError(verdict.refusal);
      throw refusal;
    }
  }
  function checkSettings(): Promise<void> {
    const run: Promise<void> = readRedisSettings(redis)
      .then(onSettings, () => {
        // Unreachable: commands fail as outages meanwhile; checked again once it connects.
      })
      .finally(() => {
        if (checking === run) checking = undefined;
      });
    run.catch(() => {});
    checking = run;
    return run;
  }
  const started = checkSettings();
  const checkOnConnect = () => {
    if (!checked && !closed && checking === undefined) void checkSettings();
  };
  redis.on('ready', checkOnConnect);

  const key = {
    value: (name: string) => `${prefix}v:${name}`,
    stream: (name: string) => `${prefix}s:${name}`,
    channel: (name: string) => `${prefix}e:${name}`,
    lease: (name: string) => `${prefix}l:${name}`,
    list: (name: string) => `${prefix}i:${name}`,
    queue: (name: string) => [
      `${prefix}q:${name}`,
      `${prefix}qv:${name}`,
      `${prefix}qd:${name}`,
      `${prefix}qa:${name}`,
    ],
  };
  const streamOf = (channel: string) => channel.slice(`${prefix}e:`.length);

  const shas = new Map<string, string>();
  /** EVALSHA, loading the script on the first NOSCRIPT (after a restart or SCRIPT FLUSH). */
  async function run(script: string, keys: string[], args: Array<string | number>) {
    let sha = shas.get(script);
    if (!sha) {
      sha = createHash('sha1').update(script).digest('hex');
      shas.set(script, sha);
    }
    try {
      return await redis.evalsha(sha, keys.length, ...keys, ...args);
    } catch (error) {
      if (!String(error).includes('NOSCRIPT')) throw error;
      return await redis.eval(script, keys.length, ...keys, ...args);
    }
  }

  /** Throws once closed or refused; answers the settings check while it runs, to wait for. */
  function usable(): Promise<void> | undefined {
    if (closed) throw new Error(`${WHERE}: the store is closed`);
    if (refusal) throw refusal;
    return checking;
  }

  async function readAfter(stream: string, after: number): Promise<StoredEvent[]> {
    const entries = await redis.xrange(key.stream(stream), String(after + 1), '+');
    return entries.map(([id, fields]) => ({
      id: id.slice(0, id.indexOf('-')),
      value: decodeValue(fields[1] ?? ''),
    }));
  }

  /** Brings one listener up to date from the stream itself: ordered, no gaps, no repeats. */
  async function pull(stream: string, listener: Listener): Promise<void> {
    if (listener.pulling) {
      listener.again = true;
      return;
    }
    listener.pulling = true;
    try {
      do {
        listener.again = false;
        for (const event of await readAfter(stream, listener.last)) {
          if (closed || !channels.get(key.channel(stream))?.has(listener)) return;
          const id = Number(event.id);
          if (id <= listener.last) continue;
          listener.last = id;
          hear(listener, event);
        }
      } while (listener.again && !closed);
    } catch {
      // Redis unreachable: the next wake-up or reconnection pulls again.
    } finally {
      listener.pulling = false;
    }
  }

  function hear(listener: Listener, event: StoredEvent): void {
    try {
      listener.deliver(event);
    } catch {
      // A listener's failure is its own; the others still hear the event.
    }
  }

  function onMessage(channel: string, message: string): void {
    const listeners = channels.get(channel);
    if (!listeners) return;
    const colon = message.indexOf(':');
    const id = Number(message.slice(0, colon));
    if (!Number.isSafeInteger(id)) return;
    const stream = streamOf(channel);
    for (const listener of listeners) {
      if (!listener.ready) listener.earliest = Math.min(listener.earliest, id);
      else if (id === listener.last + 1 && !listener.pulling) {
        // The usual case: the next event, carried whole by the wake-up.
        listener.last = id;
        hear(listener, { id: String(id), value: decodeValue(message.slice(colon + 1)) });
      } else if (id > listener.last) void pull(stream, listener);
    }
  }

  function connectSubscriber(): Redis {
    if (subscriber) return subscriber;
    // No ready check: its INFO, sent once connected, fails on a connection that a SUBSCRIBE
    // issued meanwhile has put in subscriber mode, and ioredis then rejects that subscription
    // for good: a browser whose /events opened in that moment never heard its outcome live.
    const connection = redis.duplicate({ enableReadyCheck: false });
    connection.on('message', onMessage);
    // Messages published while the connection was down are lost (pub/sub is fire and forget);
    // ioredis subscribes again on reconnection, and every listener then catches up from the log.
    let connections = 0;
    connection.on('ready', () => {
      if (++connections === 1) return;
      for (const [channel, listeners] of channels)
        for (const listener of listeners)
          if (listener.ready) void pull(streamOf(channel), listener);
    });
    connection.on('error', () => {
      // Reconnection is ioredis's; errors surface through the commands that fail.
    });
    subscriber = connection;
    return connection;
  }

  const store: RedisStore = {
    async ready() {
      await started;
      if (refusal) throw refusal;
    },
    async get(name) {
      await usable();
      const text = await redis.get(key.value(name));
      return text === null ? undefined : decodeValue(text);
    },
    async set(name, value, ttlMs) {
      await usable();
      const ms = checkMs('store.set', 'ttlMs', ttlMs);
      await redis.set(key.value(name), encodeValue('store.set', value), 'PX', ms);
    },
    async add(name, value, ttlMs) {
      await usable();
      const ms = checkMs('store.add', 'ttlMs', ttlMs);
      const text = encodeValue('store.add', value);
      return (await redis.set(key.value(name), text, 'PX', ms, 'NX')) === 'OK';
    },
    async delete(name) {
      await usable();
      await redis.del(key.value(name));
    },
    async append(stream, value) {
      await usable();
      const text = encodeValue('store.append', value);
      const id = await run(
        APPEND,
        [key.stream(stream)],
        [text, maxEvents, streamTtlMs, key.channel(stream)],
      );
      return String(id);
    },
    async read(stream, afterId) {
      await usable();
      return readAfter(stream, parseEventId(afterId));
    },
    subscribe(stream, deliver) {
      usable();
      const channel = key.channel(stream);
      const listener: Listener = {
        deliver,
        last: 0,
        ready: false,
        earliest: Number.POSITIVE_INFINITY,
        pulling: false,
        again: false,
      };
      let listeners = channels.get(channel);
      if (!listeners) {
        listeners = new Set();
        channels.set(channel, listeners);
      }
      listeners.add(listener);
      let live = subscribed.get(channel);
      if (!live) {
        live = connectSubscriber().subscribe(channel);
        subscribed.set(channel, live);
      }
      // The stream's last id now, asked before the caller's own read (same connection, in
      // order): an event after it is this listener's to hear; one before it, the read's.
      const tail = redis.xrevrange(key.stream(stream), '+', '-', 'COUNT', 1);
      Promise.all([live, tail])
        .then(([, entries]) => {
          const lastId = entries[0]?.[0];
          const tailId = lastId ? Number(lastId.slice(0, lastId.indexOf('-'))) : 0;
          // Anything heard while subscribing counts too, even if it came before the tail.
          listener.last = Math.min(tailId, listener.earliest - 1);
          listener.ready = true;
          return pull(stream, listener);
        })
        .catch(() => {
          // Redis unreachable: start from the beginning once a wake-up arrives.
          listener.ready = true;
        });
      return () => {
        const current = channels.get(channel);
        if (!current?.delete(listener) || current.size > 0) return;
        channels.delete(channel);
        subscribed.delete(channel);
        if (!closed) subscriber?.unsubscribe(channel).catch(() => {});
      };
    },
    async commit(given) {
      await usable();
      const writes = checkWrites(given);
      if (writes.length === 0) return true;
      // Keys and arguments for the COMMIT script, write by write (its comment has the layout).
      const keys: string[] = [];
      const args: Array<string | number> = [maxEvents, streamTtlMs];
      writes.forEach((write, index) => {
        const where = writePlace(index, write.op);
        switch (write.op) {
          case 'set':
          case 'add':
            keys.push(key.value(write.key));
            args.push(
              write.op,
              encodeValue(where, write.value),
              checkMs(where, 'ttlMs', write.ttlMs),
            );
            break;
          case 'delete':
            keys.push(key.value(write.key));
            args.push(write.op);
            break;
          case 'expect':
            keys.push(key.value(write.key));
            args.push(write.op, encodeValue(where, write.value));
            break;
          case 'take':
            keys.push(key.value(write.key));
            args.push(
              write.op,
              write.id,
              write.limit,
              write.at,
              checkMs(where, 'windowMs', write.windowMs),
              write.whenFull,
            );
            break;
          case 'give':
            keys.push(key.value(write.key));
            args.push(write.op, write.id);
            break;
          case 'append':
            keys.push(key.stream(write.stream));
            args.push(write.op, encodeValue(where, write.value), key.channel(write.stream));
            break;
          case 'schedule':
            keys.push(...key.queue(write.queue));
            args.push(
              write.op,
              encodeValue(where, write.value),
              Math.floor(write.dueAt),
              write.key,
            );
            break;
          case 'finish':
            keys.push(...key.queue(write.queue));
            args.push(write.op, write.key);
            break;
          case 'index':
            keys.push(key.list(write.list));
            args.push(write.op, String(write.score), write.key);
            break;
        }
      });
      return (await run(COMMIT, keys, args)) === 1;
    },
    async getMany(given) {
      await usable();
      const names = checkKeys(given);
      if (names.length === 0) return [];
      const texts = await redis.mget(...names.map(key.value));
      return texts.map((text) => (text === null ? undefined : decodeValue(text)));
    },
    async page(list, options) {
      await usable();
      const { limit, after } = checkPage(list, options);
      const flat = (await run(
        PAGE,
        [key.list(list)],
        [limit, key.value(''), after ? String(after.score) : '', after?.key ?? ''],
      )) as string[];
      const entries: PageEntry[] = [];
      for (let index = 0; index + 2 < flat.length; index += 3)
        entries.push({
          key: flat[index] ?? '',
          score: Number(flat[index + 1]),
          value: decodeValue(flat[index + 2] ?? ''),
        });
      return entries;
    },
    async schedule(queue, jobKey, value, dueAt) {
      await usable();
      checkTime('store.schedule', 'dueAt', dueAt);
      const text = encodeValue('store.schedule', value);
      await run(SCHEDULE, key.queue(queue), [text, Math.floor(dueAt), jobKey]);
    },
    async claim(queue, owner, now, limit, leaseMs) {
      await usable();
      checkTime('store.claim', 'now', now);
      const ms = checkMs('store.claim', 'leaseMs', leaseMs);
      const count = Math.floor(limit);
      if (!(count > 0)) return [];
      const flat = (await run(CLAIM, key.queue(queue), [now, count, now + ms])) as string[];
      const jobs: ScheduledJob[] = [];
      for (let index = 0; index + 3 < flat.length; index += 4)
        jobs.push({
          key: flat[index] ?? '',
          value: decodeValue(flat[index + 1] ?? ''),
          dueAt: Number(flat[index + 2]),
          attempts: Number(flat[index + 3]),
        });
      // Owners are not recorded: a lease is the job's score, whoever holds it.
      void owner;
      return jobs;
    },
    async finish(queue, jobKey) {
      await usable();
      const [due, values, dueTimes, attempts] = key.queue(queue) as [
        string,
        string,
        string,
        string,
      ];
      await redis
        .multi()
        .zrem(due, jobKey)
        .hdel(values, jobKey)
        .hdel(dueTimes, jobKey)
        .hdel(attempts, jobKey)
        .exec();
    },
    async pending(queue) {
      await usable();
      return redis.zcard(key.queue(queue)[0] ?? '');
    },
    async lease(name, owner, ttlMs) {
      await usable();
      const ms = checkMs('store.lease', 'ttlMs', ttlMs);
      return (await run(LEASE, [key.lease(name)], [owner, ms])) === 1;
    },
    async release(name, owner) {
      await usable();
      await run(RELEASE, [key.lease(name)], [owner]);
    },
    async clear() {
      await usable();
      // Every key under the prefix, in batches; glob characters in the prefix match themselves.
      const pattern = `${prefix.replace(/[*?[\]\\]/g, '\\$&')}*`;
      let cursor = '0';
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 500);
        cursor = next;
        if (keys.length > 0) await redis.unlink(...keys);
      } while (cursor !== '0');
    },
    async close() {
      if (closed) return;
      closed = true;
      redis.off('ready', checkOnConnect);
      channels.clear();
      subscribed.clear();
      const quitting: Array<Promise<unknown>> = [];
      if (subscriber) quitting.push(subscriber.quit().catch(() => subscriber?.disconnect()));
      if (owned) quitting.push(redis.quit().catch(() => redis.disconnect()));
      await Promise.all(quitting);
    },
  };
  return withOutages(store, 'The Redis store is unavailable', isOutage);
}
