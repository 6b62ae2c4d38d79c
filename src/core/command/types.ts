/**
 * What a command family declares once (name, description, options, examples, handler; a cost and an estimate
 * when paid, a permission when for admins) and what a handler receives. The declaration drives dispatch, help and
 * platform registration.
 */
import type { z } from 'zod';
import type { Actor } from '../actor.js';
import type { Clock } from '../clock.js';
import type { Logger } from '../logger.js';
import type { ServiceApi } from '../service/index.js';
import type { Store } from '../store/index.js';
import type { Tenants } from '../tenancy/index.js';
import type { Reply } from '../ui/index.js';
import type { ParamTable } from './params.js';

/** Who may run a command. */
export type Permission = 'everyone' | 'admin';

/** Settings that shape commands; from the environment via config. */
export interface CommandSettings {
  /** A paid command estimated above this many credits asks for confirmation first. */
  confirmAbove: number;
  /** Default daily cap per person when no admin set one; null for none. */
  defaultDailyCap: number | null;
  /** A service balance below this many credits alerts the tenant's admins privately once a day; null: off. */
  balanceAlert: number | null;
  /** How long a bought creator profile is reused. */
  profileTtlMs: number;
  /** How long buttons and search results keep working. */
  elementTtlMs: number;
  /** The same command from the same person within this window is answered once. */
  repeatWindowMs: number;
  /** A command without an answer after this long shows its working message ("Searching creators…"); null: never. */
  workingNoticeMs: number | null;
}

/** Options of a new interactive element. */
export interface TokenOptions {
  /** Only the person acting may press it. */
  personal?: boolean;
  /** Time to live; the element TTL by default. */
  ttlMs?: number;
}

/** What a handler receives. */
export interface CommandContext {
  readonly actor: Actor;
  readonly channelId: string;
  /**
   * The tenant's service account (its fingerprint), which scopes what was bought with it (the profile cache);
   * null only for work declared `account: 'optional'` in a tenant that has not connected one.
   */
  readonly account: string | null;
  /** The tenant's service client; its paid calls are recorded in the ledger against the actor and checked against caps. */
  readonly service: ServiceApi;
  readonly store: Store;
  /** The deployment's tenants: connecting and disconnecting service accounts. */
  readonly tenants: Tenants;
  readonly clock: Clock;
  readonly settings: CommandSettings;
  readonly logger: Logger;
  /** Every command, for help. */
  readonly registry: CommandRegistry;
  /** The command text that produced this context, to offer re-running it. */
  readonly commandText: string;
  /** Creates an opaque token for a button or select that runs action `kind` with `payload`. */
  token(kind: string, payload: unknown, options?: TokenOptions): string;
  /** Posts an interim reply (for long work), visible like the final one. */
  progress(reply: Reply): Promise<void>;
  /** Says `count` things this answer shows were paid for before (cached profiles): its cost line counts them. */
  cached(count: number): void;
  /**
   * Says this answer changed nothing (a refusal or an offer, such as "There is no list X: Create it?"), so typing
   * the same again runs again instead of being told it is done.
   */
  changedNothing(): void;
  /** The answer for results whose state has expired: says so and offers to run the command again. */
  expired(): Reply;
}

/**
 * One subcommand as its family declares it: no family (the family gives it, see `defineFamily`), permission
 * `everyone` and free unless it says otherwise.
 */
export interface CommandDeclaration<I> {
  /** The subcommand, e.g. `search`. */
  readonly name: string;
  /** One line for help and platform registration (Discord caps descriptions at 100 characters). */
  readonly description: string;
  /** How each option is typed. */
  readonly params: ParamTable;
  /** Validates the assembled input (bounds, combinations) and gives the handler its typed input. */
  readonly schema: z.ZodType<I>;
  /** Full commands as a person types them, after `/scout`. */
  readonly examples: readonly string[];
  /** What it costs, in words, for help: `10 credits`, `1 credit per creator shown`; `free` when left out. */
  readonly cost?: string;
  /** The most credits a run with this input can cost; paid commands only (0 when left out). */
  estimate?(input: I, ctx: CommandContext): number | Promise<number>;
  /** `admin` for admins only; `everyone` when left out. */
  readonly permission?: Permission;
  /** `optional`: runs in a tenant that has not connected a service account yet (help, connect, admins). */
  readonly account?: 'optional';
  /** Changes state (in the service or in Scout): a duplicate delivery or a repeat within seconds runs it once. */
  readonly mutates?: boolean;
  /**
   * What a change touches, when other families change it too (connect and disconnect: `service-account`); the
   * family by default. After a change, a repeat of an earlier change of the same subject in the tenant runs again.
   */
  readonly subject?: string;
  /**
   * The estimate is a ceiling that often does not apply (what is bought depends on what a free call returns and
   * what is cached): the daily cap is checked at each paid call, at its own cost, not on the whole estimate.
   */
  readonly capPerCall?: boolean;
  /** What the person is told while a slow answer is on its way ("Searching creators…"). */
  readonly working?: string;
  /**
   * The answer, when it follows from the input alone (no person, no tenant state, no service): given at once,
   * in the platform's acknowledgement where it can carry one (help). `run` gives the same answer.
   */
  answer?(input: I, registry: CommandRegistry): Reply;
  run(ctx: CommandContext, input: I): Promise<Reply>;
}

