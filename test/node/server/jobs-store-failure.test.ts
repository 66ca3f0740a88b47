/**
 * The job picker when the store fails as a job ends (src/server/jobs/jobs.ts): the job's end is
 * logged and left to its lease, never thrown at nobody. Found by `npm run bench`: the chaos
 * bench closed its PostgreSQL store while a job was finishing, and the rejection nobody waited
 * for ended the process. In a shop the same comes from an outage between a claim and a job's end.
 */
import { afterEach, expect, it } from 'vitest';
import { createJobPicker } from '../../../src/server/jobs';
import { type CheckoutStore, createMemoryStore } from '../../../src/server/store/store';

const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);
afterEach(() => {
  process.off('unhandledRejection', onUnhandled);
  unhandled.length = 0;
});

/** The event loop's next turns: what the jobs started do meanwhile (no wall-clock wait). */
async function turns(count: number) {
  for (let turn = 0; turn < count; turn++) await new Promise((resolve) => setImmediate(resolve));
}

it('logs a job whose end the store cannot save, and leaves no rejection unhandled', async () => {
  process.on('unhandledRejection', onUnhandled);
  const memory = createMemoryStore({ now: () => 1_000 });
  await memory.schedule('payments', 'PAY_1', { reference: 'PAY_1' }, 0);
  const down = new Error('the store is closed');
  // The first queue's claim works and its job starts; then the store goes: the next queue's
  // claim fails, and so does saving the started job's end.
  const store = new Proxy(memory, {
    get(target, name, receiver) {
      if (name === 'claim')
        return (queue: string, ...rest: [string, number, number, number]) =>
          queue === 'payments' ? target.claim(queue, ...rest) : Promise.reject(down);
      if (name === 'finish' || name === 'schedule') return () => Promise.reject(down);
      return Reflect.get(target, name, receiver);
    },
  }) as CheckoutStore;
  const errors: Array<[string, unknown]> = [];
  const ran: string[] = [];
  const picker = createJobPicker({
    store,
    now: () => 1_000,
    logger: { warn: () => {}, error: (message, details) => errors.push([message, details]) },
    background: (work) => void work().catch(() => {}),
    poll: false,
    queues: {
      payments: async (key) => {
        ran.push(key);
        return { done: true };
      },
      payouts: async () => ({ done: true }),
    },
  });

  await expect(picker.runDue()).rejects.toBe(down);
  await turns(5);
  expect(ran).toEqual(['PAY_1']);
  expect(errors).toEqual([
    [
      'paydrop: a background job ran but its end could not be saved; it will run again',
      { queue: 'payments', key: 'PAY_1', error: 'the store is closed' },
    ],
  ]);
  expect(unhandled).toEqual([]);
  picker.close();
});
