// paydrop/server/sqlite: the companion's durable store for one instance, on better-sqlite3 (an
// optional peer dependency: install it to use this entry).

export { createSqliteStore, type SqliteStoreOptions } from './sqlite-store';
