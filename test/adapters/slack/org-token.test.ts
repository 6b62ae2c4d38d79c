/**
 * Single-team mode with an Enterprise Grid org-wide bot token, over real Bolt in HTTP mode: the whole org is the
 * tenant, and a person belongs to it only when users.info says so (`enterprise_user.enterprise_id`). A guest of
 * another organisation in one of the org's Slack Connect channels, whose requests name the org like everyone
 * else's, is refused like any outsider: no service request, no modal, no press, no Home. The org's admins are its
 * admins and owners, not a workspace's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SlackAdapter } from '../../../src/adapters/slack/index.js';
import { FORM_MODAL } from '../../../src/adapters/slack/modals.js';
import { TYPE_PREFIX, VALUE_MODAL } from '../../../src/adapters/slack/value-modal.js';
import { OUTSIDE_MESSAGE } from '../../../src/core/tenancy/index.js';
import {
  blockActionPayload,
  type ResponsePost,
  slashCommandBody,
  viewSubmissionPayload,
} from '../../fakes/slack-api.js';
import {
  type Block,
  buttonIds,
  sendEvent,
  sendForm,
  sendPayload,
  startBotAdapter,
  startWorld,
  type World,
  responseTo as waitForResponse,
} from './helpers.js';
import type { Origin } from './payloads.js';

const ORG = 'E0ORG';
/** The org's workspace the channel is in. */
const ORG_TEAM = 'T0ORGA';
const inOrg = { teamId: ORG_TEAM, enterpriseId: ORG, orgWide: true } as const;

/** Who is who; guests name their own team, as Slack does in a shared channel. */
const PEOPLE = {
  member: { id: 'UMEMBER', origin: {} },
  orgAdmin: { id: 'UORGADMIN', origin: { userTeamId: 'T0ORGB' } },
  orgOwner: { id: 'UORGOWNER', origin: {} },
  workspaceAdmin: { id: 'UWSADMIN', origin: {} },
  guest: { id: 'UGUEST', origin: { userTeamId: 'TGUEST' } },
  otherOrg: { id: 'UOTHERORG', origin: { userTeamId: 'T0ELSE' } },
} satisfies Record<string, { id: string; origin: Origin }>;
type Who = keyof typeof PEOPLE;

let world: World;
let adapter: SlackAdapter;
let sequence = 0;

beforeAll(async () => {
  world = await startWorld({ teamId: ORG_TEAM, enterpriseId: ORG, enterpriseInstall: true });
  const { orgMembers, admins } = world.slack;
  orgMembers.set(PEOPLE.member.id, { enterpriseId: ORG, teamId: ORG_TEAM });
  orgMembers.set(PEOPLE.orgAdmin.id, { enterpriseId: ORG, teamId: 'T0ORGB', isAdmin: true });
  orgMembers.set(PEOPLE.orgOwner.id, { enterpriseId: ORG, isOwner: true });
  orgMembers.set(PEOPLE.workspaceAdmin.id, { enterpriseId: ORG });
  // Workspace admins (users.info's is_admin) who are not admins of the org; the guest is one in their own.
  admins.add(PEOPLE.workspaceAdmin.id);
  admins.add(PEOPLE.guest.id);
  orgMembers.set(PEOPLE.otherOrg.id, { enterpriseId: 'E0ELSE', teamId: 'T0ELSE', isAdmin: true });
  adapter = await startBotAdapter(world.app, world.slack, 'xoxb-org');
});

afterAll(async () => {
  await adapter.stop();
  await world.stop();
});

const responseTo = (id: string): Promise<ResponsePost> => waitForResponse(world.slack, id);

/** `/scout <text>` by `who` in the org's channel: the answer at the response_url. */
async function slash(who: Who, text: string, origin: Origin = {}): Promise<ResponsePost> {
  sequence += 1;
  const id = `${who}-${sequence}`;
  const { id: userId, origin: own } = PEOPLE[who];
  const form = slashCommandBody({
    text,
    responseUrl: world.slack.responseUrl(id),
    userId,
    ...inOrg,
    ...own,
    ...origin,
  });
  expect((await sendForm(adapter.port, form)).status).toBe(200);
  return responseTo(id);
}

/** A press of `actionId` by `who` in the org's channel: the answer at the response_url. */
async function press(who: Who, actionId: string): Promise<ResponsePost> {
  sequence += 1;
  const id = `${who}-press-${sequence}`;
  const { id: userId, origin } = PEOPLE[who];
  await sendPayload(
    adapter.port,
    blockActionPayload({ actionId, responseUrl: world.slack.responseUrl(id), userId, ...inOrg, ...origin }),
  );
  return responseTo(id);
}

const outside = (post: ResponsePost) => String(post.body.text).includes(OUTSIDE_MESSAGE);

/** Every Slack call and service request made from now on. */
function watch() {
  const calls = world.slack.calls.length;
  const requests = world.sandbox.requests().length;
  return {
    slackCalls: () => world.slack.calls.slice(calls),
    serviceRequests: () => world.sandbox.requests().length - requests,
  };
}

