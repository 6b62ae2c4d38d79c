/**
 * The Outbound contract on Discord: the real adapter (discord.js over the fake gateway) posting to the fake
 * Discord REST through a front that can hold a post or lose its answer; what Discord holds is read back from the
 * channel's messages and those of the threads on them. A restart comes after a long outage: Discord has forgotten
 * the nonces of earlier posts, so only the look-up can find them.
 */
import { request } from 'undici';
import { createDiscordAdapter } from '../../src/adapters/discord/index.js';
import { APP_ID, CHANNEL, GUILD } from '../adapters/discord/harness.js';
import { startChatWorld, startFront, testLogger } from '../core/jobs/chat-world.js';
import { createFakeDiscord, type FakeMessage } from '../fakes/discord-fake.js';
import { describeOutboundContract, type Held } from './outbound.js';
import { overFront } from './over-front.js';

describeOutboundContract('Discord', { remembersAcrossRestart: true }, async () => {
  const world = await startChatWorld('2026-03-10T12:00:00Z');
  const fake = createFakeDiscord({ applicationId: APP_ID, guildId: GUILD, channelId: CHANNEL });
  await fake.start();
  const front = await startFront(fake.apiUrl.replace(/\/api$/, ''));
  const app = await world.app();
  const parts = await overFront({
    front,
    isPost: (method, path) => method === 'POST' && /^\/api\/v10\/channels\/\d+\/messages$/.test(path),
    async start() {
      const adapter = createDiscordAdapter({
        config: { token: 'fake-token', applicationId: APP_ID, apiUrl: `${front.url}/api`, guildIds: [GUILD] },
        chat: app.chat,
        logger: testLogger(),
      });
      await adapter.start();
      return adapter;
    },
    outage: () => fake.forgetNonces(),
  });
  /** Scout's messages in a channel (or thread), oldest first, straight from the fake. */
  const read = async (channelId: string): Promise<FakeMessage[]> => {
    const res = await request(`${fake.apiUrl}/v10/channels/${channelId}/messages?limit=100`, {
      headers: { authorization: 'Bot fake-token' },
    });
    const listed = (await res.body.json()) as FakeMessage[];
    return listed.filter((m) => (m.author as { id?: string }).id === APP_ID).reverse();
  };
  // Discord escapes markdown in what it is sent (`\:`); the words searched for are plain.
  const shown = (message: FakeMessage) => JSON.stringify(message).replace(/\\\\([^\w\s\\])/g, '$1');
  return {
    get outbound() {
      return parts.outbound;
    },
    channel: { platform: 'discord', workspaceId: GUILD, channelId: CHANNEL },
    person: { platform: 'discord', workspaceId: GUILD, userId: '200000000000000001' },
    async messages(channelId) {
      const held: Held[] = [];
      for (const top of await read(channelId)) {
        held.push({ id: top.id, thread: null, text: shown(top) });
        // A thread started on a message takes the message's id.
        const thread = (top.thread as { id?: string } | undefined)?.id;
        if (thread === undefined) continue;
        for (const m of await read(thread)) held.push({ id: m.id, thread, text: shown(m) });
      }
      return held;
    },
    restart: () => parts.restart(),
    loseAnswer: (post) => parts.loseAnswer(post),
    crash: (post, when) => parts.crash(post, when),
    async close() {
      await parts.adapter.stop();
      // Posts held as if the process died with them get an error discord.js does not retry.
      await front.stop({ status: 404, body: { message: 'Unknown Channel', code: 10003 } });
      await fake.stop();
      await world.close();
    },
  };
});
