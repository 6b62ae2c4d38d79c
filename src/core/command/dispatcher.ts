/**
 * The dispatcher: from a command line, typed platform options, a submitted form or an element press to a reply.
 * It finds the tenant (refusing anyone outside the deployment's tenants before anything else; invocation.ts),
 * routes the line (routing.ts), resolves and validates the input (resolve-options.ts), checks permission, and runs
 * the work under the guard (guard.ts: claim, cap, confirmation, reservation) with the tenant's metered service
 * client. An element press is routed by actions.ts (the dispatcher's own elements by builtin-actions.ts); the
 * answers of an acknowledgement are at-once.ts's.
 */
import type { Platform } from '../actor.js';
import type { MintedAction } from '../store/action-tokens.js';
import { adminRole, PermissionError } from '../tenancy/index.js';
import { costLine, notice, type Reply, reply, text } from '../ui/index.js';
import { createActionRouter } from './actions.js';
import { createAtOnce } from './at-once.js';
import { bindTokens } from './bind.js';
import type { Running } from './builtin-actions.js';
import { createConversation, type Ran } from './conversation.js';
import { errorReply } from './error-reply.js';
import { CommandInputError } from './errors.js';
import { createGuard } from './guard.js';
import { createInterpreter, type FollowUp, type Interpreter } from './interpret/index.js';
import {
  type DispatchEnv,
  type Invocation,
  outside,
  requireAccount,
  type Scoped,
  saveElements,
  scope,
} from './invocation.js';
import { wordsReadOtherwise } from './name-words.js';
import { type DispatcherMetrics, outcomeOf, type Tally, UNKNOWN } from './outcome.js';
import { createPlainWords, isWordless, mayBeWords, WORDLESS } from './plain-words.js';
import {
  type Gathered,
  mistake,
  optionsInput,
  type SecretPrompt,
  secretsOf,
  tokensInput,
  validInput,
  withoutSecrets,
} from './resolve-options.js';
import { familyOfLine, type ResolvedLine, resolveText } from './routing.js';
import type { Token } from './tokenize.js';
import type { ActionEvent, CommandDef } from './types.js';
import { previewReply, type Understood, withUnderstood } from './understood.js';
import { WORKING } from './waiting.js';

export type { DispatcherMetrics, Invocation, SecretPrompt };

/** What the dispatcher is built from. */
export interface DispatcherDeps extends DispatchEnv {
  /** Where each command and element press is counted, by family and outcome; nowhere by default. */
  metrics?: DispatcherMetrics;
  /** How a line that is not exact syntax is read as plain words; the deterministic interpreter by default. */
  interpreter?: Interpreter;
}

/** Handles commands and element presses. */
export interface Dispatcher {
  /** A command line: `creators search followers:10k-100k` (a leading `/scout` is allowed). */
  text(invocation: Invocation & { text: string }): Promise<Reply>;
  /** Typed options from a platform form (Discord options, a Slack modal), as strings keyed by option name. */
  options(
    invocation: Invocation & { family: string; command: string; options: Readonly<Record<string, string>> },
  ): Promise<Reply>;
  /**
   * A submitted form: its values as tokens of the text syntax (see `readForm` in forms/submission.ts), run as the
   * typed command line would be.
   */
  form(
    invocation: Invocation & { family: string; command: string; tokens: readonly Token[] },
  ): Promise<Reply>;
  /** A press of a button or a choice in a select. */
  action(invocation: Invocation & { token: string; event?: ActionEvent }): Promise<Reply>;
  /**
   * The secret options (an API key) a command line still needs, for the adapter to ask in a private form before
   * dispatching it with `options`; null when the line names no such command or gives them all.
   */
  secretsNeeded(text: string): SecretPrompt | null;
  /**
   * The answer to a command line that needs nothing but the line (help, a usage or validation error), computed
   * at once and counted, for an adapter to send in its acknowledgement; null when the line needs the dispatcher
   * (`text`). For a person the adapter already knows is of a served tenant: nothing here checks who asks.
   * `forms`: the adapter opens forms (see Invocation.forms).
   */
  atOnce(text: string, options?: { forms?: boolean }): Reply | null;
  /**
   * The working message of a command line that needs the dispatcher ("Searching creators…"), for an adapter to
   * send in its acknowledgement when the request is already late for it; the invocation then says `workingShown`.
   * Null when the line names no command. Like `atOnce`, nothing here checks who asks.
   */
  working(text: string): Reply | null;
}

