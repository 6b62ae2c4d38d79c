/**
 * Where an invocation runs: its tenant's access resolved once at entry (anyone outside is refused before anything
 * else), the elements (buttons, selects) made for its answers, and the context its handler receives.
 */
import { randomBytes } from 'node:crypto';
import type { Actor } from '../actor.js';
import type { Clock } from '../clock.js';
import { budgetScopeFor, createMeter, type Reservation, type Reservations } from '../credits.js';
import type { Logger } from '../logger.js';
import { createRefusingApi, type ServiceApi } from '../service/index.js';
import type { CallOptions } from '../service/types.js';
import type { MintedAction } from '../store/action-tokens.js';
import type { Store } from '../store/index.js';
import { type Access, OUTSIDE_MESSAGE, type Tenants, tenantOf } from '../tenancy/index.js';
import { notice, type Reply, reply } from '../ui/index.js';
import { expiredFor } from './confirmations.js';
import { NotConnectedError } from './errors.js';
import type { Tally } from './outcome.js';
import type { CommandContext, CommandRegistry, CommandSettings } from './types.js';

/** What the dispatcher and its parts work with. */
export interface DispatchEnv {
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
  /**
   * The conversation a line belongs to, where a follow-up may refine or act on the last answer: a direct message's
   * channel, a mention's thread, the terminal's session. Unique within the tenant; absent for a slash command.
   */
  conversation?: string;
}

/**
 * An invocation in its tenant: the tenant's access, its tally, and the elements made for its answers, stored
 * together before the answer leaves (see saveElements).
 */
export type Scoped = Invocation & {
  access: Exclude<Access, { status: 'outside' }>;
  tally: Tally;
  elements: MintedAction[];
};

/** The answer to anyone outside the deployment's tenants. */
export const outside = (): Reply => reply([notice('warning', OUTSIDE_MESSAGE)], { visibility: 'author' });

/**
 * The invocation in its tenant, with Scout admins (named with /scout admins) counted as admins; null for anyone
 * outside the deployment's tenants.
 */
export async function scope<T extends Invocation>(
  env: Pick<DispatchEnv, 'tenants' | 'logger'>,
  invocation: T,
  tally: Tally,
  elements: MintedAction[],
): Promise<(T & Scoped) | null> {
  const tenant = tenantOf(invocation.actor);
  const access = await env.tenants.access(tenant);
  if (access.status === 'outside') {
    env.logger.info(
      { platform: tenant.platform, workspace: tenant.workspaceId },
      'Refused a request from outside.',
    );
    return null;
  }
  const isAdmin =
    invocation.actor.isAdmin || (await env.tenants.isScoutAdmin(tenant, invocation.actor.userId));
  return { ...invocation, actor: { ...invocation.actor, isAdmin }, access, tally, elements };
}

/** Throws NotConnectedError unless the tenant has an account or the work needs none. */
export function requireAccount(invocation: Scoped, optional: boolean): void {
  const { access } = invocation;
  if (!optional && access.status !== 'ok') {
    throw new NotConnectedError(invocation.actor.isAdmin, access.unreadable === true);
  }
}

/** Stores the elements made for an invocation's answers so far, in one statement. */
export const saveElements = (store: Store, elements: MintedAction[]) =>
  store.actions.save(elements.splice(0));

/** Options of a new element. */
export interface ElementOptions {
  personal?: boolean;
  /** The command line its Run it again runs, when its results expire. */
  rerun: string | null;
  ttlMs?: number;
}

/** Makes an element for an invocation's answer; stored by saveElements before the answer is sent. */
export function mintElement(
  env: Pick<DispatchEnv, 'store' | 'settings' | 'clock'>,
  invocation: Scoped,
  kind: string,
  payload: unknown,
  options: ElementOptions,
): string {
  const minted = env.store.actions.mint({
    kind,
    payload,
    actor: invocation.actor,
    personal: options.personal === true,
    rerun: options.rerun,
    ttlMs: options.ttlMs ?? env.settings.elementTtlMs,
    now: env.clock.now(),
  });
  invocation.elements.push(minted);
  return minted.token;
}

/** Says the results expired and, when `rerun` is known, offers a personal button that runs it again. */
export const expiredIn = (env: DispatchEnv, invocation: Scoped, rerun: string | null): Reply =>
  expiredFor(
    (kind, payload) => mintElement(env, invocation, kind, payload, { personal: true, rerun }),
    rerun,
  );

/** The service of a tenant without a service account: any call says how to connect one, and nothing is sent. */
const unconnected = (isAdmin: boolean): ServiceApi => createRefusingApi(() => new NotConnectedError(isAdmin));

/** What one run spent and showed for free, for its answer's cost line, and whether it changed nothing. */
export interface Spend {
  credits: number;
  cached: number;
  unchanged: boolean;
}

/** One run of guarded work: its invocation key, the command its spend counts toward, its reservation and calls. */
export interface Run {
  commandText: string;
  key: string;
  command: string | null;
  reservation: Reservation;
  calls: CallOptions;
  spend: Spend;
}

/** What a handler receives for one run. */
export function commandContext(env: DispatchEnv, invocation: Scoped, run: Run): CommandContext {
  const { access } = invocation;
  const { store, tenants, clock, settings, logger, registry } = env;
  const { commandText } = run;
  return {
    actor: invocation.actor,
    channelId: invocation.channelId,
    account: access.status === 'ok' ? access.account.id : null,
    // Each run gets its own ledger keys: a repeat after the window is a new purchase and must be recorded.
    service:
      access.status === 'ok'
        ? access.account.service.metered(
            createMeter({
              ...budgetScopeFor(invocation.actor, env),
              keyPrefix: `${run.key}:${randomBytes(6).toString('base64url')}`,
              command: run.command,
              accountId: access.account.id,
              owner: env.owner,
              reservation: run.reservation,
              charged: (credits) => {
                run.spend.credits += credits;
              },
            }),
            run.calls,
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
      mintElement(env, invocation, kind, payload, {
        rerun: commandText || null,
        ...(options.personal === undefined ? {} : { personal: options.personal }),
        ...(options.ttlMs === undefined ? {} : { ttlMs: options.ttlMs }),
      }),
    progress: async (shown) => {
      await saveElements(store, invocation.elements);
      await invocation.progress?.(shown);
    },
    expired: () => expiredIn(env, invocation, commandText || null),
    cached: (count) => {
      run.spend.cached += Math.max(0, count);
    },
    changedNothing: () => {
      run.spend.unchanged = true;
    },
  };
}
