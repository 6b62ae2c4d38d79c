/** The App Home tab: the person's spend, the team's credit balance, the workspace's subscriptions, getting started. */
import type { types } from '@slack/bolt';
import { SLACK } from '../../core/ui/index.js';
import { clip, escapeMrkdwn } from './mrkdwn.js';

/** A channel subscription of the workspace (reply notifications, digests). */
export interface ChannelSubscription {
  channelId: string;
  kind: string;
  detail: string;
}

/** What the Home tab shows. */
export interface HomeData {
  spentToday: number;
  spentThisMonth: number;
  /** The person's daily cap; null for none. */
  dailyCap: number | null;
  /** The team's service balance; null when the service did not say. */
  balance: number | null;
  subscriptions: readonly ChannelSubscription[];
}

/** Shown when the workspace has no subscription. */
export const NO_SUBSCRIPTIONS = 'No channel subscriptions yet: /scout notify or /scout digest in a channel.';

const GETTING_STARTED = [
  '`/scout creators` opens a search form; `/scout creators niche:yoga followers:10k-100k` searches at once.',
  '`/scout viral` finds viral posts; `/scout lists` shows your team’s CRM lists.',
  '`/scout credits` shows spend in detail; `/scout help` lists every command.',
].join('\n');

const mrkdwn = (text: string): types.MrkdwnElement => ({ type: 'mrkdwn', text });
const section = (text: string): types.SectionBlock => ({
  type: 'section',
  text: mrkdwn(clip(text, SLACK.SECTION_TEXT_MAX)),
});

// Only a real channel id becomes a channel link; anything else is shown as text.
const channelRef = (id: string) => (/^[CGD][A-Z0-9]{2,}$/.test(id) ? `<#${id}>` : escapeMrkdwn(id));

/** Subscriptions shown before "and N more"; keeps the view under its 100 blocks. */
const SUBSCRIPTIONS_SHOWN = 80;

/** Builds the Home tab view. */
export function homeView(data: HomeData): types.HomeView {
  const credits = (n: number) => `${n} credit${n === 1 ? '' : 's'}`;
  const shown = data.subscriptions.slice(0, SUBSCRIPTIONS_SHOWN);
  const blocks: types.KnownBlock[] = [
    { type: 'header', text: { type: 'plain_text', text: 'Scout' } },
    section('Find creators, run outreach lists and watch viral content with `/scout`.'),
    {
      type: 'section',
      fields: [
        mrkdwn(`*You today*\n${credits(data.spentToday)}`),
        mrkdwn(`*You this month*\n${credits(data.spentThisMonth)}`),
        mrkdwn(`*Your daily cap*\n${data.dailyCap === null ? 'none' : credits(data.dailyCap)}`),
        mrkdwn(`*Team balance*\n${data.balance === null ? 'not available' : credits(data.balance)}`),
      ],
    },
    { type: 'divider' },
    section('*Channel subscriptions*'),
    ...(shown.length === 0
      ? [section(escapeMrkdwn(NO_SUBSCRIPTIONS))]
      : shown.map((s) =>
          section(`${channelRef(s.channelId)} · *${escapeMrkdwn(s.kind)}* · ${escapeMrkdwn(s.detail)}`),
        )),
    ...(data.subscriptions.length > shown.length
      ? [section(`… and ${data.subscriptions.length - shown.length} more.`)]
      : []),
    { type: 'divider' },
    section('*Getting started*'),
    section(GETTING_STARTED),
  ];
  return { type: 'home', blocks: blocks.slice(0, SLACK.VIEW_BLOCKS_MAX) };
}
