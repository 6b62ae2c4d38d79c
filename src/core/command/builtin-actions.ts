/**
 * The dispatcher's own elements: Confirm (and Retry) runs what it carries once, confirmed; a confirmation's
 * Cancel makes its Confirm unusable; Run it again runs a command line anew; Stop cancels an invocation's wait for
 * the service; a suggestion reads its line as understood words (understood.ts). Confirm and Run it again go back
 * through the dispatcher (`Runners`), so what they run is checked
 * as if it were typed or pressed again.
 */
import { z } from 'zod';
import { CancelledError } from '../errors.js';
import { notice, type Reply, reply } from '../ui/index.js';
import { CANCEL, CONFIRM, confirmPayload, expiredReply, RERUN } from './confirmations.js';
import type { DispatchEnv, Scoped } from './invocation.js';
import type { ActionEvent, CommandDef } from './types.js';
import { SUGGEST } from './understood.js';

/** The kind of the Cancel button of an invocation waiting for the service. */
export const STOP = 'scout.stop';

/** Invocations waiting for the service after saying so, by the id their Cancel button carries. */
export type Running = Map<string, AbortController>;

/** Whether an element of `kind` is one of the dispatcher's own. */
export const isBuiltin = (kind: string) =>
  kind === CONFIRM || kind === CANCEL || kind === RERUN || kind === STOP || kind === SUGGEST;

/** How the built-in elements run what they carry: through the dispatcher, as typed or pressed. */
export interface Runners {
  /** A command line, as typed. */
  line(invocation: Scoped & { text: string }): Promise<Reply>;
  /** A command with its raw input and its line, its cost confirmed. */
  command(
    invocation: Scoped,
    def: CommandDef<unknown>,
    raw: Record<string, unknown>,
    text: string,
  ): Promise<Reply>;
  /**
   * A suggested command line, read as understood words: shown first when it spends or writes, run when it is a
   * free read; with `edit`, the line to type instead.
   */
  understood(invocation: Scoped & { text: string; edit: boolean }): Promise<Reply>;
  /** An element press, its cost confirmed. */
  action(invocation: Scoped & { token: string; event: ActionEvent }): Promise<Reply>;
}

/** A press of a built-in element (see isBuiltin) of `kind`, with its stored payload and its token. */
export type BuiltinAction = (
  invocation: Scoped,
  kind: string,
  payload: unknown,
  token: string,
) => Promise<Reply>;

/** Creates the handler of the built-in elements; `running` holds the waits Stop cancels (see guard.ts). */
export function createBuiltinActions(
  env: Pick<DispatchEnv, 'store' | 'clock' | 'registry'>,
  running: Running,
  runners: Runners,
): BuiltinAction {
  const { store, clock, registry } = env;
  return async (invocation, kind, payload, token) => {
    const now = clock.now();
    if (kind === STOP) {
      const parsed = z.object({ id: z.string() }).safeParse(payload);
      await store.actions.consume(token, now);
      const waiting = parsed.success ? running.get(parsed.data.id) : undefined;
      if (waiting === undefined)
        return reply([notice('info', 'That is no longer waiting.')], { replace: true });
      waiting.abort(new CancelledError('cancelled by the person who ran it'));
      return reply([notice('info', 'Cancelled.')], { replace: true });
    }
    if (kind === RERUN) {
      const parsed = z.object({ text: z.string() }).safeParse(payload);
      return parsed.success ? runners.line({ ...invocation, text: parsed.data.text }) : expiredReply();
    }
    if (kind === SUGGEST) {
      const parsed = z.object({ text: z.string(), edit: z.boolean().default(false) }).safeParse(payload);
      if (!parsed.success) return expiredReply();
      return runners.understood({ ...invocation, text: parsed.data.text, edit: parsed.data.edit });
    }
    if (kind === CANCEL) {
      const parsed = z.object({ confirmToken: z.string() }).safeParse(payload);
      const cancelled = parsed.success && (await store.actions.consume(parsed.data.confirmToken, now));
      await store.actions.consume(token, now);
      return reply(
        [notice('info', cancelled ? 'Cancelled: nothing was spent.' : 'That was already decided.')],
        { replace: true },
      );
    }
    const parsed = confirmPayload.safeParse(payload);
    if (!parsed.success) return expiredReply();
    // A confirmation is single-use: the second click of a double click finds it used and does nothing more.
    if (!(await store.actions.consume(token, now))) {
      invocation.tally.outcome = 'duplicate';
      return reply([notice('info', 'Already confirmed.')]);
    }
    const confirmed = parsed.data;
    if (confirmed.type === 'command') {
      const def = registry.command(confirmed.family, confirmed.command);
      if (def === undefined) return expiredReply();
      return runners.command(invocation, def, confirmed.input, confirmed.text);
    }
    return runners.action({ ...invocation, token: confirmed.token, event: confirmed.event });
  };
}
