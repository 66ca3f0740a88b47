// paydrop/server/redis: the companion's shared store for several instances, on ioredis (an
// optional peer dependency: install it to use this entry).

export { createRedisStore, type RedisStore, type RedisStoreOptions } from './redis-store';
