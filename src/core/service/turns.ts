/**
 * The jobs of one key waiting for their turn: the fair queue they wait in (fair-queue.ts), what each caller is told
 * while it waits (queue-reports.ts) and what the limiter's metrics count. The key's limiter (key-limiter.ts) takes
 * jobs from here as Bottleneck lets its slots start.
 */
import { ANONYMOUS_PERSON, createFairQueue, type Waiting } from './fair-queue.js';
import type { WindowState } from './queue-estimate.js';
import { createQueueReporter } from './queue-reports.js';
import type { LimiterMetrics, LimiterTicket, ScheduleOptions } from './rate-limiter.js';
import type { Priority } from './types.js';

/** A job waiting for its turn. */
export interface Turn extends Waiting {
  /** performance.now() when it was scheduled. */
  readonly scheduledAt: number;
  /** Runs the job and settles its caller's promise with the outcome; never rejects. */
  run(ticket: LimiterTicket): Promise<void>;
  /** Rejects its caller's promise, the job unstarted. */
  drop(reason: unknown): void;
}

/** The waiting jobs of one key. */
export interface Turns {
  /** Queues a job; settles with its outcome, or rejects when it is taken out (its signal) or dropped unstarted. */
  add<T>(
    priority: Priority,
    job: (ticket: LimiterTicket) => Promise<T>,
    options: ScheduleOptions,
  ): Promise<T>;
  /** Takes the job of `priority` whose turn it is, or null; the caller then starts or drops it. */
  take(priority: Priority): Turn | null;
  /** A job taken starts now. */
  start(turn: Turn): void;
  /** A job taken will not start: its caller gets `reason`. */
  drop(turn: Turn, reason: unknown): void;
  /** Jobs waiting, of one priority or of both. */
  count(priority?: Priority): number;
  /** Drops every waiting job with `reason`, and stops reporting places. */
  stop(reason: unknown): void;
}

/** What the waiting jobs of a key report to, and read from. */
export interface TurnsOptions {
  metrics?: LimiterMetrics | undefined;
  /** People's jobs waiting went up (+1) or down (-1). */
  people(delta: number): void;
  /** Shortest time between two reports of one job's place. */
  reportMs: number;
  /** The key's window now, for the estimates. */
  window(): Promise<WindowState>;
  /** Runs `fn` after `ms` on a timer the limiter owns; null once it stopped. */
  later(ms: number, fn: () => void): NodeJS.Timeout | null;
  cancel(timer: NodeJS.Timeout | null): void;
  /** Jobs were added or taken out: the limiter's slots follow. */
  changed(): void;
}

/** Creates the waiting room of one key. */
export function createTurns(options: TurnsOptions): Turns {
  const { metrics } = options;
  const queue = createFairQueue<Turn>();
  const reporter = createQueueReporter<Turn>({
    intervalMs: options.reportMs,
    places: () => queue.ahead(),
    window: options.window,
    later: options.later,
    cancel: options.cancel,
  });

  /** A job left the queue: it starts, was taken out or is dropped. */
  const left = (turn: Turn) => {
    metrics?.queued(turn.priority, -1);
    if (turn.priority === 'user') options.people(-1);
    reporter.over(turn);
  };
  const drop = (turn: Turn, reason: unknown) => {
    left(turn);
    turn.drop(reason);
  };

  return {
    add: <T>(priority: Priority, job: (ticket: LimiterTicket) => Promise<T>, scheduling: ScheduleOptions) =>
      new Promise<T>((resolve, reject) => {
        const { signal, onQueue, onQueueOver } = scheduling;
        if (signal?.aborted === true) return reject(signal.reason);
        const takeOut = () => {
          if (!queue.remove(turn)) return;
          drop(turn, signal?.reason);
          options.changed();
        };
        const turn: Turn = {
          priority,
          person: scheduling.person ?? ANONYMOUS_PERSON,
          scheduledAt: performance.now(),
          run: async (ticket) => {
            signal?.removeEventListener('abort', takeOut);
            try {
              resolve(await job(ticket));
            } catch (error) {
              reject(error);
            }
          },
          drop: (reason) => {
            signal?.removeEventListener('abort', takeOut);
            reject(reason);
          },
        };
        signal?.addEventListener('abort', takeOut, { once: true });
        queue.push(turn);
        metrics?.queued(priority, 1);
        if (priority === 'user') options.people(1);
        if (onQueue !== undefined) reporter.watch(turn, { onQueue, ...(onQueueOver ? { onQueueOver } : {}) });
        options.changed();
      }),
    take: (priority) => queue.take(priority),
    start(turn) {
      left(turn);
      metrics?.waited(turn.priority, (performance.now() - turn.scheduledAt) / 1000);
    },
    drop,
    count: (priority) => queue.count(priority),
    stop(reason) {
      for (let turn = queue.take('user'); turn !== null; turn = queue.take('user')) drop(turn, reason);
      for (let turn = queue.take('background'); turn !== null; turn = queue.take('background'))
        drop(turn, reason);
      reporter.stop();
    },
  };
}
