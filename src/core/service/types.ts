/** Types shared by every operation of the service client. */

import type { OperationName } from './operations.js';

/** Who is waiting for a call: people go before background jobs in the rate limiter. */
export type Priority = 'user' | 'background';

/** Where a call waiting for its turn stands (among this process's calls of its API key). */
export interface QueuePlace {
  /** Calls that will start before it: other people's, turn by turn, the same person's earlier ones, no background. */
  ahead: number;
  /** About how many seconds until it starts (rounded up; 0: any moment), from the rate window and any hold. */
  etaSeconds: number;
}

/** Options of one call. */
export interface CallOptions {
  /** Defaults to `user`. */
  priority?: Priority;
  /**
   * Who waits for the call, as an opaque key (e.g. `slack|T1|U1`): people's calls take turns person by person.
   * Calls without one share one turn, as one more person would. Ignored for background calls.
   */
  person?: string;
  /**
   * Told the call's place when it could not start at once (it still waits QUEUE_NOTICE_DELAY_MS after it was
   * queued), then whenever the place or the estimate changed, at most once every QUEUE_REPORT_MS (the limiter's
   * `queueReportMs`). Each attempt that waits again (a retry) is told anew.
   */
  onQueue?: (place: QueuePlace) => void;
  /** Told once when a wait that `onQueue` announced is over: the call started, or was given up or dropped. */
  onQueueOver?: () => void;
  /** Told right before each attempt of the call is sent (its turn came), once per attempt. */
  onStart?: () => void;
  /** Cancels the call while it waits in the queue, between attempts or in flight. */
  signal?: AbortSignal;
  /** Cancels the call only while it waits for its turn: once sent, it runs to its end. */
  waitSignal?: AbortSignal;
  /** Told once, with the seconds left, when the call will wait for its turn longer than WAIT_NOTICE_MS. */
  onWait?: (seconds: number) => void;
  /** Told when a wait `onWait` announced is over: the call was sent, or given up. */
  onWaitOver?: () => void;
  /** The call is dropped, unsent, if it cannot start before this time (its answer could no longer be delivered). */
  deadline?: Date;
}

/** What the service reported about one successful call. */
export interface CallMeta {
  operation: OperationName;
  status: number;
  /** Attempts made, 1 when the first one succeeded. */
  attempts: number;
  /** `x-ty-credits`: remaining credit balance. */
  creditsRemaining: number | null;
  /** `x-ty-rate-limit-remaining`: requests left in the current window. */
  rateLimitRemaining: number | null;
  /** `x-ty-rate-limit-total`: the allowance per window. */
  rateLimitTotal: number | null;
  /** Credits this call cost: what the answer says it used where it says so (`credits_used`), else the pricing table. */
  cost: number;
}

/** A successful call: the normalized data and its meta. */
export interface ServiceResult<T> {
  data: T;
  meta: CallMeta;
  /** The caller's share of a request it shared with other callers (profile-batch.ts); absent for a request alone. */
  share?: RequestShare;
}

/**
 * A caller's share of one request sent for several callers (several people's profiles bought in one creators-get):
 * each caller's meter writes its own ledger row for its share, naming the request.
 */
export interface RequestShare {
  /** The request's key, the same for every share of it. */
  request: string;
  /** The most the share can cost: its ids that no earlier caller of the request asked for. */
  estimate: number;
}

/** A call about to be sent, as its meter sees it. */
export interface MeteredCall {
  operation: OperationName;
  /** The most it can cost, from its input (0 for a free operation). */
  estimate: number;
}

/**
 * The books kept of one invocation's calls (core/credits.ts: caps, the ledger, alerts). The runner opens an entry
 * for every call before anything is sent, so refusing there (a cap reached, no account) sends nothing, and closes it
 * with how the call ended.
 */
export interface Meter {
  open(call: MeteredCall): Promise<MeterEntry>;
}

/** One call's entry in a meter. */
export interface MeterEntry {
  /** The call was answered; `share`: its share of a request sent for several callers (profile-batch.ts). */
  answered(meta: CallMeta, share: RequestShare | undefined): Promise<void>;
  /**
   * The call failed; `mayHaveCharged`: it may have reached the service. Returns what its caller gets: `error`, or an
   * error saying the call may have been charged.
   */
  failed(error: unknown, mayHaveCharged: boolean, share: RequestShare | undefined): Promise<unknown>;
}

/** One page of a paginated operation. */
export interface Page<T> {
  items: T[];
  page: number;
  /** The next page number, or null on the last page (the service says 0). */
  nextPage: number | null;
  totalPages: number | null;
  total: number | null;
}

/** A structured log method, as pino's. */
export type LogMethod = (obj: Record<string, unknown>, msg: string) => void;

/** The logger the client writes to; pino's logger fits. */
export interface Logger {
  debug: LogMethod;
  info: LogMethod;
  warn: LogMethod;
  error: LogMethod;
}
