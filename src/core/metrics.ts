/**
 * Scout's metrics, in one prom-client registry per app (never the library's global one, so several apps in one
 * process, as in the tests, keep their own counts). Each layer gets the few hooks it reports through, passed in
 * explicitly; `GET /metrics` serves the registry in the Prometheus text format.
 */
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { Platform } from './actor.js';
import type { CommandOutcome } from './command/outcome.js';
import type { Priority } from './service/types.js';

/** What a chat platform acknowledges: a slash command, an element press, a form submission. */
export type AckKind = 'command' | 'action' | 'view';

/** How a background post ended. */
export type PostOutcome = 'posted' | 'failed';

/** How a digest run ended: posted, not posted (tried again later), or not prepared (tried again later). */
export type DigestOutcome = 'posted' | 'post_failed' | 'prepare_failed';

/** How sure the ledger is of credits it counts as charged: the service's answer, or reported balances. */
export type ChargeState = 'confirmed' | 'settled';

/** What the registry reads when it is scraped. */
export interface MetricsSources {
  /** Ledger completions kept in memory because the disk was full. */
  unwritten?: () => number;
}

/** The app's metrics: the hooks every layer reports through, and the registry behind them. */
export interface Metrics {
  readonly registry: Registry;
  /** A command (typed or from a form) ended. */
  command(family: string, outcome: CommandOutcome): void;
  /** An element press (button, select, typed choice) ended. */
  action(family: string, outcome: CommandOutcome): void;
  /** A platform request was acknowledged `seconds` after it arrived. */
  ack(platform: Exclude<Platform, 'terminal'>, kind: AckKind, seconds: number): void;
  /** One HTTP request to the service ended: its status code, or what went wrong (`timeout`, `network_error`). */
  request(operation: string, status: string, seconds: number): void;
  /** A job joined (+1) or left (-1) a rate limiter's queue. */
  queued(priority: Priority, delta: number): void;
  /** A job waited `seconds` in a rate limiter's queue before it started. */
  waited(priority: Priority, seconds: number): void;
  /** The ledger counted `credits` of an operation as charged. */
  charged(operation: string, state: ChargeState, credits: number): void;
  /** A reply notification was posted, or could not be. */
  notification(platform: Platform, outcome: PostOutcome): void;
  /** A digest run ended. */
  digestRun(outcome: DigestOutcome): void;
  /** The registry in the Prometheus text format. */
  exposition(): Promise<string>;
  /** The Content-Type of the exposition. */
  readonly contentType: string;
}

/** Acks must be sent within 3 s (Slack) and deferrals within 3 s (Discord): buckets are dense below that. */
const ACK_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 3, 5];
/** Service calls range from a quick search to a video remix of minutes. */
const REQUEST_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300];
/** A turn comes at once, or after a wait up to the 2 minutes a person is asked to wait (more for jobs). */
const WAIT_BUCKETS = [0.01, 0.1, 0.5, 1, 5, 10, 30, 60, 120, 300];

/** Creates the registry, with prom-client's default process metrics, and the hooks over it. */
export function createMetrics(sources: MetricsSources = {}): Metrics {
  const registry = new Registry();
  const registers = [registry];
  collectDefaultMetrics({ register: registry });
  const commands = new Counter({
    name: 'scout_commands_total',
    help: 'Commands handled, by family and outcome.',
    labelNames: ['family', 'outcome'] as const,
    registers,
  });
  const actions = new Counter({
    name: 'scout_actions_total',
    help: 'Element presses handled (buttons, selects, typed choices), by family and outcome.',
    labelNames: ['family', 'outcome'] as const,
    registers,
  });
  const acks = new Histogram({
    name: 'scout_ack_duration_seconds',
    help: 'Time from a platform request arriving to its acknowledgement (Slack ack, Discord defer) being sent.',
    labelNames: ['platform', 'kind'] as const,
    buckets: ACK_BUCKETS,
    registers,
  });
  const requests = new Counter({
    name: 'scout_upstream_requests_total',
    help: 'HTTP requests sent to the service, by operation and status (or timeout, network_error, aborted).',
    labelNames: ['operation', 'status'] as const,
    registers,
  });
  const requestSeconds = new Histogram({
    name: 'scout_upstream_request_duration_seconds',
    help: 'Duration of HTTP requests to the service, by operation.',
    labelNames: ['operation'] as const,
    buckets: REQUEST_BUCKETS,
    registers,
  });
  const queue = new Gauge({
    name: 'scout_rate_limiter_queue_length',
    help: 'Service calls waiting for their turn in the rate limiters, by priority.',
    labelNames: ['priority'] as const,
    registers,
  });
  const waits = new Histogram({
    name: 'scout_rate_limiter_wait_seconds',
    help: 'Time a service call waited in its rate limiter before it started, by priority.',
    labelNames: ['priority'] as const,
    buckets: WAIT_BUCKETS,
    registers,
  });
  const credits = new Counter({
    name: 'scout_credits_charged_total',
    help: 'Credits the ledger counts as charged, by operation and how it knows (confirmed, settled).',
    labelNames: ['operation', 'state'] as const,
    registers,
  });
  const notifications = new Counter({
    name: 'scout_notifications_total',
    help: 'Reply notifications posted to channels, or that could not be posted, by platform.',
    labelNames: ['platform', 'outcome'] as const,
    registers,
  });
  const digests = new Counter({
    name: 'scout_digest_runs_total',
    help: 'Daily digest runs, by outcome.',
    labelNames: ['outcome'] as const,
    registers,
  });
  const { unwritten } = sources;
  new Gauge({
    name: 'scout_ledger_unwritten_completions',
    help: 'Ledger completions kept in memory because the disk is full.',
    registers,
    collect() {
      this.set(unwritten === undefined ? 0 : unwritten());
    },
  });
  for (const priority of ['user', 'background'] as const) queue.set({ priority }, 0);

  return {
    registry,
    command: (family, outcome) => commands.inc({ family, outcome }),
    action: (family, outcome) => actions.inc({ family, outcome }),
    ack: (platform, kind, seconds) => acks.observe({ platform, kind }, seconds),
    request(operation, status, seconds) {
      requests.inc({ operation, status });
      requestSeconds.observe({ operation }, seconds);
    },
    queued(priority, delta) {
      if (delta >= 0) queue.inc({ priority }, delta);
      else queue.dec({ priority }, -delta);
    },
    waited: (priority, seconds) => waits.observe({ priority }, seconds),
    charged(operation, state, amount) {
      if (amount > 0) credits.inc({ operation, state }, amount);
    },
    notification: (platform, outcome) => notifications.inc({ platform, outcome }),
    digestRun: (outcome) => digests.inc({ outcome }),
    exposition: () => registry.metrics(),
    get contentType() {
      return registry.contentType;
    },
  };
}
