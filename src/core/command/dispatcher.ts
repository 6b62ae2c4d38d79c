/**
 * The dispatcher: from a command line, typed platform options or an element press to a reply. It finds the
 * tenant (refusing anyone outside the deployment's tenants before anything else), parses and validates input,
 * checks permission, claims the invocation (so duplicates run nothing twice), checks the daily cap, asks for
 * confirmation above the threshold, and runs the handler with the tenant's metered service client.
 */
import { createHash, randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { Actor } from '../actor.js';
import { actorKey } from '../actor.js';
import type { Clock } from '../clock.js';
import {
  budgetOf,
  budgetScopeFor,
  checkCap,
  createMeter,
  type Reservation,
  type Reservations,
  reserveWithinCap,
} from '../credits.js';
import type { Logger } from '../logger.js';
import { createRefusingApi, inputErrorMap, type ServiceApi } from '../service/index.js';
import type { CallOptions } from '../service/types.js';
import type { MintedAction } from '../store/action-tokens.js';
import type { Store } from '../store/index.js';
import { type Access, adminRole, OUTSIDE_MESSAGE, type Tenants, tenantOf } from '../tenancy/index.js';
import {
  bold,
  button,
  buttons,
  code,
  commandFormId,
  FORM_KIND,
  formatCredits,
  formButton,
  formCommandLine,
  formRequest,
  formSpec,
  hasForm,
  notice,
  quoteValue,
  type Reply,
  readFormId,
  reply,
  text as textNode,
} from '../ui/index.js';
import { bindTokens, typedName } from './bind.js';
import { errorReply } from './error-reply.js';
import { CommandInputError, NotConnectedError, PermissionError, UnconfirmedChargeError } from './errors.js';
import { issueLines } from './issues.js';
import { type CommandOutcome, familyOfLine, outcomeOf, type Tally, UNKNOWN } from './outcome.js';
import { coerceParam, ParamError, resolveKey } from './params.js';
import { didYouMean, matchChoice } from './suggest.js';
import { type Token, TokenizeError, tokenize } from './tokenize.js';
import type { ActionEvent, CommandContext, CommandDef, CommandRegistry, CommandSettings } from './types.js';
import { usageLine } from './usage.js';
import { startWaiting } from './waiting.js';

/** What the dispatcher is built from. */
export interface DispatcherDeps {
  registry: CommandRegistry;
  store: Store;
  /** Who is a tenant, and which service account each one uses. */
  tenants: Tenants;
  clock: Clock;
  logger: Logger;
  settings: CommandSettings;
  /** The app's reservation book, shared with background jobs. */
  reservations: Reservations;
  /** This process's id: claims it takes name it, so another process takes them over if it dies. */
  owner: string | null;
  /** Where each command and element press is counted, by family and outcome; nowhere by default. */
  metrics?: DispatcherMetrics;
}

/** What the dispatcher reports. */
export interface DispatcherMetrics {
  /** A command ended. */
  command(family: string, outcome: CommandOutcome): void;
  /** An element press ended. */
  action(family: string, outcome: CommandOutcome): void;
}

/** Common to every invocation. */
export interface Invocation {
  actor: Actor;
  channelId: string;
  /** Posts an interim reply while long work goes on; adapters that cannot may omit it. */
  progress?: (reply: Reply) => Promise<void>;
  /** When the reply can no longer be delivered (Slack's response URL, Discord's interaction token). */
  deadline?: Date;
  /** Whether `progress` replaces the previous interim message (Discord's deferred reply) instead of adding one. */
  updatesInPlace?: boolean;
  /**
   * When the platform's request arrived (a performance.now() reading): the working message is due that long after
   * it, however long the request waited behind others before the dispatcher saw it. Now, when absent.
   */
  receivedAt?: number;
  /** The working message was shown already (in the acknowledgement): the dispatcher does not show it again. */
  workingShown?: boolean;
  /** The adapter opens forms (core/ui/form.ts): a mistake in a command's options offers the command's form. */
  forms?: boolean;
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
   * A submitted form: its values as tokens of the text syntax (see `readForm` in core/ui/form.ts), run as the
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

/** A command whose secret options are asked for in a private form. */
export interface SecretPrompt {
  family: string;
  command: string;
  /** The options given on the line besides the secrets, to submit with them. */
  given: Readonly<Record<string, string>>;
  fields: ReadonlyArray<{ name: string; label: string }>;
}

const confirmPayload = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('command'),
    family: z.string(),
    command: z.string(),
    input: z.unknown(),
    text: z.string(),
  }),
  z.object({
    type: z.literal('action'),
    token: z.string(),
    event: z.object({ value: z.string().optional(), values: z.record(z.string(), z.string()).optional() }),
  }),
]);
type ConfirmPayload = z.infer<typeof confirmPayload>;

