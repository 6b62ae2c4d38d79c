/**
 * The jobs of one key waiting to start, in the order they start: people's jobs (priority `user`) take turns person
 * by person, each person's own jobs in the order they came (round robin over per-person lanes), so one person's
 * twenty-page export does not hold up a colleague's single search; background jobs wait, in the order they came,
 * behind every person's. A person who joins takes the last turn of the current round. Bottleneck's queue is first
 * in, first out within a priority, so it cannot take turns person by person: the key's limiter asks this queue which
 * job starts next.
 */
import { createQueueReporter, type WindowState } from './queue-notices.js';
import type { Priority, QueuePlace } from './types.js';

/** The person of people's jobs made without one: they share a single turn, as one more person would. */
export const ANONYMOUS_PERSON = '';

/** What the order needs to know of a waiting job. */
export interface Waiting {
  readonly priority: Priority;
  /** An opaque key of who waits; ignored for background jobs. */
  readonly person: string;
}

/** Waiting jobs in the order they start. */
export interface PersonOrder<E extends Waiting> {
  /** Adds a job behind its person's earlier jobs (background: behind every job). */
  push(entry: E): void;
  /** Takes the job of `priority` whose turn it is, or null when none of that priority waits. */
  take(priority: Priority): E | null;
  /** Takes a job out wherever it stands; false when it is not waiting (any more). */
  remove(entry: E): boolean;
  /** Jobs waiting, of one priority or of both. */
  count(priority?: Priority): number;
  /** For every waiting job, how many jobs will start before it if nobody else joins. */
  ahead(): Map<E, number>;
}

/** Creates an empty order. */
export function createPersonOrder<E extends Waiting>(): PersonOrder<E> {
  /** Each waiting person's jobs, oldest first. */
  const lanes = new Map<string, E[]>();
  /** Persons with jobs waiting, the one whose turn is next first. */
  const ring: string[] = [];
  const background: E[] = [];
  let people = 0;
  return {
    push(entry) {
      if (entry.priority === 'background') return void background.push(entry);
      const lane = lanes.get(entry.person);
      if (lane === undefined) {
        lanes.set(entry.person, [entry]);
        ring.push(entry.person);
      } else lane.push(entry);
      people++;
    },
    take(priority) {
      if (priority === 'background') return background.shift() ?? null;
      const person = ring.shift();
      if (person === undefined) return null;
      const lane = lanes.get(person) as E[];
      people--;
      const entry = lane.shift() as E;
      // Served, the person goes to the end of the round; a person with nothing left leaves it.
      if (lane.length > 0) ring.push(person);
      else lanes.delete(person);
      return entry;
    },
    remove(entry) {
      const lane = entry.priority === 'background' ? background : lanes.get(entry.person);
      const at = lane?.indexOf(entry) ?? -1;
      if (lane === undefined || at < 0) return false;
      lane.splice(at, 1);
      if (entry.priority === 'background') return true;
      people--;
      if (lane.length === 0) {
        lanes.delete(entry.person);
        ring.splice(ring.indexOf(entry.person), 1);
      }
      return true;
    },
    count: (priority) =>
      priority === 'user'
        ? people
        : priority === 'background'
          ? background.length
          : people + background.length,
    ahead() {
      const places = new Map<E, number>();
      const sizes = ring.map((person) => (lanes.get(person) as E[]).length);
      for (const [turn, person] of ring.entries()) {
        for (const [own, entry] of (lanes.get(person) as E[]).entries()) {
          // Before a person's job number `own` (from 0) start: their own earlier jobs, `own` jobs of each person
          // after them in the round and one more of each before them (the current round's), as far as each has.
          let before = own;
          for (const [other, size] of sizes.entries())
            if (other !== turn) before += Math.min(size, own + (other < turn ? 1 : 0));
          places.set(entry, before);
        }
      }
      for (const [at, entry] of background.entries()) places.set(entry, people + at);
      return places;
    },
  };
}

/** Given to a job: lets it give its window slot back at once when nothing reached the service. */
export interface LimiterTicket {
  notSent(): void;
}

/** How a job waits for its turn. */
export interface ScheduleOptions {
  /** Who waits (an opaque key): people's jobs take turns person by person; without one, ANONYMOUS_PERSON's turn. */
  person?: string;
  /** Takes the job out of the queue while it waits (the schedule rejects with the reason); no effect once started. */
  signal?: AbortSignal;
  /** Told the job's place while it waits: see CallOptions.onQueue. */
  onQueue?: (place: QueuePlace) => void;
  /** Told once when a wait `onQueue` was told of is over: the job started, was taken out or dropped. */
  onQueueOver?: () => void;
}

