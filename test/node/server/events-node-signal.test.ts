/**
 * The Node server's Request (src/node/serve.ts): its signal aborts when the client goes away in
 * the middle of a streamed answer, and is not aborted by an answer sent in full, so an event
 * stream's clean-up runs however the browser leaves.
 */
import { request as httpRequest } from 'node:http';
import { afterEach, expect, it } from 'vitest';
import { type RunningServer, serve } from '../../../src/node/serve';

let running: RunningServer | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

it('aborts request.signal when the client leaves a stream, not after a full answer', async () => {
  const signals: AbortSignal[] = [];
  const cancelled: string[] = [];
  running = await serve(async (request) => {
    signals.push(request.signal);
    if (new URL(request.url).pathname === '/plain') return new Response('done');
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('retry: 2000\n\n'));
      },
      cancel() {
        cancelled.push('cancel');
      },
    });
    return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
  });
  const plain = await fetch(`${running.url}/plain`);
  expect(await plain.text()).toBe('done');
  expect(signals[0]?.aborted).toBe(false);

  await new Promise<void>((resolve, reject) => {
    const outgoing = httpRequest(`${running?.url}/events`, (response) => {
      response.once('data', () => {
        response.destroy();
        resolve();
      });
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
  await expect.poll(() => signals[1]?.aborted).toBe(true);
  await expect.poll(() => cancelled).toEqual(['cancel']);
  expect(signals[0]?.aborted).toBe(false);
  expect(signals[1]).toBeInstanceOf(AbortSignal);
});
