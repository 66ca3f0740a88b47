// The store's contract (contract.ts) and the memory store (memory-store.ts), under one name for
// the rooms above and the durable stores beside it.
export * from './contract';
export * from './memory-store';