/** What is said to someone who may not run `def`, a command for admins: the role it needs on their platform. */
export function needsRole(def: Pick<CommandDef<unknown>, 'family' | 'name'>, platform: Platform): string {
  return `/scout ${def.family} ${def.name} needs ${adminRole(platform)}.`;
}

/** Creates the dispatcher. */
export function createDispatcher(deps: DispatcherDeps): Dispatcher {
  const { registry, store, tenants, logger, metrics } = deps;
  const running: Running = new Map();
  const guarded = createGuard(deps, running);
  const interpreter = deps.interpreter ?? createInterpreter(registry, { now: () => deps.clock.now() });
  const { atOnce, working } = createAtOnce({ registry, logger, metrics, interpreter });

  /**
   * Runs a command with its raw input, under the guard; `typed` is the line it was given as. `understood`: it was
   * read from plain words, so what spends or writes is shown first.
   */
  const runCommand = async (
    invocation: Scoped,
    def: CommandDef<unknown>,
    raw: Record<string, unknown>,
    typed: string,
    confirmed: boolean,
    understood?: Understood,
  ): Promise<Reply> => {
    invocation.tally.family = def.family;
    const commandText = withoutSecrets(def, raw, typed);
    const input = validInput(def, raw);
    if (def.permission === 'admin' && !invocation.actor.isAdmin) {
      throw new PermissionError(needsRole(def, invocation.actor.platform));
    }
    requireAccount(invocation, def.account === 'optional');
    const name = `${def.family} ${def.name}`;
    const confirmation = {
      type: 'command' as const,
      family: def.family,
      command: def.name,
      input: raw,
      text: commandText,
    };
    return guarded(invocation, {
      what: name,
      input: raw,
      commandText,
      command: name,
      confirmed,
      changes: def.mutates === true ? (def.subject ?? def.family) : null,
      capPerCall: def.capPerCall === true,
      working: def.working ?? WORKING,
      estimate: (ctx) => def.estimate(input, ctx),
      confirmation,
      work: (ctx) => def.run(ctx, input),
      ...(understood === undefined
        ? {}
        : {
            understood: {
              preview: (token, estimate, spentToday) =>
                previewReply(token, def, understood, { estimate, spentToday }, confirmation),
              answer: (result) => withUnderstood(result, understood),
            },
          }),
    });
  };

  const plainWords = createPlainWords({
    env: deps,
    interpreter,
    run: (invocation, def, raw, understood) =>
      runCommand(invocation, def, raw, understood.line, false, understood),
  });

  /** A command line, exact or in plain words (`after`: the conversation's last line, which it may refine). */
  const handleLine = async (
    invocation: Scoped & { text: string },
    after?: FollowUp,
    ran?: Ran,
  ): Promise<Reply> => {
    let def: CommandDef<unknown> | null = null;
    if (isWordless(registry, invocation.text)) return reply([notice('info', WORDLESS)]);
    try {
      let resolved: ResolvedLine | null = null;
      let raw: Record<string, unknown>;
      try {
        resolved = resolveText(registry, invocation.text);
        def = resolved.def;
        raw = bindTokens(def.params, resolved.tokens);
      } catch (error) {
        // Not exact syntax (no command named, or words a command has no place for): read as plain words. A command
        // named with a wrong value keeps the answer that names the mistake; the exact grammar wins whenever a line
        // parses as it.
        const words = mayBeWords(invocation.text, resolved, error);
        const read = words ? await plainWords.read(invocation, error, after, ran) : null;
        if (read !== null) return read;
        throw error;
      }
      // A name of several words after a family alone stands unless the words read as something else.
      if (wordsReadOtherwise(registry, interpreter, resolved, raw, after)) {
        const read = await plainWords.read(invocation, null, after, ran);
        if (read !== null) return read;
      }
      const { text } = resolved;
      if (ran !== undefined) ran.line = text;
      return await runCommand(invocation, def, raw, text, false);
    } catch (error) {
      invocation.tally.outcome = outcomeOf(error);
      if (invocation.tally.family === UNKNOWN)
        invocation.tally.family = familyOfLine(registry, invocation.text);
      return mistake(error, def, invocation.forms, logger, familyOfDef(def));
    }
  };

  const handleAction = createActionRouter(deps, running, {
    guarded,
    line: (invocation) => handleLine(invocation),
    command: (invocation, def, raw, text) => runCommand(invocation, def, raw, text, true),
    understood: (invocation) => plainWords.suggested(invocation),
  });

  const inConversation = createConversation(deps, {
    line: handleLine,
    press: (invocation) => handleAction(invocation),
  });
  /** A typed line: in a conversation, a follow-up may act on or refine the last answer. */
  const handleText = (invocation: Scoped & { text: string }): Promise<Reply> => {
    const { conversation } = invocation;
    return conversation === undefined
      ? handleLine(invocation)
      : inConversation.line({ ...invocation, conversation });
  };

  /**
   * Runs an entry point: the invocation in its tenant (anyone outside is refused), `handle` with it, the elements
   * of its answer stored, then counted by its tally, under `family` until the invocation names its own.
   */
  const entry = async <T extends Invocation>(
    what: keyof DispatcherMetrics,
    request: T,
    family: string,
    handle: (invocation: T & Scoped) => Promise<Reply>,
  ): Promise<Reply> => {
    const tally: Tally = { family, outcome: 'ok' };
    const elements: MintedAction[] = [];
    try {
      const invocation = await scope({ tenants, logger }, request, tally, elements);
      if (invocation === null) tally.outcome = 'refused';
      const answer = invocation === null ? outside() : await handle(invocation);
      await saveElements(store, elements);
      return withSpentBeforeFailing(answer, tally);
    } catch (error) {
      tally.outcome = outcomeOf(error);
      throw error;
    } finally {
      metrics?.[what](tally.family, tally.outcome);
    }
  };

  /** A failure's answer, ending with what was spent before it failed, in the one format (costLine). */
  const withSpentBeforeFailing = (answer: Reply, tally: Tally): Reply => {
    const line = costLine(tally.spentBeforeFailing ?? 0, 0);
    return line === null ? answer : { ...answer, nodes: [...answer.nodes, text(line)] };
  };

  /** A command from what a platform gathered (typed options, a form), which `gather` turns into its raw input. */
  const runGathered = async (
    invocation: Scoped & { family: string; command: string },
    gather: (def: CommandDef<unknown>) => Gathered,
  ): Promise<Reply> => {
    let def: CommandDef<unknown> | null = null;
    try {
      def = registry.command(invocation.family, invocation.command) ?? null;
      if (def === null)
        throw new CommandInputError(`Unknown command ${invocation.family} ${invocation.command}.`);
      const { raw, text } = gather(def);
      return await runCommand(invocation, def, raw, text, false);
    } catch (error) {
      invocation.tally.outcome = outcomeOf(error);
      return mistake(error, def, invocation.forms, logger, familyOfDef(def));
    }
  };
  const familyOf = (request: { family: string }) => registry.family(request.family)?.name ?? UNKNOWN;
  /** The family of the command that failed, whose commands its answer may name. */
  const familyOfDef = (def: CommandDef<unknown> | null) =>
    def === null ? undefined : registry.family(def.family);

  return {
    // Secret options are service keys, which tenants connect only in many-team mode.
    secretsNeeded: (line) => (tenants.mode === 'single' ? null : secretsOf(registry, line)),
    atOnce,
    working,
    text: (request) => entry('command', request, familyOfLine(registry, request.text), handleText),
    options: (request) =>
      entry('command', request, familyOf(request), (invocation) =>
        runGathered(invocation, (def) => optionsInput(def, request.options)),
      ),
    form: (request) =>
      entry('command', request, familyOf(request), (invocation) =>
        runGathered(invocation, (def) => tokensInput(def, request.tokens)),
      ),
    action: (request) =>
      entry('action', request, UNKNOWN, async (invocation) => {
        let answer: Reply;
        try {
          answer = await handleAction(invocation);
        } catch (error) {
          invocation.tally.outcome = outcomeOf(error);
          // The family of the element pressed names the fields its failure mentions as its options do.
          return errorReply(error, logger, null, registry.family(invocation.tally.family));
        }
        const { conversation } = invocation;
        if (conversation !== undefined) await inConversation.pressed({ ...invocation, conversation }, answer);
        return answer;
      }),
  };
}