/** One subcommand of a family as everything reads it: its declaration with its family and the defaults filled in. */
export interface CommandDef<I> extends CommandDeclaration<I> {
  /** The family, e.g. `creators`. */
  readonly family: string;
  /** What it costs, in words, for help (`free` for free commands). */
  readonly cost: string;
  /** The most credits a run with this input can cost (0 for free commands). */
  estimate(input: I, ctx: CommandContext): number | Promise<number>;
  readonly permission: Permission;
}

/** What an element press carries besides its token. */
export interface ActionEvent {
  /** The chosen value of a select, or a word typed in the terminal (`add 3 to Spring`). */
  value?: string | undefined;
  /**
   * The values chosen in a multi-select (Slack's `selected_options`, Discord's `values`, the terminal's `3.1,3.3`),
   * in the order the person gave them; `value` then carries only words typed with them (`add 1,3 to Spring`).
   */
  choices?: readonly string[] | undefined;
  /** Named values of a submitted form (modals). */
  values?: Readonly<Record<string, string>> | undefined;
}

/** The handler behind interactive elements of one kind, as declared: free unless it gives an estimate. */
export interface ActionDeclaration<P = unknown> {
  /** Stored with each token, e.g. `creators.page`. */
  readonly kind: string;
  /** Validates the stored payload (it round-trips through SQLite). */
  readonly payload: z.ZodType<P>;
  /** The most credits pressing it can cost; paid elements only (0 when left out). */
  estimate?(payload: P, event: ActionEvent, ctx: CommandContext): number | Promise<number>;
  /** Changes state: a double click or duplicate delivery runs it once. */
  readonly mutates?: boolean;
  /** What a change touches; the family of the kind (`list` for `list.status`) by default. */
  readonly subject?: string;
  /** `optional`: works in a tenant without a service account (the connect form). */
  readonly account?: 'optional';
  /** What the person is told while a slow answer is on its way. */
  readonly working?: string;
  run(ctx: CommandContext, payload: P, event: ActionEvent): Promise<Reply>;
}

/** The handler behind interactive elements of one kind as everything reads it (declared with `defineAction`). */
export interface ActionDef<P = unknown> extends ActionDeclaration<P> {
  /** The most credits pressing it can cost (0 for free elements). */
  estimate(payload: P, event: ActionEvent, ctx: CommandContext): number | Promise<number>;
}

/** A command family: its subcommands and element handlers (declared with `defineFamily`). */
export interface CommandFamily {
  readonly name: string;
  /** Other words that name the family (`creator`). */
  readonly aliases?: readonly string[];
  readonly description: string;
  /** The subcommand run when no subcommand word is given. */
  readonly defaultCommand?: string;
  readonly commands: readonly CommandDef<unknown>[];
  readonly actions?: readonly ActionDef<unknown>[];
}

/** Looks commands and actions up. */
export interface CommandRegistry {
  readonly families: readonly CommandFamily[];
  family(name: string): CommandFamily | undefined;
  command(family: string, name: string): CommandDef<unknown> | undefined;
  action(kind: string): ActionDef<unknown> | undefined;
}

/** A family as declared: its commands are declarations, given their family by `defineFamily`. */
export interface FamilyDeclaration extends Omit<CommandFamily, 'commands'> {
  readonly commands: readonly CommandDeclaration<unknown>[];
}

/** Declares a command with its input type inferred from the schema (methods keep it assignable to a family). */
export function defineCommand<I>(def: CommandDeclaration<I>): CommandDeclaration<I> {
  return def;
}

const free = () => 0;

/**
 * Declares a family: each command gets the family's name, permission `everyone`, cost `free` and a free estimate
 * unless declared.
 */
export function defineFamily(def: FamilyDeclaration): CommandFamily {
  const commands = def.commands.map(
    (command): CommandDef<unknown> =>
      Object.freeze({
        ...command,
        family: def.name,
        permission: command.permission ?? 'everyone',
        cost: command.cost ?? 'free',
        estimate: command.estimate ?? free,
      }),
  );
  return Object.freeze({ ...def, commands: Object.freeze(commands) });
}

/** Declares an element handler with its payload type inferred from the schema; free unless it gives an estimate. */
export function defineAction<P>(def: ActionDeclaration<P>): ActionDef<P> {
  return { ...def, estimate: def.estimate ?? free };
}
