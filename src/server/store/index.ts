// The store room's public surface: the contract every room above keeps its records through, the
// memory store, and the error a store throws when it cannot answer. The SQLite, Redis and
// PostgreSQL stores are entries of their own (paydrop/server/sqlite, /redis, /postgres).

export * from './records';
export * from './store';
export * from './store-unavailable';
export { windowEntries } from './store-window';
