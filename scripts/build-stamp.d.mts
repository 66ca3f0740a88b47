/** The folder `npm run build` writes. */
export const DIST: string;
/** The builds the stamp knows, with their inputs and the files each must leave. */
export const TARGETS: Record<
  'build' | 'build:widget',
  { inputs: string[]; outputs: string[]; includes?: 'build:widget' }
>;
/** Where the stamp of `script`'s last successful build is kept. */
export function stampOf(script: string): string;
/** The hash of `script`'s inputs as they are now. */
export function fingerprint(script: string): string;
/** True when dist/ holds `script`'s outputs, built from the sources as they are now. */
export function built(script: string): boolean;
