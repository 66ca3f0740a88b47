import { connect } from 'node:net';

/** Hosts no URL can be made of: Node's parser lets them through, `new URL` does not. */
export const MALFORMED_HOSTS = ['bad host', 'exa mple.com:80', '[::1', 'a:b:c'] as const;

/**
 * POSTs a session request with each malformed Host to the server on `port` and gives each
 * answer's status line, with what the server wrote to console.error meanwhile (a 500 with a
 * stack is what a malformed Host must never get).
 */
export async function askWithMalformedHosts(
  port: number,
  path: string,
): Promise<{ heads: Record<string, string>; errors: unknown[] }> {
  const errors: unknown[] = [];
  const original = console.error;
  console.error = (...args: unknown[]) => errors.push(args);
  const heads: Record<string, string> = {};
  try {
    for (const host of MALFORMED_HOSTS) {
      heads[host] = await rawRequest(
        port,
        `POST ${path} HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`,
      );
    }
  } finally {
    console.error = original;
  }
  return { heads, errors };
}

/** Sends `text` as it is and resolves with the answer's first line. */
function rawRequest(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(text));
    let answer = '';
    socket.on('data', (chunk) => {
      answer += chunk.toString('latin1');
    });
    socket.on('end', () => resolve(answer.split('\r\n')[0] ?? ''));
    socket.on('error', reject);
  });
}
