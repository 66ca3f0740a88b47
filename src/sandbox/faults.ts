/**
 * Faults on demand (`POST /__sandbox/config` → `faults`): per operation, an ordered script of
 * steps ("500, 500, then normal"), or a step that strikes at random with a given chance, drawn
 * from a PRNG seeded by the config's `seed` so that a failing run can be replayed exactly.
 */
import * as v from 'valibot';
import { OPERATION_NAMES, type OperationName } from '../protocol';

const Milliseconds = v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(60_000));

/** Steps that change how an operation's HTTP answer goes. */
const OperationStep = v.variant('type', [
  v.strictObject({ type: v.literal('none') }),
  v.strictObject({
    type: v.literal('latency'),
    ms: Milliseconds,
    jitterMs: v.optional(Milliseconds),
  }),
  v.strictObject({
    type: v.literal('error'),
    status: v.pipe(v.number(), v.integer(), v.minValue(500), v.maxValue(599)),
  }),
  v.strictObject({
    type: v.literal('rateLimit'),
    retryAfterSeconds: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(3600)),
  }),
  v.strictObject({ type: v.literal('drop') }),
  v.strictObject({ type: v.literal('malformed') }),
  v.strictObject({ type: v.literal('lostResponse') }),
]);

/** Steps that change how one webhook is delivered. */
const WebhookStep = v.variant('type', [
  v.strictObject({ type: v.literal('none') }),
  v.strictObject({ type: v.literal('duplicate') }),
  v.strictObject({ type: v.literal('delay'), ms: Milliseconds }),
  v.strictObject({ type: v.literal('outOfOrder') }),
]);

const Chance = v.pipe(v.number(), v.minValue(0), v.maxValue(1));

/** An outage: every call within this many seconds (sandbox time) of the config gets `step`. */
const Duration = v.pipe(v.number(), v.minValue(0), v.maxValue(7 * 24 * 3600));

const OperationRule = v.strictObject({
  endpoint: v.picklist([...OPERATION_NAMES, '*'] as const),
  steps: v.optional(v.pipe(v.array(OperationStep), v.maxLength(100))),
  chance: v.optional(Chance),
  forSeconds: v.optional(Duration),
  step: v.optional(OperationStep),
});

const WebhookRule = v.strictObject({
  endpoint: v.literal('webhook'),
  steps: v.optional(v.pipe(v.array(WebhookStep), v.maxLength(100))),
  chance: v.optional(Chance),
  step: v.optional(WebhookStep),
});

/** One rule of the fault list; `steps`, or `step` with `chance` and/or `forSeconds`. */
export const FaultRuleSchema = v.pipe(
  v.union([WebhookRule, OperationRule]),
  v.check(
    (rule) =>
      (rule.steps !== undefined) !==
      (rule.step !== undefined &&
        (rule.chance !== undefined || ('forSeconds' in rule && rule.forSeconds !== undefined))),
    'a fault needs either "steps", or "step" with "chance" or "forSeconds"',
  ),
);

export type FaultRule = v.InferOutput<typeof FaultRuleSchema>;
export type OperationFault = v.InferOutput<typeof OperationStep>;
export type WebhookFault = v.InferOutput<typeof WebhookStep>;

/** mulberry32: tiny, fast and good enough to pick faults reproducibly. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface FaultPlan {
  /** The fault for this call of an operation, if any; consumes one scripted step. */
  forOperation(operation: OperationName): OperationFault | undefined;
  /** The fault for this webhook delivery, if any. */
  forWebhook(): WebhookFault | undefined;
  /** Draws a number in [0, 1) from the seeded generator (latency jitter). */
  random(): number;
}

export function createFaultPlan(
  rules: readonly FaultRule[],
  seed: number,
  now: () => number = Date.now,
): FaultPlan {
  const random = seededRandom(seed);
  const remaining = rules.map((rule) => [...(rule.steps ?? [])]);
  const configuredAt = now();

  function take<T>(matches: (rule: FaultRule) => boolean): T | undefined {
    for (const [index, rule] of rules.entries()) {
      if (!matches(rule)) continue;
      const script = remaining[index];
      if (rule.steps && script && script.length > 0) return script.shift() as T;
      const forSeconds = 'forSeconds' in rule ? rule.forSeconds : undefined;
      // An outage strikes every call until it is over (and, with a chance, only some of them).
      if (forSeconds !== undefined && now() - configuredAt >= forSeconds * 1000) continue;
      if (rule.step && (rule.chance === undefined || random() < rule.chance)) return rule.step as T;
    }
    return undefined;
  }

  return {
    forOperation(operation) {
      // A rule naming the operation wins over a '*' rule; both are consulted in list order.
      return (
        take<OperationFault>((rule) => rule.endpoint === operation) ??
        take<OperationFault>((rule) => rule.endpoint === '*')
      );
    },
    forWebhook() {
      return take<WebhookFault>((rule) => rule.endpoint === 'webhook');
    },
    random,
  };
}
