// `npm run sandbox` as a developer starts it: the CLI prints its URL and key, answers with the
// key it was given and refuses any other; a bad PORT stops it with a clear message.
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const KEY = 'sk_test_ops_cli_key';

let child: ChildProcess | undefined;

function start(env: Record<string, string>): ChildProcess {
  // Its own process group, so that npx, tsx and node all stop together.
  const started = spawn('npx', ['tsx', 'src/sandbox/cli.ts'], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  child = started;
  return started;
}

function exited(process_: ChildProcess): Promise<number | null> {
  if (process_.exitCode !== null) return Promise.resolve(process_.exitCode);
  return new Promise((resolve) => process_.once('exit', (code) => resolve(code)));
}

afterEach(async () => {
  const running = child;
  child = undefined;
  if (running?.pid !== undefined && running.exitCode === null && running.signalCode === null) {
    const done = exited(running);
    try {
      process.kill(-running.pid, 'SIGTERM');
    } catch {
      // already gone
    }
    await done;
  }
});

/** Reads stdout until both the URL and the key lines are there. */
function banner(process_: ChildProcess): Promise<{ url: string; key: string }> {
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(() => reject(new Error(`no banner in time: ${out}${err}`)), 15_000);
    process_.stderr?.on('data', (chunk: Buffer) => {
      err += chunk.toString('utf8');
    });
    process_.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const url = /listening on (http:\/\/\S+)/.exec(out)?.[1];
      const key = /secret key \(X-Api\): (\S+)/.exec(out)?.[1];
      if (url && key) {
        clearTimeout(timer);
        resolve({ url, key });
      }
    });
    process_.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code} before the banner: ${out}${err}`));
    });
  });
}

function validate(url: string, key: string): Promise<Response> {
  return fetch(`${url}/api/payment/pay/validate`, {
    method: 'POST',
    headers: { 'X-Api': key, 'content-type': 'application/json' },
    body: JSON.stringify({ amount: { currencyCode: 'NGN', amount: 100 } }),
  });
}

describe('sandbox CLI', () => {
  it('starts on a free port with PORT=0, prints URL and key, and checks the key', async () => {
    const process_ = start({ PORT: '0', SANDBOX_SECRET_KEY: KEY });
    const { url, key } = await banner(process_);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(Number(new URL(url).port)).toBeGreaterThan(0);
    expect(key).toBe(KEY);

    const ok = await validate(url, KEY);
    expect(ok.status).toBe(200);
    const body = await ok.json();
    expect(body.isSuccess).toBe(true);
    expect(body.value.channels.map((channel: { name: string }) => channel.name)).toContain(
      'PayByTransfer',
    );

    const wrong = await validate(url, 'sk_test_paydrop_sandbox');
    expect(wrong.status).toBe(401);
    const none = await fetch(`${url}/__sandbox/payments`);
    expect(none.status).toBe(401);
  });

  it('stops cleanly on SIGTERM', async () => {
    const process_ = start({ PORT: '0', SANDBOX_SECRET_KEY: KEY });
    const { url } = await banner(process_);
    const pid = process_.pid;
    if (pid === undefined) throw new Error('no pid');
    const done = exited(process_);
    process.kill(-pid, 'SIGTERM');
    await done;
    await expect(fetch(`${url}/__sandbox/payments`)).rejects.toThrow();
  });

  it('exits non-zero with a clear message for PORT=abc', async () => {
    const process_ = start({ PORT: 'abc', SANDBOX_SECRET_KEY: KEY });
    let err = '';
    let out = '';
    process_.stderr?.on('data', (chunk: Buffer) => {
      err += chunk.toString('utf8');
    });
    process_.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
    });
    const code = await exited(process_);
    expect(code).not.toBe(0);
    expect(code).not.toBeNull();
    expect(err).toMatch(/PORT/);
    expect(err).toContain('abc');
    expect(out).not.toMatch(/listening/);
  });
});
