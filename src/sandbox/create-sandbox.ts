/**
 * Starts a sandbox on a port of its own, from code: tests, merchants' test suites, the CLI.
 * Two sandboxes in one process share nothing.
 */

import { serve } from '../node/serve';
import {
  createSandboxHandler,
  isDroppedResponse,
  type SandboxHandler,
  type SandboxHandlerOptions,
} from './handler';
import { SANDBOX_TEST_KEY } from './test-data';

export interface SandboxOptions extends SandboxHandlerOptions {
  /** 0 (the default) picks a free port. */
  readonly port?: number;
  /** Default 127.0.0.1: the sandbox is for this machine only. */
  readonly host?: string;
}

export interface Sandbox {
  /** The sandbox's `{base_url}` and `{sandbox_base_url}`, e.g. http://127.0.0.1:4010 */
  readonly url: string;
  readonly secretKey: string;
  readonly handler: SandboxHandler;
  /**
   * Calls the sandbox over HTTP with the key already set, for tests and scripts.
   * @example await sandbox.request('POST', '/__sandbox/clock', { advanceSeconds: 60 })
   */
  request(method: string, path: string, body?: unknown): Promise<Response>;
  close(): Promise<void>;
}

/**
 * @example
 * const sandbox = await createSandbox({ port: 0 });
 * // point the companion at sandbox.url with sandbox.secretKey …
 * await sandbox.close();
 */
export async function createSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const secretKey = options.secretKey ?? SANDBOX_TEST_KEY;
  const handler = createSandboxHandler({ ...options, secretKey });
  const running = await serve(handler, {
    port: options.port ?? 0,
    host: options.host ?? '127.0.0.1',
    isDropped: isDroppedResponse,
  });
  const url = running.url + (options.basePath ?? '').replace(/\/+$/, '');
  return {
    url,
    secretKey,
    handler,
    request(method, path, body) {
      return fetch(url + path, {
        method,
        headers: {
          'X-Api': secretKey,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    },
    async close() {
      handler.close();
      await running.close();
    },
  };
}