/** Answers given at once that are kept, by their line. */
const AT_ONCE_KEPT = 256;

/** The working message of work that names none. */
const WORKING = 'Working on it…';

const CONFIRM = 'scout.confirm';
const CANCEL = 'scout.cancel';
const RERUN = 'scout.rerun';
const STOP = 'scout.stop';

/** The service of a tenant without a service account: any call says how to connect one, and nothing is sent. */
const unconnected = (isAdmin: boolean): ServiceApi => createRefusingApi(() => new NotConnectedError(isAdmin));

/**
 * Where an invocation runs: its tenant's access, resolved once at entry, its tally, and the elements (buttons,
 * selects) made for its answers, stored together before the answer leaves (see saveElements).
 */
type Scoped = Invocation & {
  access: Exclude<Access, { status: 'outside' }>;
  tally: Tally;
  elements: MintedAction[];
};

const outside = (): Reply => reply([notice('warning', OUTSIDE_MESSAGE)], { visibility: 'author' });

/** A command line from tokens, read back by tokenize as they are. */
const lineOf = (def: CommandDef<unknown>, tokens: readonly Token[]) =>
  [
    def.family,
    def.name,
    ...tokens.map((t) => (t.key === null ? t.source : `${t.key}:${quoteValue(t.value)}`)),
  ].join(' ');

