/**
 * Profiles by id bought together: creators-get calls of one API key waiting at the same moment are sent as one
 * request of up to PROFILE_BATCH_MAX_IDS ids, as public clients do, so several people's result pages cost one
 * request instead of one each: a shared request (its key made when the batch opens). Each caller still makes its own
 * call (its meter, opened before it joins, checks that person's cap) and gets back only its own ids' profiles, at the
 * credits its share cost, with its share (ServiceResult.share, or ServiceError.share when the request failed), which
 * its meter writes as that person's ledger row of the request.
 *
 * A batch collects callers for PROFILE_BATCH_WINDOW_MS, then waits for its turn in the key's rate limiter like any
 * call, collecting callers meanwhile; it closes when its request is sent (CallOptions.onStart) or holds
 * PROFILE_BATCH_MAX_IDS ids. People and background jobs are batched apart, each at their own priority. Within a
 * batch an id asked by several callers is bought once and paid by the first who asked (the others get it free, as
 * the profile cache would have given it to them); profiles the service returns for ids nobody asked are paid by
 * the first caller, as a lone call would be. A caller leaving before the request is sent (its signal, its wait
 * signal, its deadline) is dropped with its ids; once sent, the request is cancelled only when every caller's signal
 * is. An error of the request reaches every caller, with the same code and `sent`.
 */
import { randomBytes } from 'node:crypto';
import { InternalError } from '../errors.js';
import { ServiceError } from './errors.js';
import type { CallOptions, Priority, RequestShare, ServiceResult } from './types.js';

/** How long a new batch collects callers before it queues for its turn (a lone call waits this much longer). */
export const PROFILE_BATCH_WINDOW_MS = 30;

/** Most ids a batch gathers: the most public clients send in one creators-get (the contract sets no maximum). */
export const PROFILE_BATCH_MAX_IDS = 100;

/** What the batcher reads of a creators-get answer (creators.ts has the whole of it). */
export interface ProfilesAnswer {
  creators: ReadonlyArray<{ user_id: string }>;
  requestedIds: readonly string[];
}

/**
 * Sends one creators-get of `userIds`. The array is filled in onStart: the transport writes the body when the attempt
 * begins, right after onStart, so the request carries every caller that joined until it was sent.
 */
export type SendProfiles<R extends ProfilesAnswer> = (
  input: { userIds: string[] },
  options: CallOptions,
) => Promise<ServiceResult<R>>;

/** Settings of the batcher. */
export interface ProfileBatchSettings {
  /** Collection window of a new batch, in milliseconds; PROFILE_BATCH_WINDOW_MS by default. */
  windowMs?: number;
}

/** Joins calls of profiles by id into shared requests. */
export type ProfileBatcher<R extends ProfilesAnswer> = (
  userIds: readonly string[],
  options?: CallOptions,
) => Promise<ServiceResult<R>>;

interface Member<R> {
  ids: string[];
  asked: ReadonlySet<string>;
  options: CallOptions;
  resolve(result: ServiceResult<R>): void;
  reject(error: unknown): void;
  /** Told that its wait will be long (onWait), and not yet that it is over. */
  told: boolean;
  /** Its signal fired after the request was sent. */
  cancelled: boolean;
  /** Its ids no earlier caller asked for, known once the request is sent. */
  owned: number;
  /** Stops listening to its signals and deadline. */
  detach(): void;
}

interface Batch<R> {
  /** The request's key, named in the ledger row of each caller's share. */
  request: string;
  priority: Priority;
  members: Member<R>[];
  state: 'collecting' | 'queued' | 'sent' | 'dropped';
  timer: NodeJS.Timeout | null;
  /** The ids sent, filled when the request starts. */
  body: string[];
  /** Which caller pays for each id, known once the request is sent. */
  owners: Map<string, Member<R>>;
  /** Gives up the wait when every caller left before the request was sent. */
  abandon: AbortController;
  /** Cancels the request when every caller's signal fired. */
  cancel: AbortController;
  /** A long wait announced by the transport: its length and when it was told. */
  notice: { seconds: number; at: number } | null;
}

const leftWhileWaiting = (reason: unknown) =>
  new ServiceError({
    code: 'ABORTED',
    operation: 'creators.get',
    message: 'The service call was cancelled.',
    cause: reason,
    sent: false,
  });

const tooLate = () =>
  new ServiceError({
    code: 'TOO_LATE',
    operation: 'creators.get',
    sent: false,
    message:
      'Scout stopped waiting for the service: its answer could no longer reach you here. Nothing more was sent; run the command again.',
  });

