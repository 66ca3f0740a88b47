/**
 * A channel the sandbox does not know is refused as the provider refuses bad input, by name, with
 * the channels it does take; it is never taken for another channel (a card attached used to make
 * it a Card payment in the ledger), and nothing is created.
 */
import { describe, expect, it } from 'vitest';
import { CHANNELS } from '../../../src/protocol';
import { SANDBOX_CHANNELS, sandboxChannel } from '../../../src/sandbox/channels';
import { SandboxRefusal } from '../../../src/sandbox/state';
import { call, cardInitiation, listPayments, sandboxPerTest } from '../../helpers/sandbox';

const sandbox = sandboxPerTest();

describe('a channel the sandbox does not know', () => {
  it('is refused by initiate with a 400 ValidationException naming it and the channels taken', async () => {
    const answer = await call(sandbox, 'POST', '/api/payment/pay/initiate', {
      ...cardInitiation('4242424242424242'),
      channel: 'PayByPigeon',
    });
    expect(answer.status, answer.text).toBe(400);
    expect(answer.body.type).toBe('ValidationException');
    expect(answer.body.isSuccess).toBe(false);
    expect(answer.body.failures).toEqual([
      'channel must be PayByTransfer, PayByAccount or Card (got "PayByPigeon").',
    ]);
    expect(await listPayments(sandbox)).toEqual([]);
  });

  it('is refused by validate, by its place in the filter', async () => {
    const answer = await call(sandbox, 'POST', '/api/payment/pay/validate', {
      amount: { currencyCode: 'NGN', amount: 2500 },
      channels: ['Card', 'PayByPigeon'],
    });
    expect(answer.status, answer.text).toBe(400);
    expect(answer.body.failures).toEqual([
      'channels.1 "PayByPigeon" is not a channel (PayByTransfer, PayByAccount, Card).',
    ]);
  });

  it('is refused by the registry itself with a 400, never looked up as another', () => {
    const refusal = (() => {
      try {
        sandboxChannel('PayByPigeon');
      } catch (error) {
        return error;
      }
    })();
    expect(refusal).toBeInstanceOf(SandboxRefusal);
    expect((refusal as SandboxRefusal).status).toBe(400);
    expect((refusal as SandboxRefusal).message).toBe(
      'channel "PayByPigeon" is not a channel this provider offers (PayByTransfer, PayByAccount, Card).',
    );
    // Nor is an inherited name a channel.
    expect(() => sandboxChannel('toString')).toThrow(SandboxRefusal);
  });

  it('the sandbox knows every channel of the protocol, each with its own behaviour', () => {
    expect(Object.keys(SANDBOX_CHANNELS)).toEqual([...CHANNELS]);
    const ids = CHANNELS.map((name) => sandboxChannel(name).id);
    expect(new Set(ids).size).toBe(CHANNELS.length);
  });
});
