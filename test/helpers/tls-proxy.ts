/**
 * TLS in front of plain http, as production has it (issue 21): a throw-away self-signed
 * certificate made with openssl for this run, and a real TLS-terminating proxy (node:https) that
 * forwards to a server on loopback the ways nginx or a load balancer do.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface Certificate {
  readonly key: Buffer;
  readonly cert: Buffer;
  readonly keyPath: string;
  readonly certPath: string;
  /** Deletes the files. */
  remove(): void;
}

/** A self-signed certificate (a day long) for `names` (DNS names or IP addresses). */
export function throwAwayCertificate(names: readonly string[]): Certificate {
  const folder = mkdtempSync(join(tmpdir(), 'paydrop-tls-'));
  const keyPath = join(folder, 'key.pem');
  const certPath = join(folder, 'cert.pem');
  const alternatives = names
    .map((name) => (/^[\d.]+$/.test(name) ? `IP:${name}` : `DNS:${name}`))
    .join(',');
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-keyout',
        keyPath,
        '-out',
        certPath,
        '-days',
        '1',
        '-subj',
        `/CN=${names[0]}`,
        '-addext',
        `subjectAltName=${alternatives}`,
      ],
      { stdio: 'pipe' },
    );
  } catch (error) {
    throw new Error(`A throw-away TLS certificate is made with openssl, which failed: ${error}`);
  }
  return {
    key: readFileSync(keyPath),
    cert: readFileSync(certPath),
    keyPath,
    certPath,
    remove: () => rmSync(folder, { recursive: true, force: true }),
  };
}

/** What the proxy passed on: each request's method, path, Origin and the app's status. */
export interface Passed {
  readonly method: string;
  readonly path: string;
  readonly origin: string | undefined;
  readonly requestHeaders: string | undefined;
  status?: number | undefined;
}

/**
 * How the proxy tells the server what the browser reached:
 * - 'host-kept': Host as the browser sent it and X-Forwarded-Proto: https; every other header
 *   passed on as it came (forged ones too, as a careless proxy does);
 * - 'x-forwarded': Host rewritten to the server's address, X-Forwarded-Host and -Proto set;
 * - 'forwarded': Host rewritten, RFC 7239 Forwarded set;
 * - 'silent': Host kept, nothing said of the scheme (a misconfigured proxy).
 */
export type ProxyStyle = 'host-kept' | 'x-forwarded' | 'forwarded' | 'silent';

export interface TlsProxy {
  readonly port: number;
  readonly passed: Passed[];
  close(): Promise<void>;
}

export async function startTlsProxy(
  certificate: Certificate,
  targetPort: number,
  style: ProxyStyle,
): Promise<TlsProxy> {
  const passed: Passed[] = [];
  const server = https.createServer(
    { key: certificate.key, cert: certificate.cert },
    (incoming, outgoing) => {
      const headers = { ...incoming.headers };
      const host = incoming.headers.host ?? '';
      if (style === 'host-kept') {
        headers['x-forwarded-proto'] = 'https';
      } else if (style === 'x-forwarded') {
        headers.host = `127.0.0.1:${targetPort}`;
        headers['x-forwarded-host'] = host;
        headers['x-forwarded-proto'] = 'https';
      } else if (style === 'forwarded') {
        headers.host = `127.0.0.1:${targetPort}`;
        headers.forwarded = `for="${incoming.socket.remoteAddress}";host="${host}";proto=https`;
      }
      const record: Passed = {
        method: incoming.method ?? '',
        path: incoming.url ?? '',
        origin: incoming.headers.origin,
        requestHeaders: incoming.headers['access-control-request-headers'],
      };
      passed.push(record);
      const upstream = http.request(
        {
          host: '127.0.0.1',
          port: targetPort,
          method: incoming.method,
          path: incoming.url,
          headers,
        },
        (answer) => {
          record.status = answer.statusCode;
          outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(outgoing);
        },
      );
      upstream.on('error', () => outgoing.destroy());
      incoming.pipe(upstream);
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    passed,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
