/**
 * The App Home tab, rendered from the person's home view (ChatCore.home): their spend, the team's credit balance
 * and spend chart, the workspace's subscriptions, getting started; for anyone outside the deployment's tenants,
 * only a line saying Scout is not available.
 */
import { createHash } from 'node:crypto';
import type { App as BoltApp, types } from '@slack/bolt';
import {
  type ChatCore,
  type GuideText,
  type HomeView,
  OUTSIDE_MESSAGE,
  type TeamSpendView,
} from '../../core/chat/index.js';
import type { Logger } from '../../core/logger.js';
import { formatCredits } from '../../core/ui/index.js';
import { type FileTarget, fileImageBlock, uploadUnshared } from './deliver.js';
import { SLACK } from './limits.js';
import { clip, escapeMrkdwn } from './mrkdwn.js';
import type { People } from './people.js';
import { eventPerson } from './tenancy.js';

/** What the Home tab shows: the person's home view, and the Slack file of the team chart when it was uploaded. */
export type HomeData = Extract<HomeView, { kind: 'home' }> & {
  /** The chart uploaded unshared; absent when there is none to show. */
  chartFileId?: string;
};

/** A guide sentence in mrkdwn: its words escaped, its command lines as code. */
const guideMrkdwn = (text: GuideText) =>
  text.map((part) => ('command' in part ? `\`${part.command}\`` : escapeMrkdwn(part.text))).join('');

/** A guide sentence as plain words, its command lines among them (the subscriptions' placeholder reads as one). */
const guideWords = (text: GuideText) =>
  text.map((part) => ('command' in part ? part.command : part.text)).join('');

function teamSpendBlocks(data: HomeData): types.KnownBlock[] {
  const spend = data.team;
  const title = `*Team, last ${spend.days} days*`;
  if (spend.total === 0) return [section(`${title}\nNo spend yet.`)];
  const chartTitle = spend.chart?.title;
  const hint = data.guide.teamSpend.length === 0 ? '' : ` · ${guideMrkdwn(data.guide.teamSpend)}`;
  return [
    section(`${title}\n${spend.sparkline}  ${formatCredits(spend.total)}${hint}`),
    ...(data.chartFileId === undefined || chartTitle === undefined
      ? []
      : [fileImageBlock(data.chartFileId, chartTitle)]),
  ];
}

const mrkdwn = (text: string): types.MrkdwnElement => ({ type: 'mrkdwn', text });
const section = (text: string): types.SectionBlock => ({
  type: 'section',
  text: mrkdwn(clip(text, SLACK.SECTION_TEXT_MAX)),
});

// Only a real channel id becomes a channel link; anything else is shown as text.
const channelRef = (id: string) => (/^[CGD][A-Z0-9]{2,}$/.test(id) ? `<#${id}>` : escapeMrkdwn(id));

/** Subscriptions shown before "and N more"; keeps the view under its 100 blocks. */
const SUBSCRIPTIONS_SHOWN = 80;

function balanceText(data: HomeData): string {
  if (data.connected === false) return guideMrkdwn(data.guide.notConnected);
  return data.balance === null ? 'not available' : formatCredits(data.balance);
}

/** Builds the Home tab view. */
export function homeView(data: HomeData): types.HomeView {
  const shown = data.subscriptions.slice(0, SUBSCRIPTIONS_SHOWN);
  const blocks: types.KnownBlock[] = [
    { type: 'header', text: { type: 'plain_text', text: 'Scout' } },
    section('Find creators, run outreach lists and watch viral content with `/scout`.'),
    {
      type: 'section',
      fields: [
        mrkdwn(`*You today*\n${formatCredits(data.spentToday)}`),
        mrkdwn(`*You this month*\n${formatCredits(data.spentThisMonth)}`),
        mrkdwn(`*Your daily cap*\n${data.dailyCap === null ? 'none' : formatCredits(data.dailyCap)}`),
        mrkdwn(`*Team balance*\n${balanceText(data)}`),
      ],
    },
    ...teamSpendBlocks(data),
    { type: 'divider' },
    section('*Channel subscriptions*'),
    ...(shown.length === 0
      ? [section(escapeMrkdwn(guideWords(data.guide.noSubscriptions)))]
      : shown.map((s) =>
          section(`${channelRef(s.channelId)} · *${escapeMrkdwn(s.kind)}* · ${escapeMrkdwn(s.detail)}`),
        )),
    ...(data.subscriptions.length > shown.length
      ? [section(`… and ${data.subscriptions.length - shown.length} more.`)]
      : []),
    ...(data.guide.start.length === 0
      ? []
      : [
          { type: 'divider' } as const,
          section('*Getting started*'),
          section(data.guide.start.map(guideMrkdwn).join('\n')),
        ]),
  ];
  return { type: 'home', blocks: blocks.slice(0, SLACK.VIEW_BLOCKS_MAX) };
}

