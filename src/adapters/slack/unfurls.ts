/**
 * Link unfurls: a creator profile link pasted in a workspace Scout serves gets, through chat.unfurl, the answer of
 * `creators link` for it (the cached creator card, free; else a small card with a Look up button), so
 * nothing is bought without a press, and the press runs like any button through the dispatcher. Links that name no
 * profile, and every link from outside the tenants Scout serves or from a tenant without a service account, are
 * left alone (logged at debug only). Slack acknowledges the event before this listener runs.
 * https://docs.slack.dev/messaging/unfurling-links-in-messages https://docs.slack.dev/reference/methods/chat.unfurl
 */
import type { App as BoltApp } from '@slack/bolt';
import type { UnfurlDoor } from '../../core/chat/index.js';
import type { Logger } from '../../core/logger.js';
import type { Reply } from '../../core/ui/index.js';
import type { Block } from './blocks.js';
import type { People } from './people.js';
import { renderSlackMessages } from './render.js';
import { eventPerson } from './tenancy.js';

/** Profile links unfurled per message; any further ones are left as Slack shows them. */
export const UNFURLS_PER_MESSAGE_MAX = 5;

/** What the unfurl listener needs. */
export interface UnfurlDeps {
  unfurls: UnfurlDoor;
  logger: Logger;
  people: People;
}

/** The distinct links of an event that name a creator profile, at most UNFURLS_PER_MESSAGE_MAX. */
export function profileLinksOf(
  links: ReadonlyArray<{ url?: unknown }>,
  names: UnfurlDoor['names'],
): string[] {
  const found: string[] = [];
  for (const link of links) {
    const url = link.url;
    if (typeof url !== 'string' || found.includes(url) || !names(url)) continue;
    found.push(url);
    if (found.length === UNFURLS_PER_MESSAGE_MAX) break;
  }
  return found;
}

/** The blocks of an answer that is a card or a Look up offer; null for anything else (an error, a notice). */
function unfurlBlocks(answer: Reply): Block[] | null {
  const usable = answer.nodes.some((node) => node.type === 'card' || node.type === 'buttons');
  const [first] = usable ? renderSlackMessages(answer) : [];
  return first === undefined || first.blocks.length === 0 ? null : first.blocks;
}

/** Where chat.unfurl attaches: the composer's link (unfurl_id and source) or the posted message (channel, ts). */
function target(event: { channel: string; message_ts: string; unfurl_id?: string; source?: string }) {
  return event.source === 'composer' && event.unfurl_id !== undefined
    ? { unfurl_id: event.unfurl_id, source: 'composer' as const }
    : { channel: event.channel, ts: event.message_ts };
}

/** Registers the `link_shared` listener. */
export function registerUnfurls(bolt: BoltApp, deps: UnfurlDeps): void {
  const { unfurls: door, logger, people } = deps;
  bolt.event('link_shared', async ({ event, body, client, context }) => {
    try {
      const urls = profileLinksOf(Array.isArray(event.links) ? event.links : [], door.names);
      if (urls.length === 0) return;
      const person = eventPerson(event.user, body.team_id, context);
      if (!(await people.admits(client, person)) || !(await door.unfurls(person.tenant))) {
        logger.debug({ workspace: person.tenant.workspaceId }, 'Links not unfurled: tenant not served.');
        return;
      }
      const actor = await people.actorOf(client, person);
      const unfurls: Record<string, { blocks: Block[] }> = {};
      for (const url of urls) {
        const answer = await door.answer({ actor, channelId: event.channel }, url);
        const blocks = unfurlBlocks(answer);
        if (blocks !== null) unfurls[url] = { blocks };
      }
      if (Object.keys(unfurls).length === 0) return;
      await client.chat.unfurl({ ...target(event), unfurls });
    } catch (error) {
      logger.warn({ err: error }, 'Slack link unfurl failed');
    }
  });
}
