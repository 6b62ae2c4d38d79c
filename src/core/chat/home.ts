/**
 * A person's home view, as a platform's home surface (Slack's App Home) shows it: their spend today and this
 * month, their daily cap, the team's service balance, the team's spend over the last days (with its chart), and
 * the workspace's channel subscriptions, and what to type to get started. Neutral data: each adapter renders it its
 * own way.
 */
import type { Platform } from '../actor.js';
import { sparkline } from '../charts/spend.js';
import { TEAM_DAYS, teamChartFile, teamSpend } from '../charts/team.js';
import type { Clock } from '../clock.js';
import type { CommandRegistry } from '../command/types.js';
import { budgetOf, budgetScopeFor, utcMonth } from '../credits.js';
import type { Logger } from '../logger.js';
import type { Store } from '../store/index.js';
import type { Tenants } from '../tenancy/index.js';
import type { FileAttachment } from '../ui/index.js';
import { type HomeGuide, homeGuide } from './guide.js';

/** A person in a workspace: whose home it is. */
export interface PersonRef {
  platform: Platform;
  workspaceId: string;
  userId: string;
}

/** A channel subscription of the workspace (reply notifications, digests). */
export interface ChannelSubscription {
  channelId: string;
  /** What it posts: `reply notifications` or `viral digest`. */
  kind: string;
  /** Which project, or when and how many. */
  detail: string;
}

/** The team's recent spend: the daily totals as a sparkline, their sum, and the chart of them. */
export interface TeamSpendView {
  /** Days covered, today included. */
  readonly days: number;
  readonly sparkline: string;
  readonly total: number;
  /** The chart as a PNG file; null when there is no spend or it could not be drawn. */
  readonly chart: FileAttachment | null;
}

/** What a person's home shows; `outside` for anyone Scout does not serve, who is shown nothing of any team. */
export type HomeView =
  | { kind: 'outside' }
  | {
      kind: 'home';
      spentToday: number;
      spentThisMonth: number;
      /** The person's daily cap; null for none. */
      dailyCap: number | null;
      /** The team's service balance; null when the service did not say. */
      balance: number | null;
      /** False while the workspace has no service account connected (many-team mode). */
      connected: boolean;
      subscriptions: readonly ChannelSubscription[];
      team: TeamSpendView;
      /** Getting started and the hints beside the figures, naming the commands of this deployment. */
      guide: HomeGuide;
    };

/** What the home view is read from. */
export interface HomeParts {
  store: Store;
  tenants: Pick<Tenants, 'isServed' | 'access'>;
  clock: Clock;
  /** The commands the guide names. */
  registry: CommandRegistry;
  settings: { readonly defaultDailyCap: number | null };
  logger: Logger;
}

/** The workspace's reply notifications and digests, as the home lists them. */
async function subscriptionsOf(
  store: Store,
  workspace: { platform: Platform; workspaceId: string },
): Promise<ChannelSubscription[]> {
  const [subscriptions, digests] = await Promise.all([
    store.subscriptions.list(workspace),
    store.digests.list(workspace),
  ]);
  return [
    ...subscriptions.map((s) => ({
      channelId: s.channelId,
      kind: 'reply notifications',
      detail: s.projectId === null ? 'every project' : `project ${s.projectId}`,
    })),
    ...digests.map((d) => ({
      channelId: d.channelId,
      kind: 'viral digest',
      detail: `daily at ${d.localTime} ${d.timeZone}, top ${d.top}`,
    })),
  ];
}

/** Creates the function that reads a person's home view, with the balance of their tenant's own account. */
export function createHome(parts: HomeParts): (person: PersonRef) => Promise<HomeView> {
  const { store, tenants, clock, logger } = parts;
  const guide = homeGuide(parts.registry);

  const teamOf = async (workspace: { platform: Platform; workspaceId: string }): Promise<TeamSpendView> => {
    const data = await teamSpend(store.ledger, workspace, clock.now());
    const view = { days: TEAM_DAYS, sparkline: sparkline(data.totals), total: data.total };
    if (data.total === 0) return { ...view, chart: null };
    try {
      return { ...view, chart: await teamChartFile(data) };
    } catch (error) {
      logger.warn({ err: error }, 'the home chart could not be drawn');
      return { ...view, chart: null };
    }
  };

  return async (person) => {
    const tenant = { platform: person.platform, workspaceId: person.workspaceId };
    if (!tenants.isServed(tenant)) return { kind: 'outside' };
    const [{ spentToday, cap }, spentThisMonth, access] = await Promise.all([
      budgetOf(budgetScopeFor(person, { store, clock, settings: parts.settings })),
      store.ledger.spent(person, utcMonth(clock.now())),
      tenants.access(tenant),
    ]);
    if (access.status === 'outside') return { kind: 'outside' };
    const [balance, subscriptions, team] = await Promise.all([
      access.status === 'ok'
        ? access.account.service.creators
            .search({ perPage: 1 })
            .then((result) => result.meta.creditsRemaining)
            .catch(() => null)
        : null,
      subscriptionsOf(store, tenant).catch((error: unknown) => {
        logger.warn({ err: error }, 'listing channel subscriptions failed');
        return [];
      }),
      teamOf(tenant),
    ]);
    return {
      kind: 'home',
      spentToday,
      spentThisMonth,
      dailyCap: cap,
      balance,
      connected: access.status === 'ok',
      subscriptions,
      team,
      guide,
    };
  };
}
