// Webhook signatures from the packed package interoperate with the reference Standard Webhooks
// library both ways: what paydrop signs, `standardwebhooks` verifies, and what it signs, paydrop
// verifies (and refuses once the body is touched).
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Webhook } from 'standardwebhooks';
import { beforeAll, expect, it } from 'vitest';
import type * as Server from '../../src/server';
import { packedPackage } from './packed-package';

let paydrop: typeof Server;

beforeAll(async () => {
  const server = join(packedPackage().consumer, 'node_modules/paydrop/dist/server.js');
  paydrop = await import(pathToFileURL(server).href);
});

const body = JSON.stringify({ event: 'payment.success', data: { reference: 'ref-42' } });

it('signs what standardwebhooks verifies', async () => {
  const secret = paydrop.generateWebhookSecret();
  const timestamp = Math.floor(Date.now() / 1000);
  const headers = await paydrop.signWebhook({ id: 'msg_1', timestamp, body, secret });
  expect(new Webhook(secret).verify(body, { ...headers })).toEqual(JSON.parse(body));
});

it('verifies what standardwebhooks signs, and refuses a changed body', async () => {
  const secret = paydrop.generateWebhookSecret();
  const now = new Date();
  const headers = {
    'webhook-id': 'msg_2',
    'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign('msg_2', now, body),
  };
  await expect(paydrop.verifyWebhook({ headers, body, secrets: [secret] })).resolves.toMatchObject({
    id: 'msg_2',
  });
  await expect(
    paydrop.verifyWebhook({ headers, body: body.replace('42', '43'), secrets: [secret] }),
  ).rejects.toBeInstanceOf(paydrop.WebhookVerificationError);
});
