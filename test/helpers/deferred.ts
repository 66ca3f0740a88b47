/** A promise the test resolves or rejects when it chooses, and whether it has. */
export interface Deferred<T> {
  readonly promise: Promise<T>;
  resolve(value: T): void;
  reject(error: unknown): void;
  readonly settled: boolean;
}

export function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  let settled = false;
  const promise = new Promise<T>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  return {
    promise,
    resolve(value) {
      settled = true;
      resolve(value);
    },
    reject(error) {
      settled = true;
      reject(error);
    },
    get settled() {
      return settled;
    },
  };
}
