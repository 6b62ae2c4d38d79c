/**
 * Direct messages on Slack: `conversations.open` gives the person's DM channel with the bot (scope im:write), where
 * the channel Outbound posts as anywhere else: keyed in the message metadata, and looked up in the DM's history
 * (scope im:history) when an earlier attempt may have landed. https://docs.slack.dev/reference/methods/conversations.open
 */
import type { webApi } from '@slack/bolt';
import { PlatformError } from '../../core/errors.js';
import type { ChannelOutbound, Outbound, PersonRef, PostedMessage } from '../../core/outbound.js';

/** Gives the Slack channel Outbound direct messages; `clientFor` is the Web API client of a workspace. */
export function withDirectMessages(
  channels: ChannelOutbound,
  clientFor: (workspaceId: string) => Promise<webApi.WebClient>,
): Outbound {
  return {
    platform: 'slack',
    post: (channel, reply, options) => channels.post(channel, reply, options),
    async postDirect(person: PersonRef, reply, options = {}): Promise<PostedMessage> {
      const client = await clientFor(person.workspaceId);
      // The same DM channel every time; opening it is harmless when it exists.
      const opened = await client.conversations.open({ users: person.userId });
      const channelId = opened.channel?.id;
      if (channelId === undefined)
        throw new PlatformError(`Slack opened no DM channel with ${person.userId}`);
      return channels.post({ platform: 'slack', workspaceId: person.workspaceId, channelId }, reply, options);
    },
  };
}
