/** Flags that keep a headless Chromium quiet on a machine with no network but loopback. */
export const CHROMIUM_ARGS: readonly string[];
/** The path of a Chromium to launch, or undefined when none is on this machine. */
export function findChromium(): Promise<string | undefined>;
