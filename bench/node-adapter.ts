/**
 * What the Node adapter costs per request (issue 25, item 3): the same small JSON call (a POST
 * with a token and a body, as /initiate; a ~600 B JSON answer) served by a bare node:http
 * listener and by `nodeListener` (src/node/serve.ts, behind `serve()` and `toNodeListener`)
 * around a handler that reads the body and answers with `Response.json`. Each server is a process
 * of its own; the figure is its CPU time per request (Linux /proc, least moved by other load on
 * the machine), rounds interleaved, median of the rounds, beside the bare server's.
 * BENCH_ADAPTER_ROUNDS (default 5) rounds of BENCH_ADAPTER_CALLS (default 3000) calls each.
 * BENCH_ADAPTER_BEFORE=<module>: also a previous serve.ts to compare with, in the same rounds
 * (`git show <commit>:src/node/serve.ts > src/node/serve-before.ts`, then `../src/node/serve-before.ts`).
 * BENCH_ADAPTER_HANDLER=companion: the handler reads and answers as the checkout's routes do
 * (readJson, jsonAnswer with answerHeaders, src/server/http), instead of request.json() and
 * Response.json().
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

const answer = {
  token: 'x'.repeat(460),
  payment: { reference: 'PAY_0123456789', channel: 'PayByTransfer', amountMinor: 250_050 },
  view: { kind: 'transfer', accountNumber: '0123456789', bankName: 'Sandbox Bank' },
};

const role = process.env.BENCH_ADAPTER_ROLE;
if (role === 'bare' || role === 'adapter' || role === 'before') {
  const listener =
    role === 'bare'
      ? (incoming: IncomingMessage, outgoing: ServerResponse) => {
          const chunks: Buffer[] = [];
          incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
          incoming.on('end', () => {
            JSON.parse(Buffer.concat(chunks).toString());
            outgoing
              .writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' })
              .end(JSON.stringify(answer));
          });
        }
      : await (async () => {
          const { nodeListener } = (await import(
            role === 'before' ? (process.env.BENCH_ADAPTER_BEFORE ?? '') : '../src/node/serve'
          )) as typeof import('../src/node/serve');
          const http = await import('../src/server/http');
          const listen = nodeListener(
            process.env.BENCH_ADAPTER_HANDLER === 'companion'
              ? async (request) => {
                  await http.readJson(request, 8 * 1024);
                  return http.jsonAnswer(answer, 200, http.answerHeaders(request));
                }
              : async (request) => {
                  await request.json();
                  return Response.json(answer, { headers: { 'cache-control': 'no-store' } });
                },
          );
          return (incoming: IncomingMessage, outgoing: ServerResponse) =>
            void listen(incoming, outgoing);
        })();
  const server = createServer(listener);
  server.listen(0, '127.0.0.1', () =>
    console.log(`listening on http://127.0.0.1:${(server.address() as AddressInfo).port}`),
  );
  process.on('SIGTERM', () => process.exit(0));
} else {
  const ROUNDS = Number(process.env.BENCH_ADAPTER_ROUNDS ?? 5);
  const CALLS = Number(process.env.BENCH_ADAPTER_CALLS ?? 3000);
  const CONCURRENCY = 16;
  const start = (serverRole: string) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'bench/node-adapter.ts'], {
      env: { ...process.env, BENCH_ADAPTER_ROLE: serverRole },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    return new Promise<{ child: ChildProcess; url: string; cpu: number[] }>((resolve) => {
      let output = '';
      child.stdout?.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const match = /listening on (http:\/\/\S+)/.exec(output);
        if (match?.[1]) resolve({ child, url: match[1], cpu: [] });
      });
    });
  };
  const cpuMs = (child: ChildProcess) => {
    const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) * 10;
  };
  const body = JSON.stringify({ channel: 'PayByTransfer' });
  const headers = {
    'content-type': 'application/json',
    authorization: `Bearer ${'t'.repeat(460)}`,
    origin: 'https://shop.example',
  };
  const calls = async (url: string, count: number) => {
    let left = count;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (left-- > 0)
          await (await fetch(url, { method: 'POST', headers, body })).arrayBuffer();
      }),
    );
  };
  const servers: Record<string, Awaited<ReturnType<typeof start>>> = {
    bare: await start('bare'),
    ...(process.env.BENCH_ADAPTER_BEFORE ? { before: await start('before') } : {}),
    adapter: await start('adapter'),
  };
  const all = Object.values(servers);
  try {
    for (const server of all) await calls(server.url, 1000);
    for (let round = 0; round < ROUNDS; round++) {
      // Each round in another order, so no server always follows the same one.
      const order = [...all.slice(round % all.length), ...all.slice(0, round % all.length)];
      for (const server of order) {
        const before = cpuMs(server.child);
        await calls(server.url, CALLS);
        server.cpu.push(((cpuMs(server.child) - before) / CALLS) * 1000);
      }
    }
    const median = (values: number[]) =>
      [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
    const bare = median(servers.bare?.cpu ?? []);
    const handler =
      process.env.BENCH_ADAPTER_HANDLER === 'companion'
        ? "readJson + jsonAnswer, as the checkout's routes"
        : 'request.json() + Response.json()';
    console.log(
      `node adapter: server CPU per small JSON POST, handler ${handler} (median of ${ROUNDS} interleaved rounds of ${CALLS}, ${CONCURRENCY} in flight)`,
    );
    for (const [name, server] of Object.entries(servers)) {
      const cpu = median(server.cpu);
      const label = {
        bare: 'bare node:http',
        before: 'nodeListener (before)',
        adapter: 'nodeListener',
      }[name];
      console.log(
        `  ${String(label).padEnd(22)} ${cpu.toFixed(0).padStart(4)} µs` +
          (name === 'bare'
            ? ' (reference)'
            : ` (${(cpu / bare).toFixed(2)}×, +${(cpu - bare).toFixed(0)} µs)`),
      );
    }
  } finally {
    for (const server of all) server.child.kill('SIGTERM');
  }
}
