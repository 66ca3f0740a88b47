/**
 * Which client a request comes from (issue 20, item 2): the socket's address by default, as the
 * Node adapter records it; proxy headers only when the merchant says a proxy is in front, and
 * then counted from the right, so a forged header neither spreads an attacker over addresses nor
 * frames another customer.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  addressKey,
  clientAddressOf,
  rememberClientAddress,
} from '../../../src/server/http/client-address';
import { type CompanionRig, companionCall, startCompanion } from '../../helpers/companion';

function request(headers: Record<string, string> = {}, socket?: string): Request {
  const made = new Request('http://shop.test/api/checkout/session', { headers });
  rememberClientAddress(made, socket);
  return made;
}

describe('clientAddressOf', () => {
  it('is the socket’s address by default, whatever proxy headers say', () => {
    const forged = request(
      { 'x-forwarded-for': '1.2.3.4', forwarded: 'for=5.6.7.8' },
      '203.0.113.7',
    );
    expect(clientAddressOf(forged, {})).toBe('203.0.113.7');
    expect(clientAddressOf(forged, { trustProxy: false })).toBe('203.0.113.7');
  });

  it('is null without a socket or an option (another runtime): per-address limits are skipped', () => {
    expect(clientAddressOf(request({ 'x-forwarded-for': '1.2.3.4' }), {})).toBeNull();
  });

  it('behind one proxy, is what that proxy saw: the rightmost entry, not what the client wrote before it', () => {
    const viaProxy = request({ 'x-forwarded-for': '6.6.6.6, 203.0.113.8' }, '10.0.0.2');
    expect(clientAddressOf(viaProxy, { trustProxy: true })).toBe('203.0.113.8');
    expect(clientAddressOf(viaProxy, { trustProxy: 1 })).toBe('203.0.113.8');
    // Two proxies of the merchant's: the second from the right.
    const twoHops = request({ 'x-forwarded-for': '6.6.6.6, 203.0.113.8, 10.0.0.9' }, '10.0.0.2');
    expect(clientAddressOf(twoHops, { trustProxy: 2 })).toBe('203.0.113.8');
    // Fewer entries than proxies: not written by them; the socket is all we know.
    expect(
      clientAddressOf(request({ 'x-forwarded-for': '6.6.6.6' }, '10.0.0.2'), { trustProxy: 2 }),
    ).toBe('10.0.0.2');
  });

  it('reads RFC 7239 Forwarded when told to, and only then', () => {
    const made = request(
      { forwarded: 'for=6.6.6.6, for="[2001:db8:cafe:1::17]:4711"', 'x-forwarded-for': '7.7.7.7' },
      '10.0.0.2',
    );
    expect(clientAddressOf(made, { trustProxy: { header: 'forwarded' } })).toBe(
      '2001:db8:cafe:1::/64',
    );
    expect(clientAddressOf(made, { trustProxy: 1 })).toBe('7.7.7.7');
  });

  it('is the merchant’s own answer when clientAddress is given', () => {
    const made = request({ 'cf-connecting-ip': '198.51.100.4' }, '10.0.0.2');
    expect(clientAddressOf(made, { clientAddress: (r) => r.headers.get('cf-connecting-ip') })).toBe(
      '198.51.100.4',
    );
    expect(clientAddressOf(made, { clientAddress: () => null })).toBeNull();
  });

  it('keys IPv6 by its /64 (one customer’s line) and IPv4-mapped addresses as IPv4', () => {
    expect(addressKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8:1:2:bbbb:cccc:dddd:eeee')).toBe('2001:db8:1:2::/64');
    expect(addressKey('::ffff:192.0.2.1')).toBe('192.0.2.1');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
  });
});

describe('over a real socket', () => {
  let rig: CompanionRig | undefined;
  afterEach(async () => {
    await rig?.close();
    rig = undefined;
  });

  it('a client forging X-Forwarded-For on every request is still one address to the limits', async () => {
    rig = await startCompanion({ limits: { paymentsPerAddressPerHour: 2 } });
    const statuses = [];
    for (let order = 0; order < 4; order++) {
      const forged = { 'x-forwarded-for': `198.51.100.${order}` };
      const session = await companionCall(rig, 'POST', '/session', {
        body: { order: `order-ngn:forged-${order}` },
        headers: forged,
      });
      const initiated = await companionCall(rig, 'POST', '/initiate', {
        token: session.body.token,
        body: { channel: 'PayByTransfer' },
        headers: forged,
      });
      statuses.push(initiated.status);
    }
    expect(statuses).toEqual([200, 200, 429, 429]);
  });
});