/** The Home tab of someone Scout does not serve: nothing of any team. */
export function outsideHomeView(): types.HomeView {
  return {
    type: 'home',
    blocks: [
      { type: 'header', text: { type: 'plain_text', text: 'Scout' } },
      section(escapeMrkdwn(OUTSIDE_MESSAGE)),
    ],
  };
}

/** What the Home listener needs. */
export interface HomeDeps {
  chat: Pick<ChatCore, 'home'>;
  logger: Logger;
  people: People;
}

/** Charts uploaded for Home tabs, kept so that opening the tab again uploads nothing new. */
const CHARTS_KEPT = 500;

/**
 * The Slack files of the team charts uploaded for Home tabs, by workspace and content: the chart is uploaded once
 * per workspace each time the spend it shows changes, not each time someone opens the tab.
 */
function chartUploads() {
  const kept = new Map<string, string>();
  return {
    get: (key: string) => kept.get(key),
    set(key: string, id: string) {
      kept.delete(key);
      kept.set(key, id);
      if (kept.size > CHARTS_KEPT) kept.delete(kept.keys().next().value as string);
    },
    forget: (key: string) => kept.delete(key),
  };
}

const contentKey = (workspaceId: string, bytes: Uint8Array) =>
  `${workspaceId}:${createHash('sha256').update(bytes).digest('hex')}`;

/** Publishes the Home tab when a person opens it, with the balance of the tenant's own service account. */
export function registerHome(bolt: BoltApp, deps: HomeDeps): void {
  const { chat, logger } = deps;
  const charts = chartUploads();

  /** The Slack file of the team chart, uploaded (or found uploaded) when there is one; its key in `charts`. */
  async function chartOf(
    client: FileTarget['client'],
    workspaceId: string,
    team: TeamSpendView,
  ): Promise<{ id: string; key: string } | null> {
    if (team.chart === null) return null;
    try {
      const key = contentKey(workspaceId, team.chart.bytes);
      const id = charts.get(key) ?? (await uploadUnshared(client, team.chart));
      if (id === undefined) return null;
      charts.set(key, id);
      return { id, key };
    } catch (error) {
      logger.warn({ err: error }, 'the Home tab chart could not be uploaded');
      return null;
    }
  }

  bolt.event('app_home_opened', async ({ event, body, client, context }) => {
    if (event.tab !== 'home') return;
    try {
      const person = eventPerson(event.user, body.team_id, context);
      const { tenant } = person;
      if (!(await deps.people.admits(client, person))) {
        await client.views.publish({ user_id: event.user, view: outsideHomeView() });
        return;
      }
      const home = await chat.home({ ...tenant, userId: event.user });
      if (home.kind === 'outside') {
        await client.views.publish({ user_id: event.user, view: outsideHomeView() });
        return;
      }
      const chart = await chartOf(client, tenant.workspaceId, home.team);
      try {
        const data = chart === null ? home : { ...home, chartFileId: chart.id };
        await client.views.publish({ user_id: event.user, view: homeView(data) });
      } catch (error) {
        // A chart file Slack no longer shows (deleted, or not processed yet): the tab without it, the sparkline kept.
        if (chart === null) throw error;
        charts.forget(chart.key);
        logger.warn({ err: error }, 'the Home tab with its chart was refused; publishing it without');
        await client.views.publish({ user_id: event.user, view: homeView(home) });
      }
    } catch (error) {
      logger.error({ err: error }, 'Slack home failed');
    }
  });
}
