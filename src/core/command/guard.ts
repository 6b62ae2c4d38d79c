/**
 * The guard around every run of a command or an element press: paid or state-changing work is claimed under its
 * invocation key (a duplicate delivery, a double click or a quick repeat runs it once; the repeat is told it is
 * already done, nothing changed, with the first answer's opening line: repeats.ts),
 * then the daily cap is checked, a cost above the threshold is confirmed first, the credits are reserved, and the
 * work runs with its interim messages. A stored answer is read back through the reply schema: one that does not
 * read (an old or damaged row) is run again, never handed out.
 */
import { createHash, randomBytes } from 'node:crypto';
import { actorKey } from '../actor.js';
import { UnconfirmedChargeError } from '../credit-errors.js';
import { budgetOf, budgetScopeFor, checkCap, reserveWithinCap } from '../credits.js';
import type { CallOptions } from '../service/types.js';
import { costLine, notice, type Reply, reply, text } from '../ui/index.js';
import { readStoredReply, storedReply } from '../ui/reply-schema.js';
import { type Running, STOP } from './builtin-actions.js';
import {
  answerLostReply,
  type ConfirmPayload,
  confirmationReply,
  type PersonalToken,
} from './confirmations.js';
import {
  commandContext,
  type DispatchEnv,
  type Invocation,
  type Scoped,
  type Spend,
  saveElements,
} from './invocation.js';
import { keptForRepeats, repeatReply } from './repeats.js';
import type { CommandContext } from './types.js';
import { startWaiting } from './waiting.js';

/** What guarded work is and does. */
export interface GuardedWork {
  /** What is run (`creators search`, `action <token>`): with the person, channel and input, its invocation key. */
  what: string;
  input: unknown;
  /** The command line kept with its buttons ("run it again"); empty when there is none. */
  commandText: string;
  /** The command its spend counts toward in the ledger. */
  command: string | null;
  /** The person confirmed its cost already. */
  confirmed: boolean;
  /**
   * What the work changes (a family's subject, see CommandDef.subject), or null when it changes nothing: a
   * finished change forgets the tenant's other finished changes of that subject (see invocations.finish).
   */
  changes: string | null;
  /** Check the cap at each paid call instead of on the whole estimate (see CommandDef.capPerCall). */
  capPerCall: boolean;
  /** What the person is told when the answer takes a while ("Searching creators…"). */
  working: string;
  estimate: (ctx: CommandContext) => number | Promise<number>;
  /** What its Confirm (or Retry) button runs. */
  confirmation: ConfirmPayload;
  work: (ctx: CommandContext) => Promise<Reply>;
  /**
   * The work was read from plain words: when it spends or writes, `preview` is the answer instead (nothing runs
   * before a press); a free read runs and its answer goes through `answer` (which says what was understood).
   */
  understood?: {
    /** `spentToday`: what the person spent today, said of work above the confirmation threshold; else null. */
    preview(token: PersonalToken, estimate: number, spentToday: number | null): Reply;
    answer(result: Reply): Reply;
  };
}

/** Claims, guards and runs work for an invocation. */
export type Guard = (invocation: Scoped, work: GuardedWork) => Promise<Reply>;

/** The key under which an invocation is claimed: the same person, channel, work and input make the same key. */
export const invocationKey = (invocation: Invocation, what: string, input: unknown): string =>
  createHash('sha256')
    .update(JSON.stringify([actorKey(invocation.actor), invocation.channelId, what, input ?? null]))
    .digest('base64url')
    .slice(0, 32);

/** The buttons of a run's own answers that only its person may press. */
const personal =
  (ctx: CommandContext): PersonalToken =>
  (kind, payload) =>
    ctx.token(kind, payload, { personal: true });

/** The answer, ending with what it spent in the one format every answer uses (costLine), when it spent or showed any. */
function withCostLine(answer: Reply, spend: Spend): Reply {
  const line = costLine(spend.credits, spend.cached);
  return line === null ? answer : { ...answer, nodes: [...answer.nodes, text(line)] };
}

