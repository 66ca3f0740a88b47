// Found by the streams bench (issue 10): browsers whose /events opened while the Redis store's
// pub/sub connection was still connecting never heard their outcome live. ioredis's ready check
// (INFO) failed on the connection a SUBSCRIBE had meanwhile put in subscriber mode, and rejected
// that subscription. Subscriptions arriving one by one, as browsers do, must all hear.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createRedisStore } from '../../../src/server/store/redis';
import { hasRedisServer, type RunningRedis, startRedis } from '../../helpers/redis';

let redis: RunningRedis | undefined;
beforeAll(async () => {
  if (hasRedisServer()) redis = await startRedis();
});
afterAll(async () => {
  await redis?.stop();
});

it.skipIf(!hasRedisServer())(
  'hears every event on streams subscribed one every few ms while its connection comes up',
  async () => {
    const url = (redis as RunningRedis).url;
    const holder = createRedisStore({ url, prefix: 'spread:' });
    const writer = createRedisStore({ url, prefix: 'spread:' });
    try {
      await holder.get('warm'); // the main connection up; the pub/sub one not yet
      const heard = new Set<number>();
      const count = 60;
      await Promise.all(
        Array.from({ length: count }, async (_, index) => {
          await new Promise((resolve) => setTimeout(resolve, index * 2));
          holder.subscribe(`events:spread-${index}`, () => heard.add(index));
          await holder.read(`events:spread-${index}`);
        }),
      );
      for (let index = 0; index < count; index++)
        await writer.append(`events:spread-${index}`, { status: 'SUCCESSFUL' });
      await expect.poll(() => heard.size).toBe(count);
    } finally {
      await Promise.all([holder.close(), writer.close()]);
    }
  },
);
