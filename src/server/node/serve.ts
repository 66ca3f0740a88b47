import { listen, nodeListener, type RunningServer, type ServerTimeouts } from '../../node/serve';
import { LARGEST_BODY_BYTES } from '../http';
import { requestFrom } from './framework-body';
import type { NodeAdapterOptions } from './node-listener';

type Handler = (request: Request) => Promise<Response>;

export type { RunningServer, ServerTimeouts };

/** Where and how `serve()` listens. */
export interface ServeOptions extends NodeAdapterOptions, ServerTimeouts {
  /** The port; 0 picks a free one (see `url`). Default 3000. */
  readonly port?: number | undefined;
  /** The address to listen on, e.g. '127.0.0.1'. Default: every interface, as Node's `listen`. */
  readonly host?: string | undefined;
}

/**
 * Serves the checkout (or back office) handler on a Node http server of its own, with the
 * limits a server facing the internet wants: headers within 10 s, a whole request within 30 s,
 * idle keep-alive connections closed after 5 s, bodies no larger than the handlers take. Open
 * event streams are not cut by any of these. For a server you create yourself, docs/server.md
 * ("Timeouts") shows the same settings.
 * @example
 * const running = await serve(checkout, { port: 3000 });
 * console.log(`checkout on ${running.url}`); // later: await running.close()
 */
export function serve(handler: Handler, options: ServeOptions = {}): Promise<RunningServer> {
  if (
    options.port !== undefined &&
    !(Number.isInteger(options.port) && options.port >= 0 && options.port <= 65_535)
  )
    throw new TypeError('port must be a whole number from 0 to 65535.');
  const listener = nodeListener(handler, {
    maxBodyBytes: options.maxBodyBytes ?? LARGEST_BODY_BYTES,
    request: (incoming, signal, allowance) =>
      requestFrom(incoming, signal, incoming.url, 'a body parser', allowance),
  });
  return listen(listener, { ...options, port: options.port ?? 3000 });
}
