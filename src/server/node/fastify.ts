/**
 * Fastify: a plugin that takes the body as raw bytes in its own scope, so webhook signatures are
 * checked on what the provider sent while the merchant's other routes keep Fastify's parsers.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { answerFailure, toRequest, writeResponse } from '../../node/serve';
import { LARGEST_BODY_BYTES } from '../http';
import type { NodeAdapterOptions } from './node-listener';

type Handler = (request: Request) => Promise<Response>;

/** The parts of Fastify's request and reply the plugin uses. */
interface FastifyRequestLike {
  readonly raw: IncomingMessage;
  readonly body?: unknown;
  readonly url: string;
}
interface FastifyReplyLike {
  readonly raw: ServerResponse;
  hijack(): unknown;
}
type FastifyRoute = (request: FastifyRequestLike, reply: FastifyReplyLike) => Promise<void>;

/** The parts of a Fastify instance the plugin uses. */
export interface FastifyInstanceLike {
  removeAllContentTypeParsers(): unknown;
  addContentTypeParser(
    contentType: string,
    options: { parseAs: 'buffer'; bodyLimit?: number },
    parser: (
      request: never,
      body: Buffer,
      done: (error: Error | null, body?: Buffer) => void,
    ) => void,
  ): unknown;
  all(path: string, handler: FastifyRoute): unknown;
}

/**
 * A Fastify plugin serving the checkout under the prefix it is registered with.
 * @example fastify.register(toFastifyPlugin(checkout), { prefix: '/api/checkout' });
 */
export function toFastifyPlugin(
  handler: Handler,
  options: NodeAdapterOptions = {},
): (fastify: FastifyInstanceLike, options: unknown) => Promise<void> {
  return async (fastify) => {
    // Scoped to this plugin (it is not wrapped in fastify-plugin): raw bytes for every type, and
    // no more of them than the handlers take (Fastify's own default is 1 MB). Fastify refuses a
    // larger Content-Length with its 413 before reading.
    fastify.removeAllContentTypeParsers();
    fastify.addContentTypeParser(
      '*',
      { parseAs: 'buffer', bodyLimit: options.maxBodyBytes ?? LARGEST_BODY_BYTES },
      (_request, body, done) => done(null, body),
    );
    const route: FastifyRoute = async (request, reply) => {
      reply.hijack();
      const outgoing = reply.raw;
      const gone = new AbortController();
      outgoing.on('close', () => {
        if (!outgoing.writableFinished) gone.abort();
      });
      const body = request.body instanceof Uint8Array ? request.body : undefined;
      try {
        const response = await handler(toRequest(request.raw, body, gone.signal, request.url));
        await writeResponse(response, outgoing);
      } catch (error) {
        if (!gone.signal.aborted) answerFailure(error, outgoing);
      }
    };
    fastify.all('/', route);
    fastify.all('/*', route);
  };
}
