// Makes sure a redis-server is there before the tests run: the shared-store tests start their own
// on a free loopback port. Debian's package where apt-get is available; elsewhere the Redis tests
// say they were skipped (outside CI), and REDIS_SERVER may point at a binary of your own.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';

function findRedis() {
  if (process.env.REDIS_SERVER)
    return existsSync(process.env.REDIS_SERVER) ? process.env.REDIS_SERVER : undefined;
  return (process.env.PATH ?? '')
    .split(delimiter)
    .filter(Boolean)
    .map((folder) => join(folder, 'redis-server'))
    .find((file) => existsSync(file));
}

function run(command, args) {
  console.log(`ensure-redis: ${command} ${args.join(' ')}`);
  return spawnSync(command, args, { stdio: 'inherit' }).status === 0;
}

const found = findRedis();
if (found) {
  console.log(`ensure-redis: using ${found}`);
  process.exit(0);
}
const apt = spawnSync('sh', ['-c', 'command -v apt-get']).status === 0;
if (apt) {
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const [command, ...prefix] = isRoot ? ['apt-get'] : ['sudo', 'apt-get'];
  if (
    run(command, [...prefix, 'update']) &&
    run(command, [...prefix, 'install', '-y', 'redis-server']) &&
    findRedis()
  ) {
    process.exit(0);
  }
}
if (process.env.CI) {
  console.error('ensure-redis: no redis-server found and none could be installed.');
  process.exit(1);
}
console.warn(
  'ensure-redis: no redis-server here; the Redis store tests will be skipped. Install Redis or set REDIS_SERVER.',
);
