/**
 * Element presses: an answer button (answer-ids.ts: help's) runs the line it carries as typed; otherwise
 * the token is looked up first (one unknown or expired is answered with Run it again where it
 * carries a line, someone else's is refused, a used one is already done), then the press goes to the dispatcher's
 * own elements (builtin-actions.ts), to a form button where no form opens (the command line to type), or to the
 * command's element it names, run under the guard like a command.
 */
import type { z } from 'zod';
import { code, notice, type Reply, reply, text as textNode } from '../ui/index.js';
import { readAnswerId } from './answer-ids.js';
import { createBuiltinActions, isBuiltin, type Runners, type Running } from './builtin-actions.js';
import { expiredReply } from './confirmations.js';
import { FORM_KIND, formCommandLine, formRequest, formSpec, readFormId } from './forms/index.js';
import type { Guard } from './guard.js';
import { type DispatchEnv, expiredIn, requireAccount, type Scoped } from './invocation.js';
import { commandNameOf, familyOfElement, keyedTokens, lineOf, resolveText } from './routing.js';
import type { ActionEvent } from './types.js';
import { WORKING } from './waiting.js';

/** A press of a button or a choice in a select, in its tenant. */
export type Press = Scoped & { token: string; event?: ActionEvent };

/** Answers a press; `confirmed`: its cost was confirmed already (the press came back through Confirm). */
export type ActionRouter = (invocation: Press, confirmed?: boolean) => Promise<Reply>;

/** What the router needs of the dispatcher: the guard, and how a line and a command run (see Runners). */
export interface ActionParts extends Pick<Runners, 'line' | 'command' | 'understood'> {
  guarded: Guard;
}

/** Creates the router of element presses; `running` holds the waits Stop cancels (see guard.ts). */
export function createActionRouter(env: DispatchEnv, running: Running, parts: ActionParts): ActionRouter {
  const { registry, store, clock } = env;
  const { guarded, line } = parts;

  /**
   * A form button pressed where no form opens (the terminal): the command line to type, filled in as the form
   * would be; with words typed after the press (`edit 1 notes:"Call Monday"`), that line run with them.
   */
  const formByText = async (invocation: Press, request: z.output<typeof formRequest>): Promise<Reply> => {
    const def = registry.command(request.family, request.command);
    const spec = def === undefined ? null : formSpec(def, request);
    if (def === undefined || spec === null) return expiredReply();
    invocation.tally.family = def.family;
    const typed = invocation.event?.value?.trim() ?? '';
    if (typed !== '') {
      return line({ ...invocation, text: `${lineOf(def, keyedTokens(request.fixed))} ${typed}` });
    }
    return reply([textNode(`${spec.title}: type `, code(formCommandLine(def, spec)))]);
  };

  /** An answer button: its line, as typed, when it names a command whose answer follows from the line alone. */
  const answerOf = async (invocation: Press, text: string): Promise<Reply> => {
    let answers = false;
    try {
      answers = resolveText(registry, text).def.answer !== undefined;
    } catch {
      // A line that names no command any more: said like any button whose state is gone.
    }
    return answers ? line({ ...invocation, text }) : expiredReply();
  };

  const builtin = createBuiltinActions(env, running, {
    line,
    command: parts.command,
    understood: parts.understood,
    action: (invocation) => route(invocation, true),
  });

  const route: ActionRouter = async (invocation, confirmed = false) => {
    const asked = readAnswerId(invocation.token);
    if (asked !== null) return answerOf(invocation, asked);
    const named = readFormId(invocation.token);
    if (named?.kind === 'command') {
      return formByText(invocation, formRequest.parse({ family: named.family, command: named.command }));
    }
    const found = await store.actions.lookup(invocation.token, invocation.actor, clock.now());
    const { tally } = invocation;
    if (found.status === 'unknown') {
      tally.outcome = 'expired';
      return expiredReply();
    }
    tally.family = familyOfElement(registry, found.record.kind, found.record.rerun);
    if (found.status === 'expired') {
      tally.outcome = 'expired';
      return expiredIn(env, invocation, found.record.rerun);
    }
    if (found.status === 'not-yours') {
      tally.outcome = 'refused';
      return reply([notice('warning', 'Only the person who ran the command can use this.')]);
    }
    if (found.status === 'used') {
      tally.outcome = 'duplicate';
      return reply([notice('info', 'Already done.')]);
    }
    const { kind, payload } = found.record;
    if (isBuiltin(kind)) return builtin(invocation, kind, payload, invocation.token);
    if (kind === FORM_KIND) {
      const request = formRequest.safeParse(payload);
      return request.success ? formByText(invocation, request.data) : expiredReply();
    }
    const def = registry.action(kind);
    const parsed = def?.payload.safeParse(payload);
    if (def === undefined || parsed === undefined || !parsed.success) {
      tally.outcome = 'expired';
      return expiredReply();
    }
    requireAccount(invocation, def.account === 'optional');
    const event = invocation.event ?? {};
    return guarded(invocation, {
      what: `action ${invocation.token}`,
      input: event,
      commandText: found.record.rerun ?? '',
      // Spend from a button counts toward the command that made it (`creators search`), not the button's kind.
      command: commandNameOf(registry, found.record.rerun) ?? kind,
      confirmed,
      // An element changes what its family's commands do: `list.status` what `list update` changes.
      changes: def.mutates === true ? (def.subject ?? (kind.split('.')[0] as string)) : null,
      capPerCall: false,
      working: def.working ?? WORKING,
      estimate: (ctx) => def.estimate(parsed.data, event, ctx),
      confirmation: { type: 'action', token: invocation.token, event },
      work: (ctx) => def.run(ctx, parsed.data, event),
    });
  };
  return route;
}
