/**
 * Single-team mode with the bot token of one workspace inside Enterprise Grid org E1 (a workspace install, not
 * org-wide), over real Bolt in HTTP mode. In Grid, `user.team_id` is a person's home workspace whichever of the
 * org's workspaces they act in (bolt-js#1875): a person of E1 whose home is another of its workspaces is served in
 * the installed workspace's tenant once users.info says they are of E1; a Slack Connect guest (of no org, or of
 * another) is refused, with no modal opened and no service request.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SlackAdapter } from '../../../src/adapters/slack/index.js';
import { FORM_MODAL } from '../../../src/adapters/slack/modals.js';
import { utcMonth } from '../../../src/core/credits.js';
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
  sendForm,
  sendPayload,
  startBotAdapter,
  startWorld,
  type World,
  responseTo as waitForResponse,
} from './helpers.js';
import type { Origin } from './payloads.js';

const ORG = 'E1';
/** The workspace Scout is installed in; the org's other workspace is T0GRIDB. */
const INSTALLED = 'T0GRIDA';
const inWorkspace = { teamId: INSTALLED, enterpriseId: ORG } as const;
const installedTenant = { platform: 'slack' as const, workspaceId: INSTALLED };

/** Who is who, and their home team: everyone but the home member's is another than the installed workspace. */
const PEOPLE = {
  home: { id: 'UHOME', origin: {} },
  visitor: { id: 'UVISITOR', origin: { userTeamId: 'T0GRIDB' } },
  guest: { id: 'UGUEST', origin: { userTeamId: 'TGUEST' } },
  otherOrg: { id: 'UOTHERORG', origin: { userTeamId: 'T0ELSE' } },
} satisfies Record<string, { id: string; origin: Pick<Origin, 'userTeamId'> }>;
type Who = keyof typeof PEOPLE;

let world: World;
let adapter: SlackAdapter;
let sequence = 0;

beforeAll(async () => {
  world = await startWorld({ teamId: INSTALLED, enterpriseId: ORG, enterpriseInstall: false });
  world.slack.orgMembers.set(PEOPLE.home.id, { enterpriseId: ORG, teamId: INSTALLED });
  world.slack.orgMembers.set(PEOPLE.visitor.id, { enterpriseId: ORG, teamId: 'T0GRIDB' });
  world.slack.orgMembers.set(PEOPLE.otherOrg.id, { enterpriseId: 'E2', teamId: 'T0ELSE' });
  adapter = await startBotAdapter(world.app, world.slack, 'xoxb-grid-workspace');
});

afterAll(async () => {
  await adapter.stop();
  await world.stop();
});

const responseTo = (id: string): Promise<ResponsePost> => waitForResponse(world.slack, id);

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

/**
 * Sends `/scout <text>` by `who` in the installed workspace; the person's home team goes in `user_team`, a hint
 * Slack does not document (`hinted: false` leaves it out). Resolves with the id of its response_url.
 */
async function command(who: Who, text: string, hinted = true): Promise<string> {
  sequence += 1;
  const id = `${who}-${sequence}`;
  const { id: userId, origin } = PEOPLE[who];
  const form = slashCommandBody({
    text,
    responseUrl: world.slack.responseUrl(id),
    userId,
    ...inWorkspace,
    ...(hinted ? origin : {}),
  });
  expect((await sendForm(adapter.port, form)).status).toBe(200);
  return id;
}

/** `/scout <text>` by `who`, like command: the answer at the response_url. */
const slash = async (who: Who, text: string): Promise<ResponsePost> => responseTo(await command(who, text));

/** A press of `actionId` by `who` in the installed workspace: the answer at the response_url. */
async function press(who: Who, actionId: string): Promise<ResponsePost> {
  sequence += 1;
  const id = `${who}-press-${sequence}`;
  const { id: userId, origin } = PEOPLE[who];
  const payload = blockActionPayload({
    actionId,
    responseUrl: world.slack.responseUrl(id),
    userId,
    ...inWorkspace,
    ...origin,
  });
  expect((await sendPayload(adapter.port, payload)).status).toBe(200);
  return responseTo(id);
}

