/**
 * One sandbox's whole world: its clock, state, configuration, faults and webhook queue. Reset
 * replaces the world, which is why nothing else may hold on to its parts.
 */
import { createClock, type SandboxClock } from './clock';
import { createFaultPlan, type FaultPlan, type FaultRule } from './faults';
import { createLedger, createState, type SandboxLedger, type SandboxState } from './state';
import { createWebhookDispatcher, type WebhookDispatcher } from './webhooks';

export interface SandboxConfig {
  webhookUrl: string | null;
  webhookSecret: string | null;
  faults: FaultRule[];
  seed: number;
}

export interface World {
  readonly clock: SandboxClock;
  readonly state: SandboxState;
  readonly ledger: SandboxLedger;
  readonly config: SandboxConfig;
  readonly webhooks: WebhookDispatcher;
  faultPlan: FaultPlan;
  /** Status queries per reference, for the rate limit (times in ms). */
  readonly statusQueries: Map<string, number[]>;
}

export interface WorldOptions {
  readonly webhookUrl?: string | null | undefined;
  readonly webhookSecret?: string | null | undefined;
  readonly seed?: number | undefined;
  readonly webhookRetryDelaysMs?: readonly number[] | undefined;
  readonly fetch?: typeof fetch | undefined;
}

export function createWorld(options: WorldOptions): World {
  const clock = createClock();
  const state = createState();
  const config: SandboxConfig = {
    webhookUrl: options.webhookUrl ?? null,
    webhookSecret: options.webhookSecret ?? null,
    faults: [],
    seed: options.seed ?? 1,
  };
  const newId = () => `evt_${crypto.randomUUID().replaceAll('-', '')}`;
  const world: World = {
    clock,
    state,
    config,
    faultPlan: createFaultPlan([], config.seed),
    statusQueries: new Map(),
    webhooks: createWebhookDispatcher({
      clock,
      config: () => config,
      faults: () => world.faultPlan,
      newId,
      ...(options.webhookRetryDelaysMs ? { retryDelaysMs: options.webhookRetryDelaysMs } : {}),
      ...(options.fetch ? { fetch: options.fetch } : {}),
    }),
    ledger: createLedger({
      state,
      clock,
      emit: (intent) => world.webhooks.dispatch(intent),
    }),
  };
  return world;
}

export function closeWorld(world: World): void {
  world.webhooks.close();
  world.clock.close();
}
