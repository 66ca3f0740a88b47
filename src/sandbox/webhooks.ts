/**
 * Webhook delivery as real providers do it: each event POSTed with a unique id, retried with
 * backoff while the receiver fails, optionally signed the Standard Webhooks way, and, when a
 * fault says so, delivered twice, late or out of order. Retries run on the sandbox clock, so
 * moving the clock forward hurries them along.
 */
import type { WireWebhook } from '../protocol';
import { signWebhook } from '../provider/webhook-signature';
import type { SandboxClock } from './clock';
import type { FaultPlan } from './faults';
import type { WebhookIntent } from './state';

/** Default waits before each retry: 1 s, 2 s, 4 s … about 4 minutes in all, 9 attempts. */
export const DEFAULT_RETRY_DELAYS_MS = [1000, 2000, 4000, 8000, 16_000, 32_000, 64_000, 128_000];

/** An out-of-order event is held at most this long for a later one to overtake it. */
const HOLD_LIMIT_MS = 5000;

export interface WebhookDelivery {
  readonly id: string;
  readonly event: WireWebhook['event'];
  readonly reference: string;
  readonly body: string;
  attempts: number;
  /** delivered: a 2xx came back; failed: every retry used up. */
  state: 'pending' | 'delivered' | 'failed';
  lastStatus: number | null;
  lastError: string | null;
  deliveredAt: string | null;
}

export interface WebhookDispatcherOptions {
  readonly clock: SandboxClock;
  readonly config: () => { webhookUrl: string | null; webhookSecret: string | null };
  readonly faults: () => FaultPlan;
  readonly newId: () => string;
  readonly retryDelaysMs?: readonly number[];
  readonly fetch?: typeof fetch;
  readonly timeoutMs?: number;
}

export function createWebhookDispatcher(options: WebhookDispatcherOptions) {
  const retryDelays = options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
  const send = options.fetch ?? fetch;
  const deliveries: WebhookDelivery[] = [];
  const cancels = new Set<() => void>();
  const inFlight = new Set<AbortController>();
  let held: { delivery: WebhookDelivery; cancel: () => void } | null = null;
  let closed = false;

  function later(delayMs: number, task: () => void): void {
    const cancel = options.clock.schedule(options.clock.now() + delayMs, () => {
      cancels.delete(cancel);
      task();
    });
    cancels.add(cancel);
  }

  async function attempt(delivery: WebhookDelivery): Promise<void> {
    const { webhookUrl, webhookSecret } = options.config();
    if (closed || !webhookUrl || delivery.state !== 'pending') return;
    delivery.attempts += 1;
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'user-agent': 'paydrop-sandbox-webhooks',
    };
    // Real time, not the sandbox clock: receivers check the timestamp against their own clock.
    const timestamp = Math.floor(Date.now() / 1000);
    if (webhookSecret) {
      Object.assign(
        headers,
        await signWebhook({
          id: delivery.id,
          timestamp,
          body: delivery.body,
          secret: webhookSecret,
        }),
      );
    } else {
      headers['webhook-id'] = delivery.id;
      headers['webhook-timestamp'] = String(timestamp);
    }
    const controller = new AbortController();
    inFlight.add(controller);
    const timer = setTimeout(() => controller.abort(), options.timeoutMs ?? 5000);
    try {
      const response = await send(webhookUrl, {
        method: 'POST',
        headers,
        body: delivery.body,
        signal: controller.signal,
      });
      await response.body?.cancel();
      delivery.lastStatus = response.status;
      delivery.lastError = null;
      if (response.ok) {
        delivery.state = 'delivered';
        delivery.deliveredAt = new Date(options.clock.now()).toISOString();
        return;
      }
    } catch (error) {
      delivery.lastStatus = null;
      delivery.lastError = error instanceof Error ? error.message : String(error);
    } finally {
      clearTimeout(timer);
      inFlight.delete(controller);
    }
    if (closed) return;
    const wait = retryDelays[delivery.attempts - 1];
    if (wait === undefined) delivery.state = 'failed';
    else later(wait, () => void attempt(delivery));
  }

  function release(delivery: WebhookDelivery, delayMs = 0): void {
    if (delayMs > 0) later(delayMs, () => void attempt(delivery));
    else void attempt(delivery);
  }

  return {
    deliveries,

    /** Turns a state change into a webhook and sends it, faults permitting. */
    dispatch(intent: WebhookIntent): WebhookDelivery {
      const id = options.newId();
      const payload: WireWebhook = {
        id,
        event: intent.event,
        createdAt: new Date(options.clock.now()).toISOString(),
        data: intent.data as WireWebhook['data'],
      };
      const delivery: WebhookDelivery = {
        id,
        event: intent.event,
        reference: intent.data.reference,
        body: JSON.stringify(payload),
        attempts: 0,
        state: 'pending',
        lastStatus: null,
        lastError: null,
        deliveredAt: null,
      };
      deliveries.push(delivery);
      const fault = options.faults().forWebhook();
      const previouslyHeld = held;
      held = null;

      if (fault?.type === 'outOfOrder') {
        // Held back until the next event has gone, so the receiver sees them swapped.
        let cancel = () => {};
        const timeout = options.clock.schedule(options.clock.now() + HOLD_LIMIT_MS, () => {
          if (held?.delivery === delivery) held = null;
          release(delivery);
        });
        cancel = timeout;
        held = { delivery, cancel };
      } else if (fault?.type === 'delay') {
        release(delivery, fault.ms);
      } else {
        release(delivery);
        if (fault?.type === 'duplicate') {
          // The same event, same id, once more: receivers must dedupe.
          const twin: WebhookDelivery = { ...delivery, attempts: 0, state: 'pending' };
          deliveries.push(twin);
          release(twin, 50);
        }
      }
      if (previouslyHeld) {
        previouslyHeld.cancel();
        release(previouslyHeld.delivery, 50);
      }
      return delivery;
    },

    close(): void {
      closed = true;
      held?.cancel();
      held = null;
      for (const cancel of cancels) cancel();
      cancels.clear();
      for (const controller of inFlight) controller.abort();
    },
  };
}

export type WebhookDispatcher = ReturnType<typeof createWebhookDispatcher>;
