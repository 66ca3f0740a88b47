/**
 * The stores' package entries: exactly what they export, and the drivers (optional peers) kept
 * to them, so `paydrop/server` and a widget-only install need none of better-sqlite3, ioredis
 * and pg.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect, it } from 'vitest';
import * as postgresEntry from '../../../src/server/store/postgres';
import * as redisEntry from '../../../src/server/store/redis';
import * as sqliteEntry from '../../../src/server/store/sqlite';

const root = new URL('../../../', import.meta.url).pathname;

function sources(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sources(join(folder, entry.name))
      : /\.tsx?$/.test(entry.name)
        ? [join(folder, entry.name)]
        : [],
  );
}

it('exports the store factories and nothing else', () => {
  expect(Object.keys(sqliteEntry).sort()).toEqual(['createSqliteStore']);
  expect(Object.keys(redisEntry).sort()).toEqual(['createRedisStore']);
  expect(Object.keys(postgresEntry).sort()).toEqual(['createPostgresStore']);
});

it('imports better-sqlite3, ioredis and pg only from their own entries', () => {
  const offenders = sources(join(root, 'src'))
    .map((file) => relative(root, file))
    .filter((file) => !/^src\/server\/store\/(sqlite|redis|postgres)\//.test(file))
    .filter((file) =>
      /from ['"](better-sqlite3|ioredis|pg)['"]|import\(['"](better-sqlite3|ioredis|pg)['"]\)/.test(
        readFileSync(join(root, file), 'utf8'),
      ),
    );
  expect(offenders).toEqual([]);
});

it('publishes each entry with its types, the drivers as optional peers', () => {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  expect(pkg.exports['./server/sqlite']).toMatchObject({
    types: './dist/types/server/store/sqlite/index.d.ts',
    import: './dist/server-sqlite.js',
  });
  expect(pkg.exports['./server/redis']).toMatchObject({
    types: './dist/types/server/store/redis/index.d.ts',
    import: './dist/server-redis.js',
  });
  expect(pkg.exports['./server/postgres']).toMatchObject({
    types: './dist/types/server/store/postgres/index.d.ts',
    import: './dist/server-postgres.js',
  });
  for (const driver of ['better-sqlite3', 'ioredis', 'pg']) {
    expect(pkg.peerDependencies[driver]).toBeDefined();
    expect(pkg.peerDependenciesMeta[driver]).toEqual({ optional: true });
    expect(pkg.dependencies?.[driver]).toBeUndefined();
  }
});
