/**
 * Many-team mode with an Enterprise Grid org that installed Scout org-wide through Bolt's OAuth: the org's admin
 * connects its key through the private form, its people see its lists; a guest of another organisation in the
 * org's channel, even one users.info calls an admin of their own workspace, sees nothing of the org, opens no key
 * form and cannot replace the org's key; a workspace admin who is not an admin of the org cannot either.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SECRET_MODAL } from '../../../src/adapters/slack/modals.js';
import { OUTSIDE_MESSAGE } from '../../../src/core/tenancy/index.js';
import {
  blockActionPayload,
  type ResponsePost,
  slashCommandBody,
  viewSubmissionPayload,
} from '../../fakes/slack-api.js';
import { type Block, buttonIds, sendForm, sendPayload } from './helpers.js';
import { type ManyTeams, startManyTeams, TEAMS, textOf } from './many-teams.js';
import type { Origin } from './payloads.js';

const ORG = 'E0ORG';
const ORG_TEAM = 'T0ORGA';
const inOrg = { teamId: ORG_TEAM, enterpriseId: ORG, orgWide: true } as const;
const ORG_ADMIN = 'UORGADMIN';
const MEMBER = 'UMEMBER';
const WORKSPACE_ADMIN = 'UWSADMIN';
const GUEST = 'UGUEST';
const guest: Origin = { userTeamId: 'TGUEST' };
const orgTenant = { platform: 'slack' as const, workspaceId: ORG };

let world: ManyTeams;
let sequence = 0;

beforeAll(async () => {
  world = await startManyTeams();
  const { orgMembers, admins } = world.slack;
  orgMembers.set(ORG_ADMIN, { enterpriseId: ORG, isAdmin: true });
  orgMembers.set(MEMBER, { enterpriseId: ORG });
  orgMembers.set(WORKSPACE_ADMIN, { enterpriseId: ORG });
  admins.add(WORKSPACE_ADMIN);
  // An admin of their own workspace, of no org: users.info says is_admin, and nothing of the org.
  admins.add(GUEST);
});

afterAll(async () => {
  await world.stop();
});

/** `/scout <text>` by `userId` in the org's channel: the answer at the response_url. */
async function slash(userId: string, text: string, origin: Origin = {}): Promise<ResponsePost> {
  sequence += 1;
  const id = `org-${sequence}`;
  const form = slashCommandBody({
    text,
    responseUrl: world.slack.responseUrl(id),
    userId,
    ...inOrg,
    ...origin,
  });
  await sendForm(world.adapter.port, form);
  return world.responseTo(id);
}

/** A key form that never opened: its id names no stored form. */
const UNOPENED = 'scout.secret:AAAAAAAAAAAAAAAA';

/** `/scout connect key` by the org's admin: the id of the form it opens. */
async function openKeyForm(): Promise<string> {
  const responseUrl = world.slack.responseUrl('org-form');
  return (await world.openKeyForm({ responseUrl, userId: ORG_ADMIN, ...inOrg })).id;
}

/** The submission of key form `formId` by `userId`, with `key` typed: the private answer. */
async function submitKey(
  userId: string,
  key: string,
  formId: string,
  origin: Origin = {},
): Promise<ResponsePost> {
  sequence += 1;
  const id = `org-key-${sequence}`;
  const metadata = { id: formId, channelId: 'C0ORG', responseUrl: world.slack.responseUrl(id) };
  const submission = viewSubmissionPayload({
    callbackId: SECRET_MODAL,
    privateMetadata: JSON.stringify(metadata),
    values: { 'secret.key': { value: { type: 'plain_text_input', value: key } } },
    userId,
    ...inOrg,
    ...origin,
  });
  await sendPayload(world.adapter.port, submission);
  return world.responseTo(id);
}

describe('an org-wide install through OAuth: the org’s people, and nobody else in its channels', () => {
  it('installs the org, and its admin connects its key through the private form', async () => {
    const token = await world.install(ORG, { org: true });
    expect(await world.app.store.tenants.slackInstallation(ORG)).toMatch(/^v1:/);
    // The form opens through the org's own bot token (the last Slack issued it: `token`).
    expect(token).toBe(world.slack.issued.get(ORG)?.at(-1));
    expect(textOf(await submitKey(ORG_ADMIN, TEAMS.T1.key, await openKeyForm()))).toContain('Connected');
    expect((await world.app.store.tenants.account(orgTenant))?.connectedBy).toBe(ORG_ADMIN);
  });

  it('shows the org’s people its lists; a guest of another organisation is refused without a service request', async () => {
    await world.app.accounts.forKey(TEAMS.T1.key).service.crm.createList({ name: TEAMS.T1.list });
    expect(textOf(await slash(MEMBER, 'lists'))).toContain(TEAMS.T1.list);
    const cards = await slash(MEMBER, 'creators followers:10k-100k niche:yoga');
    const [next] = buttonIds((cards.body.blocks ?? []) as Block[], 'Next');
    expect(next).toBeDefined();

    const requests = world.sandbox.requests().length;
    const answer = await slash(GUEST, 'lists', guest);
    expect(textOf(answer)).toContain(OUTSIDE_MESSAGE);
    expect(textOf(answer)).not.toContain(TEAMS.T1.list);
    await sendPayload(
      world.adapter.port,
      blockActionPayload({
        actionId: next as string,
        responseUrl: world.slack.responseUrl('guest-press'),
        userId: GUEST,
        ...inOrg,
        ...guest,
      }),
    );
    expect(textOf(await world.responseTo('guest-press'))).toContain(OUTSIDE_MESSAGE);
    expect(world.sandbox.requests()).toHaveLength(requests);
  });

  it('opens no key form for a guest who is an admin of their own workspace, nor takes their key', async () => {
    const connected = await world.app.store.tenants.account(orgTenant);
    const before = world.slack.calls.length;
    const requests = world.sandbox.requests().length;
    expect(textOf(await slash(GUEST, 'connect key', guest))).toContain(OUTSIDE_MESSAGE);
    expect(textOf(await submitKey(GUEST, TEAMS.T2.key, UNOPENED, guest))).toContain(OUTSIDE_MESSAGE);
    // Slack was asked who the guest is in the test before: nothing at all now.
    expect(world.slack.calls.slice(before).map((c) => c.method)).toEqual([]);
    expect(world.sandbox.requests()).toHaveLength(requests);
    expect(await world.app.store.tenants.account(orgTenant)).toEqual(connected);
  });

  it('takes the org’s admins as its admins: a workspace admin who is not one opens no key form', async () => {
    const before = world.slack.calls.length;
    const answer = await slash(WORKSPACE_ADMIN, 'connect key');
    expect(textOf(answer)).toContain('needs a Slack workspace or org admin');
    expect(world.slack.calls.slice(before).map((c) => c.method)).toEqual(['users.info']);
    // Nor takes their key in a form opened for the org's admin: a form is its own person's.
    const requests = world.sandbox.requests().length;
    const adminsForm = await openKeyForm();
    expect(textOf(await submitKey(WORKSPACE_ADMIN, TEAMS.T2.key, adminsForm))).toContain('expired');
    expect(world.sandbox.requests()).toHaveLength(requests);
    expect((await world.app.store.tenants.account(orgTenant))?.connectedBy).toBe(ORG_ADMIN);
  });
});