/** Creates the guard; `running` holds the waits its Cancel buttons stop (see builtin-actions.ts). */
export function createGuard(env: DispatchEnv, running: Running): Guard {
  const { store, clock, settings, logger, reservations } = env;

  const readReply = (stored: unknown): Reply | undefined => {
    const answer = readStoredReply(stored);
    if (answer === undefined) logger.warn('A stored answer could not be read: the work runs again.');
    return answer;
  };

  return async (invocation, options) => {
    const key = invocationKey(invocation, options.what, options.input);
    const reservation = reservations.reserve(invocation.actor);
    // A call that must wait for the service says so, with a button that cancels the wait.
    const waitId = randomBytes(9).toString('base64url');
    const cancel = new AbortController();
    const waiting = startWaiting({
      progress: invocation.progress === undefined ? undefined : (shown) => ctx.progress(shown),
      inPlace: invocation.updatesInPlace === true,
      working: options.working,
      workingAfterMs: settings.workingNoticeMs,
      ...(invocation.receivedAt === undefined ? {} : { since: invocation.receivedAt }),
      cancel,
      cancelToken: () => ctx.token(STOP, { id: waitId }, { personal: true }),
      cancellable: (now) => {
        if (now) running.set(waitId, cancel);
        else running.delete(waitId);
      },
      logger,
    });
    const calls: CallOptions = {
      // Cancel stops a wait, never a call already sent: that one may have been charged.
      ...waiting.calls,
      person: actorKey(invocation.actor),
      ...(invocation.deadline === undefined ? {} : { deadline: invocation.deadline }),
    };
    if (invocation.workingShown === true) waiting.shownElsewhere();
    const { commandText, command } = options;
    const spend: Spend = { credits: 0, cached: 0, unchanged: false };
    const ctx = commandContext(env, invocation, { commandText, key, command, reservation, calls, spend });
    // The handler's own interim messages count as shown: no working message follows them.
    const handlerCtx: CommandContext = {
      ...ctx,
      progress: async (shown) => {
        waiting.shownElsewhere();
        await ctx.progress(shown);
      },
    };
    try {
      const estimate = await options.estimate(handlerCtx);
      const { understood } = options;
      if (understood !== undefined && (estimate > 0 || options.changes !== null)) {
        // Shown as a confirmation is: refused up front past the cap, and above the threshold with today's spend.
        let spentToday: number | null = null;
        if (estimate > 0) {
          const scope = budgetScopeFor(invocation.actor, env);
          if (!options.capPerCall) await checkCap(scope, estimate);
          if (estimate > settings.confirmAbove) spentToday = (await budgetOf(scope)).spentToday;
        }
        invocation.tally.outcome = 'confirm';
        return understood.preview(personal(ctx), estimate, spentToday);
      }
      // Paid or state-changing work is claimed, so a duplicate delivery, a double click or a quick repeat runs it
      // once and is told so; free reads simply run again.
      const claimed = estimate > 0 || options.changes !== null;
      if (claimed) {
        const claim = await store.invocations.begin(
          key,
          clock.now(),
          settings.repeatWindowMs,
          env.owner,
          undefined,
          readReply,
        );
        if (claim.status === 'running') {
          invocation.tally.outcome = 'duplicate';
          return reply([notice('info', 'Already working on that: the answer will appear here.')]);
        }
        if (claim.status === 'done') {
          invocation.tally.outcome = 'duplicate';
          const agoMs = clock.now().getTime() - claim.at.getTime();
          return repeatReply(claim.reply, { agoMs, paid: estimate > 0 });
        }
      }
      try {
        if (estimate > 0) {
          const scope = budgetScopeFor(invocation.actor, env);
          if (!options.confirmed && estimate > settings.confirmAbove) {
            if (!options.capPerCall) await checkCap(scope, estimate);
            await store.invocations.release(key);
            invocation.tally.outcome = 'confirm';
            const { spentToday } = await budgetOf(scope);
            return confirmationReply(personal(ctx), estimate, spentToday, options.confirmation);
          }
          // A ceiling that often does not apply is not held up front: each paid call is checked at its own cost.
          if (!options.capPerCall) await reserveWithinCap(scope, reservation, estimate);
        }
        const worked = withCostLine(await options.work(handlerCtx), spend);
        const result = understood === undefined ? worked : understood.answer(worked);
        // The answer's elements exist before the answer is kept for repeats or sent.
        await saveElements(store, invocation.elements);
        // An answer that changed nothing and spent nothing is not kept: the same line typed again runs again.
        if (claimed && spend.unchanged && spend.credits === 0) await store.invocations.release(key);
        else if (claimed) {
          const { platform, workspaceId } = invocation.actor;
          const changed =
            options.changes === null ? undefined : `${platform}:${workspaceId}:${options.changes}`;
          await store.invocations.finish(key, storedReply(keptForRepeats(result)), clock.now(), changed);
        }
        return result;
      } catch (error) {
        if (claimed) {
          try {
            await store.invocations.release(key);
          } catch (cleanup) {
            // The first failure is the one to report (a full disk fails here too); the claim lapses on its own.
            logger.warn({ err: cleanup }, 'Could not release a claim after a failure.');
          }
        }
        // What was spent before the failure is said under the mistake's answer too.
        if (spend.credits > 0) invocation.tally.spentBeforeFailing = spend.credits;
        if (error instanceof UnconfirmedChargeError) {
          invocation.tally.outcome = 'lost_answer';
          logger.warn(
            { err: error.cause, operation: error.operation, estimate: error.estimate },
            error.message,
          );
          const cost = Math.max(estimate, error.estimate);
          return answerLostReply(personal(ctx), error, cost, options.confirmation);
        }
        if (cancel.signal.aborted) {
          invocation.tally.outcome = 'cancelled';
          return reply([notice('info', 'Cancelled while waiting for the service: nothing more was sent.')]);
        }
        throw error;
      } finally {
        // A reservation left behind lapses with its expiry: it never hides the answer.
        await reservation
          .release()
          .catch((error: unknown) => logger.warn({ err: error }, 'Could not release a reservation.'));
      }
    } finally {
      // Every way out, an early one (a repeat's answer, a failed estimate) too, ends the interim messages first.
      running.delete(waitId);
      await waiting.finish();
    }
  };
}
