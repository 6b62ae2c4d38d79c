/**
 * The Outbound contract on Slack: the real adapter (Bolt's Web API client) posting to the fake Slack Web API
 * through a front that can hold a post or lose its answer; what Slack holds is read back with
 * conversations.history and conversations.replies.
 */
import { request } from 'undici';
import { createSlackAdapter } from '../../src/adapters/slack/index.js';
import { startChatWorld, startFront, testLogger } from '../core/jobs/chat-world.js';
import { startFakeSlack } from '../fakes/slack-api.js';
import { describeOutboundContract, type Held } from './outbound.js';
import { overFront } from './over-front.js';

const TEAM_ID = 'T0001';

/** A message as conversations.history and conversations.replies list it. */
interface Listed {
  ts: string;
  bot_id?: string;
  thread_ts?: string;
}

describeOutboundContract('Slack', { remembersAcrossRestart: true }, async () => {
  const world = await startChatWorld('2026-03-10T12:00:00Z');
  const slack = await startFakeSlack({ teamId: TEAM_ID });
  const front = await startFront(slack.apiUrl.replace(/\/api\/$/, ''));
  const app = await world.app();
  const parts = await overFront({
    front,
    isPost: (method, path) => method === 'POST' && path === '/api/chat.postMessage',
    async start() {
      const adapter = createSlackAdapter({
        config: {
          botToken: 'xoxb-contract',
          oauth: null,
          signingSecret: 'contract-signing-secret-0001',
          appToken: null,
          apiUrl: `${front.url}/api/`,
          port: 0,
        },
        chat: app.chat,
        logger: testLogger(),
        postIntervalMs: 10,
      });
      await adapter.start();
      return adapter;
    },
  });
  /** Scout's messages a Web API read lists, straight from the fake. */
  const read = async (method: string, args: Record<string, string>): Promise<Listed[]> => {
    const res = await request(`${slack.apiUrl}${method}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: 'Bearer xoxb-contract' },
      body: new URLSearchParams({ ...args, limit: '1000', include_all_metadata: 'true' }).toString(),
    });
    const answer = (await res.body.json()) as { messages?: Listed[] };
    return (answer.messages ?? []).filter((m) => m.bot_id !== undefined);
  };
  return {
    get outbound() {
      return parts.outbound;
    },
    channel: { platform: 'slack', workspaceId: TEAM_ID, channelId: 'C0CONTRACT' },
    person: { platform: 'slack', workspaceId: TEAM_ID, userId: 'U0ANA' },
    async messages(channel) {
      const held: Held[] = [];
      // History is newest first and leaves replies out; a thread is listed oldest first, its parent leading.
      for (const top of (await read('conversations.history', { channel })).reverse()) {
        held.push({ id: top.ts, thread: null, text: JSON.stringify(top) });
        for (const m of await read('conversations.replies', { channel, ts: top.ts })) {
          if (m.ts !== top.ts) held.push({ id: m.ts, thread: m.thread_ts ?? null, text: JSON.stringify(m) });
        }
      }
      return held;
    },
    restart: () => parts.restart(),
    loseAnswer: (post) => parts.loseAnswer(post),
    crash: (post, when) => parts.crash(post, when),
    async close() {
      await parts.adapter.stop();
      // Posts held as if the process died with them get a platform error, which Slack's client does not retry.
      await front.stop({ status: 200, body: { ok: false, error: 'channel_not_found' } });
      await slack.stop();
      await world.close();
    },
  };
});
