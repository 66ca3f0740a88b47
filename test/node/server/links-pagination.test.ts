/**
 * Every payment link ever created is listed (issue 24, "done when": the back office lists all 105
 * payment links after 105 are created), a page at a time, newest first, through the real
 * back-office handler against the sandbox, on a real SQLite file and in memory.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type CheckoutStore, createMemoryStore, createPayoutsHandler } from '../../../src/server';
import { createSqliteStore } from '../../../src/server/store/sqlite';
import { startSandbox } from '../../helpers/sandbox';

const folder = mkdtempSync(join(tmpdir(), 'paydrop-links-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe.each([
  ['memory', () => createMemoryStore()],
  ['SQLite', () => createSqliteStore({ path: join(folder, 'links.db') })],
] as Array<[string, () => CheckoutStore]>)('%s store', (_name, createStore) => {
  it('lists all 105 links created, newest first, by pages with a cursor', async () => {
    const sandbox = await startSandbox();
    const store = createStore();
    const backOffice = createPayoutsHandler({
      secretKey: sandbox.secretKey,
      baseUrl: sandbox.url,
      store,
      authorize: () => true,
      logger: { warn: () => {}, error: () => {} },
    });
    const office = 'http://localhost/api/back-office';
    const ask = (path: string, init?: RequestInit) =>
      backOffice(new Request(`${office}${path}`, init));
    try {
      const created: string[] = [];
      for (let n = 1; n <= 105; n++) {
        const answer = await ask('/links', {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: 'http://localhost' },
          body: JSON.stringify({ name: `Invoice ${n}`, linkType: 'Reusable', currency: 'NGN' }),
        });
        expect(answer.status).toBe(201);
        created.push(((await answer.json()) as { link: { alias: string } }).link.alias);
      }

      const listed: string[] = [];
      const sizes: number[] = [];
      let after: string | null = null;
      do {
        const answer = await ask(`/links${after ? `?after=${encodeURIComponent(after)}` : ''}`);
        expect(answer.status).toBe(200);
        const page = (await answer.json()) as {
          links: Array<{ alias: string; name: string }>;
          next: string | null;
        };
        sizes.push(page.links.length);
        listed.push(...page.links.map((link) => link.alias));
        after = page.next;
      } while (after !== null);

      expect(sizes).toEqual([20, 20, 20, 20, 20, 5]);
      expect(new Set(listed).size).toBe(105);
      // Newest first: the order they were created in, reversed; none missing, none twice.
      expect(listed).toEqual([...created].reverse());

      // A page size of the caller's choosing, within bounds; a cursor that is not one is refused.
      const fifty = (await (await ask('/links?limit=50')).json()) as { links: unknown[] };
      expect(fifty.links).toHaveLength(50);
      const tooMany = await ask('/links?limit=101');
      expect(tooMany.status).toBe(400);
      const badCursor = await ask('/links?after=nonsense');
      expect(badCursor.status).toBe(400);
      expect(((await badCursor.json()) as { error: { code: string } }).error.code).toBe(
        'invalid_request',
      );
    } finally {
      backOffice.close();
      await store.close();
      await sandbox.close();
    }
  });
});