/** What the limiters report: their queue length and how long each job waited, per priority. */
export interface LimiterMetrics {
  /** A job joined (+1) or left (-1) a queue. */
  queued(priority: Priority, delta: number): void;
  /** A job started `seconds` after it was scheduled. */
  waited(priority: Priority, seconds: number): void;
}

/** A job waiting for its turn. */
export interface QueuedJob extends Waiting {
  /** performance.now() when it was scheduled. */
  readonly scheduledAt: number;
  /** Runs the job and settles its caller's promise with the outcome; never rejects. */
  run(ticket: LimiterTicket): Promise<void>;
  /** Rejects its caller's promise, the job unstarted. */
  drop(reason: unknown): void;
}

/** The waiting jobs of one key, with what their callers are told while they wait. */
export interface PersonQueue {
  /** Queues a job; settles with its outcome, or rejects when it is taken out (its signal) or dropped unstarted. */
  add<T>(
    priority: Priority,
    job: (ticket: LimiterTicket) => Promise<T>,
    options: ScheduleOptions,
  ): Promise<T>;
  /** Takes the job of `priority` whose turn it is, or null; the caller then starts or drops it. */
  take(priority: Priority): QueuedJob | null;
  /** A job taken starts now. */
  start(job: QueuedJob): void;
  /** A job taken will not start: its caller gets `reason`. */
  drop(job: QueuedJob, reason: unknown): void;
  /** Jobs waiting, of one priority or of both. */
  count(priority?: Priority): number;
  /** Drops every waiting job with `reason`, and stops reporting places. */
  stop(reason: unknown): void;
}

/** What the queue of a key reports to, and reads from. */
export interface PersonQueueOptions {
  metrics?: LimiterMetrics | undefined;
  /** People's jobs waiting went up (+1) or down (-1). */
  people(delta: number): void;
  /** Shortest time between two reports of one job's place. */
  reportMs: number;
  /** The key's window now, for the estimates. */
  window(): Promise<WindowState>;
  /** Jobs were added or taken out: the limiter's slots follow. */
  changed(): void;
}

/** Creates the queue of one key. */
export function createPersonQueue(options: PersonQueueOptions): PersonQueue {
  const { metrics } = options;
  const order = createPersonOrder<QueuedJob>();
  const reporter = createQueueReporter<QueuedJob>({
    intervalMs: options.reportMs,
    places: () => order.ahead(),
    window: options.window,
  });
  /** A job left the queue: it starts, was taken out or is dropped. */
  const left = (job: QueuedJob) => {
    metrics?.queued(job.priority, -1);
    if (job.priority === 'user') options.people(-1);
    reporter.over(job);
  };
  const drop = (job: QueuedJob, reason: unknown) => {
    left(job);
    job.drop(reason);
  };
  const add = <T>(
    priority: Priority,
    run: (ticket: LimiterTicket) => Promise<T>,
    scheduling: ScheduleOptions,
  ) =>
    new Promise<T>((resolve, reject) => {
      const { signal, onQueue, onQueueOver } = scheduling;
      if (signal?.aborted === true) return reject(signal.reason);
      const takeOut = () => {
        if (!order.remove(job)) return;
        drop(job, signal?.reason);
        options.changed();
      };
      const job: QueuedJob = {
        priority,
        person: scheduling.person ?? ANONYMOUS_PERSON,
        scheduledAt: performance.now(),
        run: async (ticket) => {
          signal?.removeEventListener('abort', takeOut);
          try {
            resolve(await run(ticket));
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
      order.push(job);
      metrics?.queued(priority, 1);
      if (priority === 'user') options.people(1);
      if (onQueue !== undefined) reporter.watch(job, { onQueue, ...(onQueueOver ? { onQueueOver } : {}) });
      options.changed();
    });
  return {
    add,
    take: (priority) => order.take(priority),
    start(job) {
      left(job);
      metrics?.waited(job.priority, (performance.now() - job.scheduledAt) / 1000);
    },
    drop,
    count: (priority) => order.count(priority),
    stop(reason) {
      for (let job = order.take('user') ?? order.take('background'); job !== null; ) {
        drop(job, reason);
        job = order.take('user') ?? order.take('background');
      }
      reporter.stop();
    },
  };
}
