/**
 * Waiting browsers (issue 10): 1,000, 5,000 and 10,000 open `/events` streams on one companion,
 * then the same 10,000 split over two companions on one Redis. Each stream is a different
 * customer waiting on a different payment (a transfer), as in a shop; all the payments are paid.
 *
 * What is measured, honestly:
 * - resident memory of the companion process (VmRSS) with its payments made and no stream open,
 *   then with every stream open: the difference per stream, and the total against the budget;
 * - for every payment, the time from its webhook (this process POSTs the provider's
 *   `payment.success` to the companion, as the provider would, the moment after the sandbox has
 *   marked it paid) to its outcome on that customer's stream, read by this process on the same
 *   clock. The webhooks come at a steady rate (BENCH_WEBHOOK_RATE per second, default 200: every
 *   customer of a 10,000-stream run pays within 50 s), open loop, never waiting for the last one,
 *   so the figure includes any queueing the companion has: the confirmation status call to the
 *   sandbox, the store, the wake-up of the stream and its heartbeats for every other stream.
 *   p50/p99 over all streams. With two instances the balancer is played round-robin, and each
 *   webhook lands on the instance that does NOT hold its customer's stream (the worst case: every
 *   outcome crosses Redis pub/sub).
 * Budget (DESIGN.md): 10,000 waiting browsers on one instance in under 300 MB resident; the outcome
 * on every stream within 250 ms p99 of the webhook.
 *
 * The sandbox, each companion and this client run in processes of their own. BENCH_STREAMS
 * (e.g. "1000,5000") picks the single-instance sizes; BENCH_STREAMS_STORE (memory | sqlite) the
 * single instance's store (default memory; the per-instance part of state is the same).
 * BENCH_STREAMS_SPLIT the total for two instances on Redis (default 10,000; 0 skips them).
 * The companion is bench/streams-companion.ts, run as bundled JavaScript as a merchant runs the
 * built package (BENCH_STREAMS_TSX=1: through tsx, whose loader thread adds ~35 MB resident).
 * At the largest single-instance size the same streams are then held by a bare SSE server
 * (bench/bare-sse.mjs: node:http writing `data:` lines, one sandbox status call per push), and
 * heap per stream and push p99 are printed beside it (issue 25, item 4).
 * To find out where time and memory go: BENCH_VERBOSE=1 (heap, mappings, the worst latency per
 * 5 s), BENCH_CPU_PROF=<folder>, BENCH_HEAP_SNAPSHOT=<folder>, BENCH_COMPANION_FLAGS="--trace-gc".
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request as httpRequest, type IncomingMessage } from 'node:http';
import { tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { SANDBOX_TEST_KEY } from '../src/sandbox';
import { memoryLimit } from './memory-limit';
import { stopped } from './servers';

await main();

async function main(): Promise<void> {
  const { hasRedisServer, startRedis } = await import('../test/helpers/redis');
  const secretKey = SANDBOX_TEST_KEY;
  const sizes = (process.env.BENCH_STREAMS ?? '1000,5000,10000')
    .split(',')
    .map(Number)
    .filter((size) => size > 0);
  const rate = Number(process.env.BENCH_WEBHOOK_RATE ?? 200);
  const singleStore = process.env.BENCH_STREAMS_STORE === 'sqlite' ? 'sqlite' : 'memory';
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  const percentile = (sorted: number[], p: number) =>
    sorted[Math.max(0, Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1))] ??
    Number.NaN;
  /** The companion's resident memory and live heap after a full collection, in MB. */
  const memoryOf = async (companion: string) => {
    const { rss, heapUsed, heapTotal, external, cpuMs, young, limit } = (await (
      await fetch(`${companion}/__bench/memory`)
    ).json()) as {
      rss: number;
      heapUsed: number;
      heapTotal: number;
      external: number;
      cpuMs: number;
      young: number;
      limit: number;
    };
    const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(0);
    // BENCH_VERBOSE=1: where the resident memory is (live heap, heap reserved, outside the heap).
    if (process.env.BENCH_VERBOSE)
      process.stderr.write(
        `  memory: rss ${mb(rss)} MB, heap ${mb(heapUsed)} used of ${mb(heapTotal)} MB, external ${mb(external)} MB\n`,
      );
    return { rss: rss / 2 ** 20, heap: heapUsed / 2 ** 20, cpuMs, youngMb: young / 2 ** 20, limit };
  };
  // One connection per stream, as one browser each; no pooling limit.
  const agent = new Agent({ keepAlive: false, maxSockets: Number.POSITIVE_INFINITY });

  // The companion as a merchant runs it: plain JavaScript (bundled here with esbuild, which tsx
  // and Vite bring), so tsx's loader thread is not counted in its memory. Without esbuild, or
  // with BENCH_STREAMS_TSX=1, through tsx (~35 MB more resident, the loader's).
  const companionEntry = 'bench/streams-companion.ts';
  const bundled = await bundleCompanion();
  async function bundleCompanion(): Promise<string | undefined> {
    if (process.env.BENCH_STREAMS_TSX) return undefined;
    try {
      const esbuild = await import('esbuild');
      // Inside the repository, so that its bare imports (ioredis, valibot…) resolve as usual.
      const outfile = join('node_modules', '.cache', 'paydrop-bench', 'streams-companion.mjs');
      await esbuild.build({
        entryPoints: [companionEntry],
        outfile,
        bundle: true,
        platform: 'node',
        format: 'esm',
        target: 'node20',
        packages: 'external',
        logLevel: 'warning',
      });
      return outfile;
    } catch (error) {
      process.stderr.write(
        `  esbuild unavailable (${String(error)}): companions run through tsx\n`,
      );
      return undefined;
    }
  }

  // The single instance runs in a container's memory limit (BENCH_STREAMS_MEMORY_LIMIT, MiB,
  // default 1024; 0 for none): Node sizes V8's heap from the memory it is given, so the same
  // server holds ~100 MB more on a large host (see bench/memory-limit.ts). At the largest size
  // it is then run once more without a limit, so both figures are in the output
  // (BENCH_STREAMS_UNLIMITED=0 skips that run).
  const limitMib = Number(process.env.BENCH_STREAMS_MEMORY_LIMIT ?? 1024);
  const limited = limitMib > 0 ? memoryLimit(limitMib * 2 ** 20) : undefined;
  const limit = typeof limited === 'object' ? limited : undefined;
  if (typeof limited === 'string')
    process.stderr.write(`  memory limit of ${limitMib} MiB unavailable: ${limited}\n`);

  function start(entry: string, env: Record<string, string>, contained = false) {
    const companion = entry === companionEntry;
    // The bare SSE server (bench/bare-sse.mjs) is plain JavaScript: run as it is, collectable.
    const plain = entry.endsWith('.mjs');
    // BENCH_CPU_PROF=<folder>: each child writes a V8 CPU profile there when it ends.
    const profile = process.env.BENCH_CPU_PROF;
    const flags = [
      ...(profile ? ['--cpu-prof', '--cpu-prof-dir', profile] : []),
      ...(companion ? ['--expose-gc'] : []),
      // BENCH_COMPANION_FLAGS: more flags for the companions, e.g. --trace-gc (shown with BENCH_VERBOSE).
      ...(companion ? (process.env.BENCH_COMPANION_FLAGS ?? '').split(' ').filter(Boolean) : []),
    ];
    const args = plain
      ? [...flags, '--expose-gc', entry]
      : companion && bundled
        ? [...flags, bundled]
        : [...flags, '--import', 'tsx', entry];
    const [command, commandArgs] =
      contained && limit ? limit.wrap(process.execPath, args) : [process.execPath, args];
    const child = spawn(command, commandArgs, {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    return new Promise<{ child: ChildProcess; url: string }>((resolve, reject) => {
      let output: string | undefined = '';
      child.stdout?.on('data', (chunk: Buffer) => {
        if (process.env.BENCH_VERBOSE) process.stderr.write(`  [${entry}] ${chunk}`);
        if (output === undefined) return;
        output += chunk.toString();
        const match = /listening on (http:\/\/[^\s]+)/.exec(output);
        if (match?.[1]) {
          output = undefined;
          resolve({ child, url: match[1] });
        }
      });
      child.once('exit', (code) => reject(new Error(`${entry} exited with ${code}`)));
    });
  }

  async function runAll<T>(
    items: readonly T[],
    concurrency: number,
    work: (item: T) => Promise<void>,
  ) {
    let next = 0;
    await Promise.all(
      Array.from({ length: Math.min(concurrency, items.length) }, async () => {
        while (next < items.length) await work(items[next++] as T);
      }),
    );
  }

  async function json(url: string, init: RequestInit): Promise<Record<string, unknown>> {
    for (let attempt = 0; ; attempt++) {
      try {
        const response = await fetch(url, init);
        const body = (await response.json()) as Record<string, unknown>;
        if (response.ok) return body;
        if (attempt >= 5) throw new Error(`${url}: ${response.status} ${JSON.stringify(body)}`);
      } catch (error) {
        if (attempt >= 5) throw error;
      }
      await pause(100 * (attempt + 1));
    }
  }

  const sandbox = await start('src/sandbox/cli.ts', { PORT: '0', SANDBOX_SECRET_KEY: secretKey });
  const folder = mkdtempSync(join(tmpdir(), 'paydrop-bench-streams-'));
  const redis = hasRedisServer() ? await startRedis() : undefined;

  interface Waiting {
    readonly reference: string;
    readonly token: string;
    /** Which companion holds the stream. */
    readonly streamOn: number;
    webhookAt: number;
    outcomeAt: number;
    response?: IncomingMessage;
  }

  /** Session and initiation of one transfer per customer, spread over the companions. */
  async function makePayments(
    companions: string[],
    count: number,
    prefix = 'bench',
    bare = false,
  ): Promise<Waiting[]> {
    const made: Waiting[] = [];
    await runAll(
      Array.from({ length: count }, (_, index) => index),
      32,
      async (index) => {
        if (bare) {
          // The bare server has no checkout: the payment is initiated at the sandbox directly.
          const initiated = await json(`${sandbox.url}/api/payment/pay/initiate`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'X-Api': secretKey },
            body: JSON.stringify({ amount: 2500.5, channel: 'PayByTransfer', currency: 'NGN' }),
          });
          const value = initiated.value as { paymentItem: { paymentReference: string } };
          made.push({
            reference: value.paymentItem.paymentReference,
            token: '',
            streamOn: 0,
            webhookAt: 0,
            outcomeAt: 0,
          });
          return;
        }
        const on = companions[index % companions.length] as string;
        const session = await json(`${on}/api/checkout/session`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ order: `${prefix}-${index}` }),
        });
        const initiated = await json(`${on}/api/checkout/initiate`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            authorization: `Bearer ${session.token}`,
          },
          body: JSON.stringify({ channel: 'PayByTransfer' }),
        });
        made.push({
          reference: (initiated.payment as { reference: string }).reference,
          token: initiated.token as string,
          streamOn: index % companions.length,
          webhookAt: 0,
          outcomeAt: 0,
        });
      },
    );
    return made;
  }

  /** Opens one customer's stream; resolves once the companion answered with its headers. */
  function openStream(companion: string, waiting: Waiting, bare = false): Promise<void> {
    return new Promise((resolve, reject) => {
      const url = new URL(bare ? `${companion}/events` : `${companion}/api/checkout/events`);
      if (bare) url.searchParams.set('reference', waiting.reference);
      else url.searchParams.set('token', waiting.token);
      const outgoing = httpRequest(
        url,
        { agent, headers: { accept: 'text/event-stream' } },
        (response) => {
          if (response.statusCode !== 200) {
            reject(new Error(`/events answered ${response.statusCode}`));
            response.resume();
            return;
          }
          waiting.response = response;
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => {
            if (waiting.outcomeAt === 0 && chunk.includes('"SUCCESSFUL"'))
              waiting.outcomeAt = Date.now();
          });
          response.on('error', () => {});
          resolve();
        },
      );
      outgoing.on('error', reject);
      outgoing.end();
    });
  }

  /** Pays each payment at the sandbox, then sends its webhook: `rate` a second, open loop. */
  async function payAll(companions: string[], waiting: Waiting[], bare = false): Promise<number> {
    const started = Date.now();
    const inFlight: Array<Promise<void>> = [];
    for (const [index, payment] of waiting.entries()) {
      const due = started + (index * 1000) / rate;
      const wait = due - Date.now();
      if (wait > 0) await pause(wait);
      // The webhook goes to the instance the customer is NOT listening on (with one, that one).
      const to = companions[(payment.streamOn + 1) % companions.length] as string;
      inFlight.push(
        (async () => {
          if (bare) {
            // The bare server's push: one status call to the sandbox, then the `data:` line.
            payment.webhookAt = Date.now();
            await json(`${to}/push/${payment.reference}`, { method: 'POST' });
            return;
          }
          await json(`${sandbox.url}/__sandbox/payments/${payment.reference}/transfer`, {
            method: 'POST',
            headers: { 'X-Api': secretKey },
          });
          payment.webhookAt = Date.now();
          await json(`${to}/api/checkout/webhooks`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({
              event: 'payment.success',
              data: {
                reference: payment.reference,
                paymentReference: payment.reference,
                status: 'SUCCESSFUL',
                amount: 2500.5,
                currency: 'NGN',
              },
            }),
          });
        })().catch((error: unknown) => {
          // An overloaded companion or sandbox that refuses the call even after retries: that
          // customer's outcome will not come, and is counted as such, not a crash of the bench.
          payment.webhookAt = -1;
          process.stderr.write(`  a webhook could not be delivered: ${String(error)}\n`);
        }),
      );
    }
    await Promise.all(inFlight);
    return (waiting.length * 1000) / (Date.now() - started);
  }

  /** What a run measured, for the comparison with the bare SSE server. */
  interface RunFigures {
    readonly heapPerStreamKb: number;
    readonly residentPerStreamKb: number;
    readonly p50: number;
    readonly p99: number;
  }

  async function run(
    label: string,
    storeSpecs: string[],
    count: number,
    /** bare: the bare SSE server instead of the companion; contained: in the memory limit. */
    { bare = false, contained = false } = {},
  ): Promise<RunFigures> {
    const companions = await Promise.all(
      storeSpecs.map((spec) =>
        start(
          bare ? 'bench/bare-sse.mjs' : companionEntry,
          {
            BENCH_STREAMS_STORE_SPEC: spec,
            SANDBOX_URL: sandbox.url,
            SANDBOX_SECRET_KEY: secretKey,
          },
          contained,
        ),
      ),
    );
    const urls = companions.map((companion) => companion.url);
    try {
      // A server that has been up a while: 200 customers pay first, unmeasured, so that the
      // figures are not those of code running for the first time.
      const warm = await makePayments(urls, 200, 'warm', bare);
      await runAll(warm, 50, (payment) =>
        openStream(urls[payment.streamOn] as string, payment, bare),
      );
      await payAll(urls, warm, bare);
      while (warm.some((payment) => payment.outcomeAt === 0)) await pause(50);
      for (const payment of warm) payment.response?.destroy();
      const phase = (what: string) =>
        process.stderr.write(`  [${label}] ${what} at ${new Date().toISOString().slice(11, 19)}\n`);
      phase('warmed up');
      const waiting = await makePayments(urls, count, 'bench', bare);
      phase(`${count} payments made`);
      await pause(1500);
      const before = await Promise.all(urls.map(memoryOf));
      const opening = Date.now();
      await runAll(waiting, 200, (payment) =>
        openStream(urls[payment.streamOn] as string, payment, bare),
      );
      const openMs = Date.now() - opening;
      phase('streams open');
      await pause(3000); // past a heartbeat round, settled
      const open = await Promise.all(urls.map(memoryOf));
      const achievedRate = await payAll(urls, waiting, bare);
      phase('webhooks sent');
      const deadline = Date.now() + 60_000;
      while (waiting.some((payment) => payment.outcomeAt === 0) && Date.now() < deadline)
        await pause(100);
      const latencies = waiting
        .filter((payment) => payment.outcomeAt !== 0)
        .map((payment) => payment.outcomeAt - payment.webhookAt)
        .sort((a, b) => a - b);
      const missing = waiting.length - latencies.length;
      // What became of a few that never arrived: in the payment's event log (replayed to a new
      // stream) or not at all?
      for (const payment of waiting
        .filter((entry) => entry.outcomeAt === 0)
        .slice(0, bare ? 0 : 3)) {
        const replay: Waiting = { ...payment, outcomeAt: 0 };
        await openStream(urls[payment.streamOn] as string, replay);
        await pause(500);
        replay.response?.destroy();
        const status = await json(`${urls[payment.streamOn]}/api/checkout/status`, {
          headers: { authorization: `Bearer ${payment.token}` },
        });
        console.log(
          `  never arrived: ${payment.reference} (stream on #${payment.streamOn}, webhook ${payment.webhookAt ? 'sent' : 'NOT sent'}): status ${status.status}; ${replay.outcomeAt ? 'in the event log (a new stream replays it): the live push was lost' : 'not in the event log'}`,
        );
      }
      if (process.env.BENCH_VERBOSE) {
        // Where the slow ones are: the worst latency per 5 s of webhooks sent.
        const first = Math.min(
          ...waiting.map((payment) => payment.webhookAt).filter((at) => at > 0),
        );
        const windows = new Map<number, number[]>();
        for (const payment of waiting) {
          if (payment.outcomeAt === 0 || payment.webhookAt <= 0) continue;
          const window = Math.floor((payment.webhookAt - first) / 5000) * 5;
          windows.set(window, [
            ...(windows.get(window) ?? []),
            payment.outcomeAt - payment.webhookAt,
          ]);
        }
        process.stderr.write(
          `  worst per 5 s of webhooks: ${[...windows]
            .sort((a, b) => a[0] - b[0])
            .map(([at, list]) => `${at}s:${Math.max(...list)}`)
            .join(' ')}\n`,
        );
      }
      const early = latencies.filter((ms) => ms < 0).length;
      const after = await Promise.all(urls.map(memoryOf));
      // The companions' CPU time from the streams being open to every outcome: what each
      // webhook (confirmation, outcome, wake-up) and the heartbeats meanwhile cost them.
      const cpuPerWebhookMs =
        (after.reduce((total, reading) => total + reading.cpuMs, 0) -
          open.reduce((total, reading) => total + reading.cpuMs, 0)) /
        count;
      const sum = (readings: Array<{ rss: number; heap: number }>, of: 'rss' | 'heap') =>
        readings.reduce((total, reading) => total + reading[of], 0);
      const perStreamKb = ((sum(open, 'rss') - sum(before, 'rss')) * 1024) / count;
      const heapPerStreamKb = ((sum(open, 'heap') - sum(before, 'heap')) * 1024) / count;
      const mb = (readings: Array<{ rss: number }>) =>
        readings.map((reading) => reading.rss.toFixed(0)).join('+');
      const peakRss = Math.max(...open.map((r) => r.rss), ...after.map((r) => r.rss));
      const p50 = percentile(latencies, 50);
      const p99 = percentile(latencies, 99);
      const single = companions.length === 1;
      // What V8 reserved for its young generation, and in how much memory the process ran.
      const young = Math.max(...open.map((r) => r.youngMb), ...after.map((r) => r.youngMb));
      // constrainedMemory() is the host's size, or a huge number, when there is no limit.
      const given =
        open[0]?.limit && open[0].limit < totalmem()
          ? `a ${(open[0].limit / 2 ** 30).toFixed(open[0].limit % 2 ** 30 ? 2 : 0)} GiB container`
          : `no memory limit (host: ${(totalmem() / 2 ** 30).toFixed(0)} GiB)`;
      console.log(
        `${label}, ${given}: RSS ${mb(before)} MB without streams, ${mb(open)} MB with them open, ${mb(after)} MB after the outcomes ` +
          `(young generation ${young.toFixed(0)} MB); ` +
          `${perStreamKb.toFixed(1)} KB resident and ${heapPerStreamKb.toFixed(1)} KB of heap per stream ` +
          `(opened in ${(openMs / 1000).toFixed(1)} s)\n` +
          `    webhook → outcome on its stream: p50 ${p50} ms, p99 ${p99} ms, max ${latencies.at(-1)} ms, ` +
          `webhooks at ${achievedRate.toFixed(0)}/s, ${cpuPerWebhookMs.toFixed(2)} ms of companion CPU per webhook` +
          (missing ? `, ${missing} not arrived 60 s after the last webhook` : '') +
          (early ? `, ${early} before their webhook (reconciliation)` : '') +
          `\n    budgets: ` +
          (single && count >= 10_000
            ? `RSS ${peakRss < 300 ? 'ok' : 'MISSED'} (${peakRss.toFixed(0)} MB, budget < 300 MB${contained || !limit ? '' : `; judged in the ${limit.label} container above`}), `
            : '') +
          `p99 ${p99 <= 250 && missing === 0 ? 'ok' : 'MISSED'} (≤ 250 ms)`,
      );
      for (const payment of waiting) payment.response?.destroy();
      return { heapPerStreamKb, residentPerStreamKb: perStreamKb, p50, p99 };
    } finally {
      await Promise.all(companions.map((companion) => stopped(companion.child)));
    }
  }

  try {
    console.log(
      `Waiting browsers: one /events stream per customer, each on its own payment; webhooks at ${rate}/s; ` +
        `companions run ${bundled ? 'as bundled JavaScript' : 'through tsx (its loader thread counted in their memory)'}`,
    );
    let files = 0;
    /** The single instance's store: a file of its own for each run on SQLite. */
    const singleSpec = () =>
      singleStore === 'sqlite' ? `sqlite:${join(folder, `s${++files}.db`)}` : 'memory';
    const largest = Math.max(...sizes);
    for (const size of sizes) {
      const companion = await run(
        `${size.toLocaleString('en')} streams, one instance (${singleStore})`,
        [singleSpec()],
        size,
        { contained: true },
      );
      // The reference (issue 25): a bare node:http SSE server with as many streams, right after
      // (BENCH_STREAMS_BARE=0 skips it).
      if (size !== largest || process.env.BENCH_STREAMS_BARE === '0') continue;
      const bare = await run(
        `${size.toLocaleString('en')} streams, bare SSE server`,
        ['bare'],
        size,
        { bare: true, contained: true },
      );
      const ratio = (of: number, to: number) => (to > 0 ? `${(of / to).toFixed(1)}×` : 'n/a');
      console.log(
        `  companion beside the bare SSE server at ${size.toLocaleString('en')} streams: ` +
          `heap per stream ${companion.heapPerStreamKb.toFixed(1)} KB vs ${bare.heapPerStreamKb.toFixed(1)} KB (${ratio(companion.heapPerStreamKb, bare.heapPerStreamKb)}), ` +
          `resident ${companion.residentPerStreamKb.toFixed(1)} KB vs ${bare.residentPerStreamKb.toFixed(1)} KB (${ratio(companion.residentPerStreamKb, bare.residentPerStreamKb)}), ` +
          `push p99 ${companion.p99} ms vs ${bare.p99} ms (${ratio(companion.p99, bare.p99)}), p50 ${companion.p50} ms vs ${bare.p50} ms`,
      );
    }
    if (limit && process.env.BENCH_STREAMS_UNLIMITED !== '0')
      await run(
        `${largest.toLocaleString('en')} streams, one instance (${singleStore})`,
        [singleSpec()],
        largest,
      );
    const total = Number(process.env.BENCH_STREAMS_SPLIT ?? 10_000);
    if (total <= 0) console.log('two instances on Redis: skipped (BENCH_STREAMS_SPLIT=0)');
    else if (redis) {
      await run(
        `${total.toLocaleString('en')} streams, two instances (Redis)`,
        [`redis:${redis.url}`, `redis:${redis.url}`],
        total,
      );
    } else console.log('two instances on Redis: skipped, no redis-server');
  } finally {
    agent.destroy();
    await stopped(sandbox.child);
    await redis?.stop();
    rmSync(folder, { recursive: true, force: true });
    limit?.remove();
  }
}
