/**
 * Direct messages and mentions in an Enterprise Grid org-wide install (single-team mode, an org bot token): the org
 * is the tenant, as for `/scout`, and only the people users.info names of the org are answered; a guest of another
 * organisation is refused, and the service is sent nothing for them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SlackAdapter } from '../../../src/adapters/slack/index.js';
import { OUTSIDE_MESSAGE } from '../../../src/core/tenancy/index.js';
import type { ApiCall } from '../../fakes/slack-api.js';
import { sendEvent, startBotAdapter, startWorld, type World } from './helpers.js';

const ORG = 'E0ORG';
const ORG_TEAM = 'T0ORGA';
const MEMBER = 'UMEMBER';
const GUEST = 'UGUEST';
const inOrg = { enterpriseId: ORG, orgWide: true } as const;

let world: World;
let adapter: SlackAdapter;
let clock = 1_700_200_000;

beforeAll(async () => {
  world = await startWorld({ teamId: ORG_TEAM, enterpriseId: ORG, enterpriseInstall: true });
  world.slack.orgMembers.set(MEMBER, { enterpriseId: ORG, teamId: 'T0ORGB' });
  adapter = await startBotAdapter(world.app, world.slack, 'xoxb-org');
});

afterAll(async () => {
  await adapter.stop();
  await world.stop();
});

/** A message event of `type` by `user`, who names their own team, in the org's workspace. */
async function said(type: 'message' | 'app_mention', user: string, team: string, text: string) {
  clock += 1;
  const ts = `${clock}.000100`;
  const channel = type === 'message' ? `D${user}` : 'C0ORG';
  const im = type === 'message' ? { channel_type: 'im' } : {};
  await sendEvent(adapter.port, ORG_TEAM, { type, channel, user, team, text, ts, ...im }, inOrg);
  const post = await world.slack.waitFor(() =>
    world.slack.calls.find(
      (c: ApiCall) =>
        (c.method === 'chat.postMessage' || c.method === 'chat.postEphemeral') && c.args.channel === channel,
    ),
  );
  return { post, ts };
}

describe('conversations in an org-wide install', () => {
  it('answers a person of the org in a DM, from another of its workspaces too', async () => {
    const requests = world.sandbox.requests().length;
    const { post } = await said('message', MEMBER, 'T0ORGB', 'credits');
    expect(String(post.args.text)).not.toContain(OUTSIDE_MESSAGE);
    expect(String(post.args.text)).not.toMatch(/could not answer/);
    expect(world.sandbox.requests().length).toBeGreaterThan(requests);
  });

  it('refuses a guest of another organisation, in a DM and in a mention’s thread', async () => {
    const requests = world.sandbox.requests().length;
    const { post } = await said('message', GUEST, 'TGUEST', 'lists');
    expect(String(post.args.text)).toContain(OUTSIDE_MESSAGE);
    const { post: refused, ts } = await said('app_mention', GUEST, 'TGUEST', '<@UBOT> lists');
    expect(refused.method).toBe('chat.postEphemeral');
    expect(refused.args.thread_ts).toBe(ts);
    expect(String(refused.args.text)).toContain(OUTSIDE_MESSAGE);
    expect(world.sandbox.requests().length).toBe(requests);
  });
});
