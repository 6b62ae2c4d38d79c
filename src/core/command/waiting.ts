/**
 * What a person sees while their command works: a short working message when the answer takes longer than a
 * moment, their place in the service's queue (with an estimate) when a call has to wait for its turn, and the
 * notice with Cancel when the wait is long. Interim messages go out one at a time, in order, and none after the
 * answer: `finish` waits for the last one before the answer is sent, so an answer is never covered by a late notice.
 */
import type { Logger } from '../logger.js';
import { QUEUE_NOTICE_DELAY_MS } from '../service/queue-notices.js';
import type { CallOptions, QueuePlace } from '../service/types.js';
import { button, buttons, notice, type Reply, reply } from '../ui/index.js';

/** The working message of work that names none. */
export const WORKING = 'Working on it…';

/** A command without its answer after this long shows its working message: people see something within a second. */
export const WORKING_NOTICE_MS = 500;

/** The shortest time between two queue updates a person sees, where a platform updates a message in place. */
export const QUEUE_UPDATE_MS = 3_000;

/** What an invocation's interim messages are built from. */
export interface WaitingOptions {
  /** Shows an interim reply; absent when the platform cannot (nothing is shown then). */
  progress: ((shown: Reply) => Promise<void>) | undefined;
  /** Whether `progress` replaces the last interim message (Discord) or adds one (Slack, the terminal). */
  inPlace: boolean;
  /** The working message, e.g. "Searching creators…". */
  working: string;
  /** After this long without an answer the working message is shown; null: never. */
  workingAfterMs: number | null;
  /** What `workingAfterMs` counts from, a performance.now() reading (the request's arrival); now by default. */
  since?: number;
  /** Makes the token of this invocation's Cancel button; called once, when the button is first shown. */
  cancelToken: () => string;
  /** Cancels the invocation's wait for the service (never a call already sent). */
  cancel: AbortController;
  /** Told when a Cancel button shown starts (true) or stops (false) meaning something: a call waits, or none. */
  cancellable: (now: boolean) => void;
  logger: Logger;
  /** The clock of the updates' pace; Date.now by default. */
  now?: () => number;
}

/** An invocation's interim messages. */
export interface Waiting {
  /** The call options that report the queue and long waits here. */
  readonly calls: Pick<CallOptions, 'onQueue' | 'onQueueOver' | 'onWait' | 'onWaitOver' | 'waitSignal'>;
  /** The command showed an interim message of its own: the working message is not needed. */
  shownElsewhere(): void;
  /** Stops every further message and waits for the one being shown. */
  finish(): Promise<void>;
}

/** "12 requests ahead of yours, about 15 s." */
export function queueText(place: QueuePlace): string {
  const eta = place.etaSeconds < 1 ? 'in a moment' : `about ${formatSeconds(place.etaSeconds)}`;
  if (place.ahead === 0) return `The service is busy: yours is next, ${eta}.`;
  const requests = place.ahead === 1 ? '1 request' : `${place.ahead} requests`;
  return `The service is busy: ${requests} ahead of yours, ${eta}.`;
}

/** 15 s, 2 min, 2 min 30 s. */
function formatSeconds(seconds: number): string {
  const whole = Math.max(1, Math.round(seconds));
  if (whole < 90) return `${whole} s`;
  const minutes = Math.floor(whole / 60);
  const rest = whole % 60;
  return rest === 0 || minutes >= 10 ? `${minutes} min` : `${minutes} min ${rest} s`;
}

/** How much longer than the queue's first report a long-wait notice waits for it. */
const HOLD_NOTICE_GRACE_MS = 150;

/** Waits this long before a Cancel button is worth offering with a queue place. */
const CANCEL_WORTH_S = 10;

/** Starts an invocation's interim messages; the working message is due `workingAfterMs` after `since`. */
export function startWaiting(options: WaitingOptions): Waiting {
  const { progress, inPlace, logger } = options;
  const now = options.now ?? Date.now;
  let finished = false;
  let shown = false;
  let lastQueueAt = Number.NEGATIVE_INFINITY;
  let lastQueueText: string | null = null;
  /** Whether the person was told the call waits (its place, or the long-wait notice). */
  let waitSaid = false;
  let chain: Promise<void> = Promise.resolve();

  const show = (interim: Reply) => {
    if (finished || progress === undefined) return;
    shown = true;
    chain = chain
      .then(() => (finished ? undefined : progress(interim)))
      .catch((error: unknown) => logger.warn({ err: error }, 'Could not show that a command is waiting.'));
  };
  let cancelToken: string | null = null;
  /** The Cancel button means something while a call waits: each wait reported arms it again. */
  const arm = (now: boolean) => {
    if (finished && now) return;
    if (now && cancelToken === null) return;
    options.cancellable(now);
  };
  const withCancel = (text: string): Reply => {
    cancelToken ??= options.cancelToken();
    arm(true);
    return reply([notice('info', text), buttons(button('Cancel', cancelToken, { style: 'secondary' }))]);
  };

  const waited = options.since === undefined ? 0 : Math.max(0, performance.now() - options.since);
  const timer =
    options.workingAfterMs === null || progress === undefined
      ? null
      : setTimeout(
          () => {
            if (!shown) show(reply([notice('info', options.working)]));
          },
          Math.max(0, options.workingAfterMs - waited),
        );
  timer?.unref();

  const onQueue = (place: QueuePlace) => {
    if (finished) return;
    // A later call of the command waiting again: the Cancel already shown stops this wait too.
    arm(true);
    const text = queueText(place);
    const offersCancel = place.etaSeconds >= CANCEL_WORTH_S;
    // Where each update is a new message, the wait is said once, and once more only to offer the first Cancel
    // when the wait turns out long; where the message is edited, it follows the place.
    if (!inPlace && waitSaid && !(offersCancel && cancelToken === null)) return;
    if (text === lastQueueText || now() - lastQueueAt < QUEUE_UPDATE_MS) return;
    waitSaid = true;
    lastQueueAt = now();
    lastQueueText = text;
    show(offersCancel ? withCancel(text) : reply([notice('info', text)]));
  };
  // A long wait announced by the transport is said unless the queue said it first with a Cancel button (its place
  // and estimate, which count the wait, are the better news): the queue reports a call that cannot start at once.
  let holdTimer: NodeJS.Timeout | null = null;
  const onWait = (seconds: number) => {
    if (finished) return;
    arm(true);
    if (cancelToken !== null || holdTimer !== null) return;
    holdTimer = setTimeout(() => {
      holdTimer = null;
      if (finished || cancelToken !== null) return;
      waitSaid = true;
      show(
        withCancel(
          `The service asked Scout to wait before sending this: about ${seconds} s. It goes on by itself, or you can cancel it.`,
        ),
      );
    }, QUEUE_NOTICE_DELAY_MS + HOLD_NOTICE_GRACE_MS);
    holdTimer.unref();
  };
  return {
    calls: {
      onQueue,
      onWait,
      // A Cancel button shown means nothing once the call is sent.
      onQueueOver: () => arm(false),
      onWaitOver: () => arm(false),
      waitSignal: options.cancel.signal,
    },
    shownElsewhere() {
      shown = true;
    },
    async finish() {
      // Messages not yet begun are dropped; the one being shown is waited for.
      finished = true;
      if (timer !== null) clearTimeout(timer);
      if (holdTimer !== null) clearTimeout(holdTimer);
      await chain;
    },
  };
}