/** The search modal's submission by `who`, posting to channel `channelId`. */
async function submitSearch(who: Who, channelId: string): Promise<void> {
  const { id: userId, origin } = PEOPLE[who];
  const submission = viewSubmissionPayload({
    callbackId: FORM_MODAL,
    privateMetadata: JSON.stringify({ family: 'creators', command: 'search', fixed: {}, channelId }),
    // A search needs a filter: one with none is refused before anything is sent.
    values: { followers: { value: { type: 'plain_text_input', value: '10k-100k' } } },
    userId,
    ...inWorkspace,
    ...origin,
  });
  expect((await sendPayload(adapter.port, submission)).status).toBe(200);
}

/**
 * The first Next button of a creator search by the home member for `niche`: each test searches its own, since the
 * same search again within the repeat window is told it is already done, with no buttons.
 */
async function nextButton(niche: string): Promise<string> {
  const cards = await slash('home', `creators followers:10k-100k niche:${niche}`);
  const [next] = buttonIds((cards.body.blocks ?? []) as Block[], 'Next');
  expect(next).toBeDefined();
  return next as string;
}

describe('a workspace install inside an Enterprise Grid org: the org’s people, in the installed workspace', () => {
  it('serves the workspace’s own people', async () => {
    expect(outside(await slash('home', 'lists'))).toBe(false);
  });

  it('serves a person of the org whose home is another workspace: a press, in the installed workspace’s tenant', async () => {
    const next = await nextButton('yoga');
    const month = utcMonth(world.app.clock.now());
    const visitor = { ...installedTenant, userId: PEOPLE.visitor.id };
    const before = await world.app.store.ledger.spent(visitor, month);
    const seen = watch();
    const page = await press('visitor', next);
    expect(outside(page)).toBe(false);
    expect(JSON.stringify(page.body.blocks)).toContain('Page 2');
    expect(seen.serviceRequests()).toBeGreaterThan(0);
    // The press is charged to the installed workspace, not to the person's home workspace.
    expect(await world.app.store.ledger.spent(visitor, month)).toBeGreaterThan(before);
    expect(
      await world.app.store.ledger.spent(
        { platform: 'slack', workspaceId: 'T0GRIDB', userId: PEOPLE.visitor.id },
        month,
      ),
    ).toBe(0);
    const asked = seen
      .slackCalls()
      .filter((c) => c.method === 'users.info' && c.args.user === PEOPLE.visitor.id);
    expect(asked).toHaveLength(1);
  });

  it('opens the search form for that person, and posts what they search for', async () => {
    for (const hinted of [true, false]) {
      const seen = watch();
      await command('visitor', 'creators', hinted);
      const open = await world.slack.waitFor(() => seen.slackCalls().find((c) => c.method === 'views.open'));
      expect((open.args.view as { callback_id: string }).callback_id).toBe(FORM_MODAL);
    }
    const seen = watch();
    await submitSearch('visitor', 'CVISITOR');
    const posted = await world.slack.waitFor(() =>
      seen
        .slackCalls()
        .find((c) => c.method.startsWith('chat.post') && c.args.channel === 'CVISITOR' && c.args.blocks),
    );
    expect(String(posted.args.text)).not.toContain(OUTSIDE_MESSAGE);
    expect(seen.serviceRequests()).toBeGreaterThan(0);
    // Slack said who they are at the press: the answer is kept.
    expect(seen.slackCalls().filter((c) => c.method === 'users.info')).toEqual([]);
  });

  it('refuses a Slack Connect guest, of no org or of another: no press, no modal, no service request', async () => {
    const next = await nextButton('running');
    const seen = watch();
    for (const who of ['guest', 'otherOrg'] as const) {
      expect(outside(await press(who, next))).toBe(true);
      expect(outside(await slash(who, 'creators'))).toBe(true);
      expect(outside(await slash(who, 'connect key'))).toBe(true);
      await submitSearch(who, `C${who}`);
      const refusal = await world.slack.waitFor(() =>
        seen.slackCalls().find((c) => c.method === 'chat.postEphemeral' && c.args.channel === `C${who}`),
      );
      expect(String(refusal.args.text)).toContain(OUTSIDE_MESSAGE);
    }
    expect(seen.serviceRequests()).toBe(0);
    const methods = new Set(seen.slackCalls().map((c) => c.method));
    expect([...methods].sort()).toEqual(['chat.postEphemeral', 'users.info']);
  });
});