/** Each caller's own copy of the request's failure, carrying that caller's share. */
function failureFor(error: unknown, share: RequestShare): Error {
  if (error instanceof ServiceError) {
    return new ServiceError({
      code: error.code,
      operation: error.operation,
      message: error.message,
      status: error.status,
      retryAfter: error.retryAfter,
      serviceMessage: error.serviceMessage,
      ...(error.rawBody === undefined ? {} : { rawBody: error.rawBody }),
      sent: error.sent,
      share,
      cause: error,
    });
  }
  return new InternalError(error instanceof Error ? error.message : String(error), { cause: error });
}

/** The ids a batch gathered. */
const idsOf = <R>(batch: Batch<R>) => new Set(batch.members.flatMap((member) => member.ids));

/** Who pays for each id (the first caller who asked) and the ids sent, once the callers are final. */
function fixOwners<R>(batch: Batch<R>): void {
  for (const member of batch.members) {
    member.owned = 0;
    for (const id of member.ids) {
      if (batch.owners.has(id)) continue;
      batch.owners.set(id, member);
      member.owned += 1;
    }
  }
  batch.body.push(...batch.owners.keys());
}

/** Gives each caller its own ids' profiles, at what its share cost, with its share of the request. */
function deliver<R extends ProfilesAnswer>(batch: Batch<R>, result: ServiceResult<R>): void {
  const { members } = batch;
  for (const member of members) member.detach();
  const [only] = members;
  if (members.length === 1 && only !== undefined) {
    only.resolve(result);
    return;
  }
  const first = members[0];
  const payer = (id: string) => batch.owners.get(id) ?? first;
  for (const member of members) {
    const mine = (id: string) => member.asked.has(id) || (member === first && !batch.owners.has(id));
    const creators = result.data.creators.filter((profile) => mine(profile.user_id));
    const cost = result.data.creators.filter((profile) => payer(profile.user_id) === member).length;
    member.resolve({
      data: {
        ...result.data,
        creators,
        requestedIds: result.data.requestedIds.filter((id) => member.asked.has(id)),
      },
      meta: { ...result.meta, cost },
      share: { request: batch.request, estimate: member.owned },
    });
  }
}

/** Gives each caller the request's failure, carrying its share. */
function fail<R>(batch: Batch<R>, error: unknown): void {
  const { members } = batch;
  for (const member of members) member.detach();
  if (members.length === 1) {
    members[0]?.reject(error);
    return;
  }
  for (const member of members)
    member.reject(failureFor(error, { request: batch.request, estimate: member.owned }));
}

/** Adds a caller to a batch; it leaves (through `leave`) when its signals fire or its deadline passes first. */
function join<R>(
  batch: Batch<R>,
  member: Member<R>,
  leave: (batch: Batch<R>, member: Member<R>, error: ServiceError) => void,
): void {
  batch.members.push(member);
  const { signal, waitSignal, deadline, onWait } = member.options;
  const onAbort = (source: AbortSignal) => () => {
    if (batch.state !== 'sent') {
      leave(batch, member, leftWhileWaiting(source.reason));
      return;
    }
    // Sent: a wait signal no longer applies, and the request is cancelled only when nobody wants it any more.
    if (source !== signal) return;
    member.cancelled = true;
    if (batch.members.every((m) => m.cancelled)) batch.cancel.abort(signal?.reason);
  };
  const listeners: Array<[AbortSignal, () => void]> = [];
  for (const source of [signal, waitSignal]) {
    if (source === undefined) continue;
    const listener = onAbort(source);
    source.addEventListener('abort', listener, { once: true });
    listeners.push([source, listener]);
  }
  const timer =
    deadline === undefined
      ? null
      : setTimeout(() => leave(batch, member, tooLate()), Math.max(0, deadline.getTime() - Date.now()));
  timer?.unref();
  member.detach = () => {
    for (const [source, listener] of listeners) source.removeEventListener('abort', listener);
    if (timer !== null) clearTimeout(timer);
  };
  // Joining a batch already told to wait long: this caller waits as long.
  if (batch.notice !== null && onWait !== undefined) {
    member.told = true;
    onWait(Math.max(1, Math.ceil(batch.notice.seconds - (Date.now() - batch.notice.at) / 1000)));
  }
}

