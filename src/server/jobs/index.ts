// The jobs room's public surface: background work kept as jobs in the store, claimed by one
// instance each, retried with backoff.

export * from './background';
export * from './jobs';
