// paydrop/server/postgres: the companion's system of record for several instances, on
// node-postgres (`pg`, an optional peer dependency: install it to use this entry).

export {
  createPostgresStore,
  type PostgresStore,
  type PostgresStoreOptions,
} from './postgres-store';