describe('an org-wide bot token: the org’s people, and nobody else in its channels', () => {
  it('serves the people of the org, from any of its workspaces', async () => {
    for (const who of ['member', 'orgAdmin'] as const) {
      const answer = await slash(who, 'lists');
      expect(outside(answer)).toBe(false);
    }
  });

  it('refuses a guest of another organisation, or of another org, in the org’s channel: no service request, no modal', async () => {
    const [next] = buttonIds(
      ((await slash('member', 'creators followers:10k-100k niche:yoga')).body.blocks ?? []) as Block[],
      'Next',
    );
    expect(next).toBeDefined();
    const seen = watch();
    for (const who of ['guest', 'otherOrg'] as const) {
      const { id: userId, origin } = PEOPLE[who];
      for (const text of ['lists', 'creators', 'connect key'])
        expect(outside(await slash(who, text))).toBe(true);
      expect(outside(await press(who, next as string))).toBe(true);
      expect(outside(await press(who, `${TYPE_PREFIX}creators.add:abc`))).toBe(true);
      const named = `${who}-name-form`;
      const nameForm = viewSubmissionPayload({
        callbackId: VALUE_MODAL,
        privateMetadata: JSON.stringify({
          token: 'creators.add:abc',
          channelId: 'C0001',
          responseUrl: world.slack.responseUrl(named),
        }),
        values: { value: { value: { type: 'plain_text_input', value: 'Alpha' } } },
        userId,
        ...inOrg,
        ...origin,
      });
      await sendPayload(adapter.port, nameForm);
      expect(outside(await responseTo(named))).toBe(true);
      const searchForm = viewSubmissionPayload({
        callbackId: FORM_MODAL,
        privateMetadata: JSON.stringify({
          family: 'creators',
          command: 'search',
          fixed: {},
          channelId: `C${who}`,
        }),
        values: {},
        userId,
        ...inOrg,
        ...origin,
      });
      await sendPayload(adapter.port, searchForm);
      const refusal = await world.slack.waitFor(() =>
        seen.slackCalls().find((c) => c.method === 'chat.postEphemeral' && c.args.channel === `C${who}`),
      );
      expect(String(refusal.args.text)).toContain(OUTSIDE_MESSAGE);
      await sendEvent(adapter.port, ORG_TEAM, { type: 'app_home_opened', user: userId, tab: 'home' }, inOrg);
      const home = await world.slack.waitFor(() =>
        seen.slackCalls().find((c) => c.method === 'views.publish' && c.args.user_id === userId),
      );
      expect(JSON.stringify(home.args.view)).toContain(OUTSIDE_MESSAGE);
      expect(JSON.stringify(home.args.view)).not.toContain('balance');
      // Slack is asked once who they are; the answer is kept.
      const asked = seen.slackCalls().filter((c) => c.method === 'users.info' && c.args.user === userId);
      expect(asked).toHaveLength(1);
    }
    expect(seen.serviceRequests()).toBe(0);
    const methods = new Set(seen.slackCalls().map((c) => c.method));
    expect([...methods].sort()).toEqual(['chat.postEphemeral', 'users.info', 'views.publish']);
  });

  it('opens the search form for a person of the org', async () => {
    const seen = watch();
    const form = slashCommandBody({
      text: 'creators',
      responseUrl: world.slack.responseUrl(),
      userId: 'UMEMBER',
      ...inOrg,
    });
    await sendForm(adapter.port, form);
    const open = await world.slack.waitFor(() => seen.slackCalls().find((c) => c.method === 'views.open'));
    expect((open.args.view as { callback_id: string }).callback_id).toBe(FORM_MODAL);
  });

  it('refuses a request through another org’s install before asking Slack anything', async () => {
    const seen = watch();
    const answer = await slash('member', 'help', { enterpriseId: 'E0ELSE' });
    expect(outside(answer)).toBe(true);
    expect(seen.slackCalls()).toEqual([]);
  });

  it('takes the org’s admins and owners as admins, not a workspace’s admins', async () => {
    for (const who of ['orgAdmin', 'orgOwner'] as const) {
      expect(String((await slash(who, 'connect key')).body.text)).toContain('serves one team');
    }
    for (const who of ['workspaceAdmin', 'member'] as const) {
      expect(String((await slash(who, 'connect key')).body.text)).toContain(
        'needs a Slack workspace or org admin',
      );
    }
  });

  it('fails a request it cannot ask Slack about, and asks again at the next one', async () => {
    world.slack.orgMembers.set('UNEWCOMER', { enterpriseId: ORG });
    world.slack.failNext('users.info');
    const seen = watch();
    const form = (id: string) =>
      slashCommandBody({
        text: 'help',
        responseUrl: world.slack.responseUrl(id),
        userId: 'UNEWCOMER',
        ...inOrg,
      });
    await sendForm(adapter.port, form('newcomer-failed'));
    const failed = await responseTo('newcomer-failed');
    expect(String(failed.body.text)).toContain('could not answer');
    expect(seen.serviceRequests()).toBe(0);
    await sendForm(adapter.port, form('newcomer-again'));
    expect(outside(await responseTo('newcomer-again'))).toBe(false);
  });
});