/** Creates the dispatcher. */
export function createDispatcher(deps: DispatcherDeps): Dispatcher {
  const { registry, store, tenants, clock, logger, settings, reservations } = deps;
  const metrics = deps.metrics;
  /** Invocations waiting for the service after saying so, by the id their Cancel button carries. */
  const running = new Map<string, AbortController>();

  /**
   * The tenant's access, and the actor with Scout admins (named with /scout admins) counted as admins; null for
   * anyone outside the deployment's tenants.
   */
  const scope = async <T extends Invocation>(
    invocation: T,
    tally: Tally,
    elements: MintedAction[],
  ): Promise<(T & Scoped) | null> => {
    const tenant = tenantOf(invocation.actor);
    const access = await tenants.access(tenant);
    if (access.status === 'outside') {
      logger.info(
        { platform: tenant.platform, workspace: tenant.workspaceId },
        'Refused a request from outside.',
      );
      return null;
    }
    const isAdmin = invocation.actor.isAdmin || (await tenants.isScoutAdmin(tenant, invocation.actor.userId));
    return { ...invocation, actor: { ...invocation.actor, isAdmin }, access, tally, elements };
  };

  /** Stores the elements made for an invocation's answers so far, in one statement. */
  const saveElements = (elements: MintedAction[]) => store.actions.save(elements.splice(0));

  /** Makes an element for an invocation's answer; stored by saveElements before the answer is sent. */
  const element = (
    invocation: Scoped,
    kind: string,
    payload: unknown,
    options: { personal?: boolean; rerun: string | null; ttlMs?: number },
  ): string => {
    const minted = store.actions.mint({
      kind,
      payload,
      actor: invocation.actor,
      personal: options.personal === true,
      rerun: options.rerun,
      ttlMs: options.ttlMs ?? settings.elementTtlMs,
      now: clock.now(),
    });
    invocation.elements.push(minted);
    return minted.token;
  };

  /** Throws NotConnectedError unless the tenant has an account or the work needs none. */
  const requireAccount = (invocation: Scoped, optional: boolean) => {
    const { access } = invocation;
    if (!optional && access.status !== 'ok') {
      throw new NotConnectedError(invocation.actor.isAdmin, access.unreadable === true);
    }
  };

  const context = (
    invocation: Scoped,
    commandText: string,
    key: string,
    command: string | null,
    reservation: Reservation,
    calls: CallOptions,
  ): CommandContext => {
    const { access } = invocation;
    return {
      actor: invocation.actor,
      channelId: invocation.channelId,
      account: access.status === 'ok' ? access.account.id : null,
      // Each run gets its own ledger keys: a repeat after the window is a new purchase and must be recorded.
      service:
        access.status === 'ok'
          ? access.account.service.metered(
              createMeter({
                ...budgetScopeFor(invocation.actor, deps),
                keyPrefix: `${key}:${randomBytes(6).toString('base64url')}`,
                command,
                accountId: access.account.id,
                owner: deps.owner,
                reservation,
              }),
              calls,
            )
          : unconnected(invocation.actor.isAdmin),
      store,
      tenants,
      clock,
      settings,
      logger,
      registry,
      commandText,
      token: (kind, payload, options = {}) =>
        element(invocation, kind, payload, {
          rerun: commandText || null,
          ...(options.personal === undefined ? {} : { personal: options.personal }),
          ...(options.ttlMs === undefined ? {} : { ttlMs: options.ttlMs }),
        }),
      progress: async (shown) => {
        await saveElements(invocation.elements);
        await invocation.progress?.(shown);
      },
      expired: () => expiredFor(invocation, commandText || null),
    };
  };

  const invocationKey = (invocation: Invocation, what: string, input: unknown) =>
    createHash('sha256')
      .update(JSON.stringify([actorKey(invocation.actor), invocation.channelId, what, input ?? null]))
      .digest('base64url')
      .slice(0, 32);

  /** Claims, guards and runs; `work` does the handler's job with the context. */
  const guarded = async (
    invocation: Scoped,
    options: {
      what: string;
      input: unknown;
      commandText: string;
      command: string | null;
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
      confirmation: ConfirmPayload;
      work: (ctx: CommandContext) => Promise<Reply>;
    },
  ): Promise<Reply> => {
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
    const ctx = context(invocation, options.commandText, key, options.command, reservation, calls);
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
      // Paid or state-changing work is claimed, so a duplicate delivery, a double click or a quick repeat runs it
      // once and gets the first answer; free reads simply run again.
      const claimed = estimate > 0 || options.changes !== null;
      if (claimed) {
        const claim = await store.invocations.begin(key, clock.now(), settings.repeatWindowMs, deps.owner);
        if (claim.status === 'running') {
          invocation.tally.outcome = 'duplicate';
          return reply([notice('info', 'Already working on that: the answer will appear here.')]);
        }
        if (claim.status === 'done' && claim.reply !== null) {
          invocation.tally.outcome = 'duplicate';
          return claim.reply as Reply;
        }
      }
      try {
        if (estimate > 0) {
          const scope = budgetScopeFor(invocation.actor, deps);
          if (!options.confirmed && estimate > settings.confirmAbove) {
            if (!options.capPerCall) await checkCap(scope, estimate);
            await store.invocations.release(key);
            invocation.tally.outcome = 'confirm';
            return confirmation(ctx, estimate, (await budgetOf(scope)).spentToday, options.confirmation);
          }
          // A ceiling that often does not apply is not held up front: each paid call is checked at its own cost.
          if (!options.capPerCall) await reserveWithinCap(scope, reservation, estimate);
        }
        const result = await options.work(handlerCtx);
        // The answer's elements exist before the answer is kept for repeats or sent.
        await saveElements(invocation.elements);
        if (claimed) {
          const { platform, workspaceId } = invocation.actor;
          const changed =
            options.changes === null ? undefined : `${platform}:${workspaceId}:${options.changes}`;
          await store.invocations.finish(key, result, clock.now(), changed);
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
        if (error instanceof UnconfirmedChargeError) {
          invocation.tally.outcome = 'lost_answer';
          return answerLost(ctx, error, Math.max(estimate, error.estimate), options.confirmation);
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

  /** Says a paid call's answer was lost, and offers to run the work again at its stated cost (never by itself). */
  const answerLost = (
    ctx: CommandContext,
    error: UnconfirmedChargeError,
    cost: number,
    payload: ConfirmPayload,
  ): Reply => {
    logger.warn({ err: error.cause, operation: error.operation, estimate: error.estimate }, error.message);
    const retryToken = ctx.token(CONFIRM, payload, { personal: true });
    return reply([
      notice('warning', error.message),
      buttons(button(`Retry (up to ${formatCredits(cost)})`, retryToken, { style: 'primary' })),
    ]);
  };

  const confirmation = (
    ctx: CommandContext,
    estimate: number,
    spentToday: number,
    payload: ConfirmPayload,
  ) => {
    const confirmToken = ctx.token(CONFIRM, payload, { personal: true });
    const cancelToken = ctx.token(CANCEL, { confirmToken }, { personal: true });
    return reply([
      notice('warning', [
        'This will cost up to ',
        bold(formatCredits(estimate)),
        spentToday === 0
          ? '. You have spent none today.'
          : `. You have spent ${formatCredits(spentToday)} today.`,
      ]),
      buttons(
        button(`Confirm (${formatCredits(estimate)})`, confirmToken, { style: 'primary' }),
        button('Cancel', cancelToken, { style: 'secondary' }),
      ),
    ]);
  };

  const runCommand = async (
    invocation: Scoped,
    def: CommandDef<unknown>,
    raw: Record<string, unknown>,
    typed: string,
    confirmed: boolean,
  ): Promise<Reply> => {
    invocation.tally.family = def.family;
    const commandText = withoutSecrets(def, raw, typed);
    const input = validInput(def, raw);
    if (def.permission === 'admin' && !invocation.actor.isAdmin) {
      throw new PermissionError(
        `/scout ${def.family} ${def.name} needs ${adminRole(invocation.actor.platform)}.`,
      );
    }
    requireAccount(invocation, def.account === 'optional');
    const name = `${def.family} ${def.name}`;

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
      confirmation: { type: 'command', family: def.family, command: def.name, input: raw, text: commandText },
      work: (ctx) => def.run(ctx, input),
    });
  };

  const resolveText = (line: string): { def: CommandDef<unknown>; tokens: Token[]; text: string } => {
    const text = line.trim().replace(/^\/?scout\b\s*/i, '');
    const tokens = tokenize(text);
    const [first, second] = tokens;
    if (first === undefined || first.key !== null) {
      const help = registry.command('help', 'show');
      if (help === undefined) throw new CommandInputError('Type a command, such as /scout help.');
      return { def: help, tokens: first === undefined ? [] : tokens, text };
    }
    const family = registry.family(first.value);
    if (family === undefined) {
      const guess = matchChoice(
        first.value,
        registry.families.map((f) => f.name),
      );
      throw new CommandInputError(
        `Unknown command "${first.value}".${guess.ok ? '' : didYouMean(guess.suggestions)} Type /scout help to see every command.`,
      );
    }
    const named =
      second !== undefined && second.key === null ? registry.command(family.name, second.value) : undefined;
    if (named !== undefined) return { def: named, tokens: tokens.slice(2), text };
    const fallback =
      family.defaultCommand === undefined ? undefined : registry.command(family.name, family.defaultCommand);
    if (fallback !== undefined) return { def: fallback, tokens: tokens.slice(1), text };
    const names = family.commands.map((c) => c.name);
    const guess = second === undefined ? null : matchChoice(second.value, names);
    throw new CommandInputError(
      `${second === undefined ? `/scout ${family.name} needs a subcommand.` : `Unknown subcommand "${second.value}".`}${guess !== null && !guess.ok ? didYouMean(guess.suggestions) : ''} Try: ${names.map((n) => `/scout ${family.name} ${n}`).join(', ')}.`,
    );
  };

  /** The family an element counts toward: the command that made it, else its kind's (`list.status`: list). */
  const familyOfElement = (kind: string, rerun: string | null): string => {
    const command = commandNameOf(rerun);
    if (command !== null) return command.split(' ')[0] as string;
    return registry.family(kind.split('.')[0] ?? '')?.name ?? UNKNOWN;
  };

  /** Runs an entry point, stores the elements of its answer, then counts it by its tally. */
  const counted = async (
    what: keyof DispatcherMetrics,
    tally: Tally,
    elements: MintedAction[],
    run: () => Promise<Reply>,
  ): Promise<Reply> => {
    try {
      const answer = await run();
      await saveElements(elements);
      return answer;
    } catch (error) {
      tally.outcome = outcomeOf(error);
      throw error;
    } finally {
      metrics?.[what](tally.family, tally.outcome);
    }
  };

  const commandNameOf = (text: string | null): string | null => {
    if (text === null || text === '') return null;
    try {
      const { def } = resolveText(text);
      return `${def.family} ${def.name}`;
    } catch {
      return null;
    }
  };

  const builtinAction = async (
    invocation: Scoped,
    kind: string,
    payload: unknown,
    token: string,
  ): Promise<Reply> => {
    const now = clock.now();
    if (kind === STOP) {
      const parsed = z.object({ id: z.string() }).safeParse(payload);
      await store.actions.consume(token, now);
      const waiting = parsed.success ? running.get(parsed.data.id) : undefined;
      if (waiting === undefined)
        return reply([notice('info', 'That is no longer waiting.')], { replace: true });
      waiting.abort(new Error('cancelled by the person who ran it'));
      return reply([notice('info', 'Cancelled.')], { replace: true });
    }
    if (kind === RERUN) {
      const parsed = z.object({ text: z.string() }).safeParse(payload);
      return parsed.success ? handleText({ ...invocation, text: parsed.data.text }) : expiredReply(null);
    }
    if (kind === CANCEL) {
      const parsed = z.object({ confirmToken: z.string() }).safeParse(payload);
      const cancelled = parsed.success && (await store.actions.consume(parsed.data.confirmToken, now));
      await store.actions.consume(token, now);
      return reply(
        [notice('info', cancelled ? 'Cancelled: nothing was spent.' : 'That was already decided.')],
        {
          replace: true,
        },
      );
    }
    const parsed = confirmPayload.safeParse(payload);
    if (!parsed.success) return expiredReply(null);
    // A confirmation is single-use: the second click of a double click finds it used and does nothing more.
    if (!(await store.actions.consume(token, now))) {
      invocation.tally.outcome = 'duplicate';
      return reply([notice('info', 'Already confirmed.')]);
    }
    const confirmed = parsed.data;
    if (confirmed.type === 'command') {
      const def = registry.command(confirmed.family, confirmed.command);
      if (def === undefined) return expiredReply(null);
      return runCommand(invocation, def, confirmed.input as Record<string, unknown>, confirmed.text, true);
    }
    return handleAction({ ...invocation, token: confirmed.token, event: confirmed.event }, true);
  };

  /** Says the results expired and, when the command is known, offers a button that runs it again. */
  const expiredFor = (invocation: Scoped, rerun: string | null) => {
    if (rerun === null) return expiredReply(null);
    const token = element(invocation, RERUN, { text: rerun }, { personal: true, rerun });
    return expiredReply(rerun, token);
  };

  const expiredReply = (rerun: string | null, rerunToken?: string) =>
    reply([
      notice(
        'warning',
        rerun === null
          ? 'This button no longer works. Run the command again.'
          : 'These results have expired.',
      ),
      rerunToken === undefined ? null : buttons(button('Run it again', rerunToken, { style: 'primary' })),
    ]);

  const handleAction = async (
    invocation: Scoped & { token: string; event?: ActionEvent },
    confirmed = false,
  ): Promise<Reply> => {
    const now = clock.now();
    const named = readFormId(invocation.token);
    if (named?.kind === 'command') {
      return formByText(invocation, formRequest.parse({ family: named.family, command: named.command }));
    }
    const found = await store.actions.lookup(invocation.token, invocation.actor, now);
    const { tally } = invocation;
    if (found.status === 'unknown') {
      tally.outcome = 'expired';
      return expiredReply(null);
    }
    tally.family = familyOfElement(found.record.kind, found.record.rerun);
    if (found.status === 'expired') {
      tally.outcome = 'expired';
      return expiredFor(invocation, found.record.rerun);
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
    if (kind === CONFIRM || kind === CANCEL || kind === RERUN || kind === STOP) {
      return builtinAction(invocation, kind, payload, invocation.token);
    }
    if (kind === FORM_KIND) {
      const request = formRequest.safeParse(payload);
      return request.success ? formByText(invocation, request.data) : expiredReply(null);
    }
    const def = registry.action(kind);
    const parsed = def?.payload.safeParse(payload);
    if (def === undefined || parsed === undefined || !parsed.success) {
      tally.outcome = 'expired';
      return expiredReply(null);
    }
    requireAccount(invocation, def.account === 'optional');
    const event = invocation.event ?? {};
    return guarded(invocation, {
      what: `action ${invocation.token}`,
      input: event,
      commandText: found.record.rerun ?? '',
      // Spend from a button counts toward the command that made it (`creators search`), not the button's kind.
      command: commandNameOf(found.record.rerun) ?? kind,
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

  /** The answer to a mistake, offering the command's form where the adapter opens forms. */
  const mistake = (error: unknown, def: CommandDef<unknown> | null, forms: boolean | undefined): Reply => {
    const answer = errorReply(error, logger, def === null ? null : usageLine(def));
    if (forms !== true || def === null || !hasForm(def) || !isInputError(error)) return answer;
    return { ...answer, nodes: [...answer.nodes, buttons(formButton('Form', commandFormId(def)))] };
  };

  const handleText = async (invocation: Scoped & { text: string }): Promise<Reply> => {
    let def: CommandDef<unknown> | null = null;
    try {
      const resolved = resolveText(invocation.text);
      def = resolved.def;
      return await runCommand(invocation, def, bindTokens(def.params, resolved.tokens), resolved.text, false);
    } catch (error) {
      invocation.tally.outcome = outcomeOf(error);
      if (invocation.tally.family === UNKNOWN)
        invocation.tally.family = familyOfLine(registry, invocation.text);
      return mistake(error, def, invocation.forms);
    }
  };

  /**
   * A form button pressed where no form opens (the terminal): the command line to type, filled in as the form
   * would be; with words typed after the press (`edit 1 notes:"Call Monday"`), that line run with them.
   */
  const formByText = async (
    invocation: Scoped & { event?: ActionEvent },
    request: z.output<typeof formRequest>,
  ): Promise<Reply> => {
    const def = registry.command(request.family, request.command);
    const spec = def === undefined ? null : formSpec(def, request);
    if (def === undefined || spec === null) return expiredReply(null);
    invocation.tally.family = def.family;
    const typed = invocation.event?.value?.trim() ?? '';
    if (typed !== '') {
      const fixed = Object.entries(request.fixed).map(([key, value]) => ({ key, value, source: value }));
      return handleText({ ...invocation, text: `${lineOf(def, fixed)} ${typed}` });
    }
    return reply([textNode(`${spec.title}: type `, code(formCommandLine(def, spec)))]);
  };

  const secretsNeeded = (line: string): SecretPrompt | null => {
    // Secret options are service keys, which tenants connect only in many-team mode.
    if (tenants.mode === 'single') return null;
    try {
      const { def, tokens } = resolveText(line);
      const raw = bindTokens(def.params, tokens);
      const fields = Object.entries(def.params)
        .filter(([name, spec]) => spec.secret === true && raw[name] === undefined)
        .map(([name, spec]) => ({ name, label: spec.description }));
      if (fields.length === 0) return null;
      const given: Record<string, string> = {};
      for (const [name, value] of Object.entries(raw)) if (typeof value === 'string') given[name] = value;
      return { family: def.family, command: def.name, given, fields };
    } catch {
      return null;
    }
  };

  /** A command from what a platform gathered (typed options, a form), which `gather` turns into its raw input. */
  const runGathered = async (
    request: Invocation & { family: string; command: string },
    tally: Tally,
    elements: MintedAction[],
    gather: (def: CommandDef<unknown>) => { raw: Record<string, unknown>; text: string },
  ): Promise<Reply> => {
    const invocation = await scope(request, tally, elements);
    if (invocation === null) {
      tally.outcome = 'refused';
      return outside();
    }
    let def: CommandDef<unknown> | null = null;
    try {
      def = registry.command(invocation.family, invocation.command) ?? null;
      if (def === null)
        throw new CommandInputError(`Unknown command ${invocation.family} ${invocation.command}.`);
      const { raw, text } = gather(def);
      return await runCommand(invocation, def, raw, text, false);
    } catch (error) {
      tally.outcome = outcomeOf(error);
      return mistake(error, def, invocation.forms);
    }
  };

  /** Typed options (Discord's, a secret form's) as a command's raw input, each coerced like its text. */
  const fromOptions = (options: Readonly<Record<string, string>>) => (def: CommandDef<unknown>) => {
    const raw: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(options)) {
      const name = resolveKey(def.params, key);
      const spec = name === null ? undefined : def.params[name];
      if (name === null || spec === undefined)
        throw new CommandInputError(`Unknown option "${key}".`, usageLine(def));
      Object.assign(raw, coerceParam(name, spec, value));
    }
    const text = [
      def.family,
      def.name,
      ...Object.entries(options).map(([k, v]) => `${k}:${quoteValue(v)}`),
    ].join(' ');
    return { raw, text };
  };

  const atOnceAnswers = new Map<string, { tally: Tally; answer: Reply }>();
  /** See Dispatcher.atOnce. */
  const atOnce = (line: string, options: { forms?: boolean } = {}): Reply | null => {
    const kept = atOnceAnswers.get(line);
    if (kept !== undefined) {
      metrics?.command(kept.tally.family, kept.tally.outcome);
      return kept.answer;
    }
    const tally: Tally = { family: UNKNOWN, outcome: 'ok' };
    let def: CommandDef<unknown> | null = null;
    let answer: Reply | null;
    try {
      const resolved = resolveText(line);
      def = resolved.def;
      tally.family = def.family;
      const input = validInput(def, bindTokens(def.params, resolved.tokens));
      answer = def.answer === undefined ? null : def.answer(input, registry);
    } catch (error) {
      if (!isInputError(error)) return null;
      tally.outcome = outcomeOf(error);
      if (tally.family === UNKNOWN) tally.family = familyOfLine(registry, line);
      answer = mistake(error, def, options.forms);
    }
    if (answer === null) return null;
    metrics?.command(tally.family, tally.outcome);
    // Help's line always has the same answer: kept, so that it is neither computed nor rendered again. A mistake's
    // answer is not kept: the line may hold what should not stay in memory (a key typed in the wrong place).
    if (tally.outcome === 'ok') {
      if (atOnceAnswers.size >= AT_ONCE_KEPT) atOnceAnswers.clear();
      atOnceAnswers.set(line, { tally, answer });
    }
    return answer;
  };

  /** See Dispatcher.working. */
  const working = (line: string): Reply | null => {
    try {
      const { def } = resolveText(line);
      return def.answer === undefined ? reply([notice('info', def.working ?? WORKING)]) : null;
    } catch {
      return null;
    }
  };

  return {
    secretsNeeded,
    atOnce,
    working,
    async text(request) {
      const tally: Tally = { family: UNKNOWN, outcome: 'ok' };
      const elements: MintedAction[] = [];
      return counted('command', tally, elements, async () => {
        const invocation = await scope(request, tally, elements);
        if (invocation !== null) return handleText(invocation);
        tally.family = familyOfLine(registry, request.text);
        tally.outcome = 'refused';
        return outside();
      });
    },
    async options(request) {
      const tally: Tally = { family: registry.family(request.family)?.name ?? UNKNOWN, outcome: 'ok' };
      const elements: MintedAction[] = [];
      return counted('command', tally, elements, () =>
        runGathered(request, tally, elements, fromOptions(request.options)),
      );
    },
    async form(request) {
      const tally: Tally = { family: registry.family(request.family)?.name ?? UNKNOWN, outcome: 'ok' };
      const elements: MintedAction[] = [];
      return counted('command', tally, elements, () =>
        runGathered(request, tally, elements, (def) => ({
          raw: bindTokens(def.params, request.tokens),
          text: lineOf(def, request.tokens),
        })),
      );
    },
    async action(request) {
      const tally: Tally = { family: UNKNOWN, outcome: 'ok' };
      const elements: MintedAction[] = [];
      return counted('action', tally, elements, async () => {
        const invocation = await scope(request, tally, elements);
        if (invocation === null) {
          tally.outcome = 'refused';
          return outside();
        }
        try {
          return await handleAction(invocation);
        } catch (error) {
          tally.outcome = outcomeOf(error);
          return errorReply(error, logger);
        }
      });
    },
  };
}

/** A mistake in the command line itself: answered from the line alone. */
const isInputError = (error: unknown) =>
  error instanceof CommandInputError || error instanceof TokenizeError || error instanceof ParamError;

/** The input of `def` from raw options, validated by its schema; throws CommandInputError naming what is wrong. */
function validInput(def: CommandDef<unknown>, raw: Record<string, unknown>): unknown {
  // Zod's own issues are worded as the client's are: `must be at most 5`, said of the option.
  const parsed = def.schema.safeParse(raw, { error: inputErrorMap });
  if (parsed.success) return parsed.data;
  const typed = (field: string) => typedName(raw, field);
  throw new CommandInputError(issueLines(parsed.error.issues, typed), usageLine(def));
}

/** The command text kept with buttons and answers ("run it again"), with any secret value it carries hidden. */
function withoutSecrets(def: CommandDef<unknown>, raw: Record<string, unknown>, text: string): string {
  let shown = text;
  for (const [param, spec] of Object.entries(def.params)) {
    const value = raw[param];
    if (spec.secret === true && typeof value === 'string' && value !== '')
      shown = shown.split(value).join('[secret]');
  }
  return shown;
}

export { quoteValue };