/** How a batch's request waits: in the turn of the person who opened it, telling every caller what it hears. */
function callOptionsOf<R>(batch: Batch<R>, started: () => void): CallOptions {
  return {
    priority: batch.priority,
    signal: batch.cancel.signal,
    waitSignal: batch.abandon.signal,
    onStart: started,
    // The batch waits in the turn of the person who opened it; every member hears its place.
    ...(batch.members[0]?.options.person === undefined ? {} : { person: batch.members[0].options.person }),
    onQueue: (place) => {
      for (const member of batch.members) member.options.onQueue?.(place);
    },
    onQueueOver: () => {
      for (const member of batch.members) member.options.onQueueOver?.();
    },
    onWait: (seconds) => {
      batch.notice = { seconds, at: Date.now() };
      for (const member of batch.members) {
        if (member.told || member.options.onWait === undefined) continue;
        member.told = true;
        member.options.onWait(seconds);
      }
    },
    onWaitOver: () => {
      batch.notice = null;
      for (const member of batch.members) {
        if (!member.told) continue;
        member.told = false;
        member.options.onWaitOver?.();
      }
    },
  };
}

/** Creates the batcher of one API key's client over `send`. */
export function createProfileBatcher<R extends ProfilesAnswer>(
  send: SendProfiles<R>,
  settings: ProfileBatchSettings = {},
): ProfileBatcher<R> {
  const windowMs = settings.windowMs ?? PROFILE_BATCH_WINDOW_MS;
  /** The batch of each priority still taking callers. */
  const open = new Map<Priority, Batch<R>>();

  /** Takes the batch out of those taking callers. */
  const close = (batch: Batch<R>) => {
    if (open.get(batch.priority) === batch) open.delete(batch.priority);
  };

  const leave = (batch: Batch<R>, member: Member<R>, error: ServiceError) => {
    if (batch.state === 'sent' || batch.state === 'dropped' || !batch.members.includes(member)) return;
    batch.members = batch.members.filter((m) => m !== member);
    member.detach();
    if (member.told) member.options.onWaitOver?.();
    member.reject(error);
    if (batch.members.length > 0) return;
    // Nobody is left: nothing is sent.
    close(batch);
    if (batch.timer !== null) clearTimeout(batch.timer);
    const queued = batch.state === 'queued';
    batch.state = 'dropped';
    if (queued) batch.abandon.abort(error);
  };

  /** The request is about to be sent: the callers, their ids and who pays for each are final. */
  const started = (batch: Batch<R>) => {
    if (batch.state === 'queued') {
      batch.state = 'sent';
      close(batch);
      fixOwners(batch);
    }
    for (const member of batch.members) member.options.onStart?.();
  };

  const launch = (batch: Batch<R>) => {
    if (batch.state !== 'collecting') return;
    if (batch.timer !== null) clearTimeout(batch.timer);
    batch.timer = null;
    batch.state = 'queued';
    const options = callOptionsOf(batch, () => started(batch));
    send({ userIds: batch.body }, options).then(
      (result) => {
        if (batch.state !== 'dropped') deliver(batch, result);
      },
      (error: unknown) => {
        if (batch.state === 'dropped') return;
        batch.state = 'dropped';
        close(batch);
        fail(batch, error);
      },
    );
  };

  /** A new batch, open to later callers when `shared`. */
  const openBatch = (priority: Priority, shared: boolean): Batch<R> => {
    const batch: Batch<R> = {
      request: `req_${randomBytes(12).toString('base64url')}`,
      priority,
      members: [],
      state: 'collecting',
      timer: null,
      body: [],
      owners: new Map(),
      abandon: new AbortController(),
      cancel: new AbortController(),
      notice: null,
    };
    if (!shared) return batch;
    batch.timer = setTimeout(() => launch(batch), windowMs);
    batch.timer.unref();
    open.set(priority, batch);
    return batch;
  };

  return (userIds, options = {}) =>
    new Promise((resolve, reject) => {
      const { signal, waitSignal } = options;
      if (signal?.aborted || waitSignal?.aborted) {
        reject(leftWhileWaiting(signal?.aborted ? signal.reason : waitSignal?.reason));
        return;
      }
      const ids = [...new Set(userIds)];
      const member: Member<R> = {
        ids,
        asked: new Set(ids),
        options,
        resolve,
        reject,
        told: false,
        cancelled: false,
        owned: 0,
        detach: () => {},
      };
      const priority = options.priority ?? 'user';
      // A caller asking for as many ids as a batch gathers has its request to itself, at once.
      if (ids.length >= PROFILE_BATCH_MAX_IDS) {
        const alone = openBatch(priority, false);
        join(alone, member, leave);
        launch(alone);
        return;
      }
      let batch = open.get(priority);
      // A caller whose ids would pass the most a batch gathers sends that batch on its way and starts the next one.
      if (batch !== undefined && new Set([...idsOf(batch), ...ids]).size > PROFILE_BATCH_MAX_IDS) {
        close(batch);
        launch(batch);
        batch = undefined;
      }
      batch ??= openBatch(priority, true);
      join(batch, member, leave);
      if (idsOf(batch).size >= PROFILE_BATCH_MAX_IDS) {
        close(batch);
        launch(batch);
      }
    });
}
