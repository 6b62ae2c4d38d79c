/**
 * Many-team mode end to end: real Bolt in HTTP mode runs its own OAuth against the fake Slack (install path,
 * state cookie, oauth.v2.access), two workspaces install Scout and each connects its own service key through the
 * private form; each then sees only its own lists, spend and subscriptions; a button of one is dead in the other;
 * an uninstall deletes the installation and the key and stops the poller for that key, unless Slack delivers it
 * late, after a reinstall. Keys and tokens are kept sealed on disk and never logged.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SECRET_MODAL } from '../../../src/adapters/slack/modals.js';
import { createJobs, type Jobs } from '../../../src/core/jobs/index.js';
import { createLogger } from '../../../src/core/logger.js';
import { OUTSIDE_MESSAGE } from '../../../src/core/tenancy/index.js';
import { notice, reply } from '../../../src/core/ui/index.js';
import {
  blockActionPayload,
  OAUTH_CLIENT,
  slashCommandBody,
  viewSubmissionPayload,
} from '../../fakes/slack-api.js';
import { type Block, buttonIds, sendEvent, sendForm, sendPayload, waitUntil } from './helpers.js';
import { ENCRYPTION_KEY, type ManyTeams, startManyTeams, TEAMS, textOf } from './many-teams.js';

let world: ManyTeams;
let jobs: Jobs | null = null;

beforeAll(async () => {
  world = await startManyTeams();
});

afterAll(async () => {
  await jobs?.stop();
  await world.stop();
});

const slackTenant = (workspaceId: string) => ({ platform: 'slack' as const, workspaceId });
const slackPerson = (workspaceId: string, userId: string) => ({ ...slackTenant(workspaceId), userId });

const inboundPolls = (key: string) =>
  world.sandbox.requests(key).filter((r) => r.query.direction === 'inbound').length;

describe('many-team Slack through Bolt’s OAuth', () => {
  it('refuses a callback whose state is missing, forged or not this browser’s, and stores nothing', async () => {
    const { location, state, cookie } = await world.startInstall();
    expect(location.searchParams.get('client_id')).toBe(OAUTH_CLIENT.clientId);
    expect(location.searchParams.get('scope')?.split(',')).toContain('commands');
    expect(state).not.toBe('');
    expect(cookie).toMatch(/^slack-app-oauth-state=/);

    const forged = 'forged-state';
    for (const [code, st, ck] of [
      [world.slack.grant({ id: 'TBAD1' }), state, null],
      [world.slack.grant({ id: 'TBAD2' }), forged, `slack-app-oauth-state=${forged}`],
      [world.slack.grant({ id: 'TBAD3' }), forged, cookie],
    ] as const) {
      const answer = await world.redirectBack(code, st, ck);
      expect(answer.status).toBeGreaterThanOrEqual(400);
    }
    expect(world.slack.calls.filter((c) => c.method === 'oauth.v2.access')).toHaveLength(0);
    for (const id of ['TBAD1', 'TBAD2', 'TBAD3'])
      expect(await world.app.store.tenants.slackInstallation(id)).toBeNull();
  });

  it('installs two workspaces, keeping each installation sealed', async () => {
    const tokens = [await world.install('T1'), await world.install('T2')];
    const exchange = world.slack.calls.find((c) => c.method === 'oauth.v2.access');
    expect(exchange?.args.client_secret).toBe(OAUTH_CLIENT.clientSecret);
    for (const team of ['T1', 'T2'] as const) {
      expect(await world.app.store.tenants.slackInstallation(team)).toMatch(/^v1:/);
      expect((await world.app.tenants.access(slackTenant(team))).status).toBe('not-connected');
    }
    const disk = world.onDisk();
    for (const token of tokens) expect(disk).not.toContain(token);
    expect(disk).not.toContain('xoxb-');
  });

  it('shows a Home without a balance until the workspace connects a key, published with its own token', async () => {
    await sendEvent(world.adapter.port, 'T1', {
      type: 'app_home_opened',
      user: 'U1HOME',
      channel: 'D1',
      tab: 'home',
    });
    const publish = await world.slack.waitFor(() =>
      world.slack.calls.find((c) => c.method === 'views.publish' && c.args.user_id === 'U1HOME'),
    );
    expect(publish.token).toBe(world.slack.issued.get('T1')?.at(-1));
    expect(JSON.stringify(publish.args.view)).toContain(
      'no account connected: an admin runs `/scout connect key`',
    );
  });

  it('connects each workspace’s own key through the private form, answering only the admin', async () => {
    for (const team of ['T1', 'T2'] as const) {
      const answer = await world.connectThroughForm(team);
      expect(answer.body.response_type).toBe('ephemeral');
      expect(textOf(answer)).toContain('Connected');
      expect(textOf(answer)).toContain(TEAMS[team].key.slice(-4));
      expect(textOf(answer)).not.toContain(TEAMS[team].key);
      expect((await world.app.tenants.access(slackTenant(team))).status).toBe('ok');
    }
  });

  it('takes a key form once, from its own person only, and keeps no key with it', async () => {
    const { admin, key } = TEAMS.T1;
    const responseUrl = world.slack.responseUrl('once-form');
    const opened = await world.openKeyForm({ responseUrl, teamId: 'T1', userId: admin });
    const metadata = opened.view.private_metadata;
    const formId = opened.id;
    let sent = 0;
    const submit = async (userId: string) => {
      sent += 1;
      const answerAt = `once-${sent}`;
      const submission = viewSubmissionPayload({
        callbackId: SECRET_MODAL,
        privateMetadata: JSON.stringify({
          ...JSON.parse(metadata),
          responseUrl: world.slack.responseUrl(answerAt),
        }),
        values: { 'secret.key': { value: { type: 'plain_text_input', value: key } } },
        teamId: 'T1',
        userId,
      });
      await sendPayload(world.adapter.port, submission);
      return textOf(await world.responseTo(answerAt));
    };
    const requests = world.sandbox.requests().length;
    // Another person of the workspace cannot submit the admin's form.
    expect(await submit('U1OTHER')).toContain('expired');
    expect(world.sandbox.requests()).toHaveLength(requests);
    expect(await submit(admin)).toContain('Connected');
    // A replayed submission finds the form used: nothing reaches the service.
    const checks = world.sandbox.requests().length;
    expect(await submit(admin)).toContain('expired');
    expect(world.sandbox.requests()).toHaveLength(checks);
    const stored = await world.app.store.actions.lookup(
      formId,
      slackPerson('T1', admin),
      world.app.clock.now(),
    );
    expect(stored.status).toBe('used');
    expect(JSON.stringify(stored.status === 'used' ? stored.record.payload : null)).not.toContain(key);
  });

  it('keeps a key form as long as its answer can go back through the response_url', async () => {
    const { admin } = TEAMS.T1;
    const opened = await world.openKeyForm({
      responseUrl: world.slack.responseUrl('ttl-form'),
      teamId: 'T1',
      userId: admin,
    });
    const at = (minutes: number) => new Date(world.app.clock.now().getTime() + minutes * 60_000);
    const lookup = (minutes: number) =>
      world.app.store.actions.lookup(opened.id, slackPerson('T1', admin), at(minutes));
    expect((await lookup(28)).status).toBe('ok');
    expect((await lookup(30)).status).toBe('expired');
  });

  it('answers a key form that names no stored form as expired, privately, instead of dropping it', async () => {
    const { admin, key } = TEAMS.T1;
    const requests = world.sandbox.requests().length;
    const submission = viewSubmissionPayload({
      callbackId: SECRET_MODAL,
      privateMetadata: JSON.stringify({
        family: 'connect',
        command: 'key',
        given: {},
        fields: ['key'],
        channelId: 'C1',
        responseUrl: world.slack.responseUrl('idless-form'),
      }),
      values: { 'secret.key': { value: { type: 'plain_text_input', value: key } } },
      teamId: 'T1',
      userId: admin,
    });
    await sendPayload(world.adapter.port, submission);
    const answer = await world.responseTo('idless-form');
    expect(textOf(answer)).toContain('expired');
    expect(answer.body.response_type).toBe('ephemeral');
    expect(world.sandbox.requests()).toHaveLength(requests);
  });

  it('refuses a person of another organisation in a shared channel: no key form, no submission', async () => {
    const requests = world.sandbox.requests().length;
    const calls = world.slack.calls.length;
    const form = {
      ...slashCommandBody({
        text: 'connect key',
        responseUrl: world.slack.responseUrl('guest-form'),
        teamId: 'T1',
      }),
      user_id: 'UGUEST',
      user_team: 'TGUEST',
    };
    await sendForm(world.adapter.port, form);
    expect(textOf(await world.responseTo('guest-form'))).toContain(OUTSIDE_MESSAGE);
    const submission = {
      ...viewSubmissionPayload({
        callbackId: SECRET_MODAL,
        privateMetadata: JSON.stringify({
          id: 'scout.secret:AAAAAAAAAAAAAAAA',
          channelId: 'CT1GENERAL',
          responseUrl: world.slack.responseUrl('guest-submit'),
        }),
        values: { 'secret.key': { value: { type: 'plain_text_input', value: 'guest-typed-key-0001' } } },
        teamId: 'T1',
        userId: 'UGUEST',
      }),
      user: { id: 'UGUEST', username: 'guest', name: 'guest', team_id: 'TGUEST' },
    };
    await sendPayload(world.adapter.port, submission);
    expect(textOf(await world.responseTo('guest-submit'))).toContain(OUTSIDE_MESSAGE);
    expect(world.slack.calls.slice(calls).map((c) => c.method)).toEqual([]);
    expect(world.sandbox.requests()).toHaveLength(requests);
    expect(await world.app.store.tenants.account(slackTenant('TGUEST'))).toBeNull();
  });

  it('shows each workspace only its own lists, spend and subscriptions', async () => {
    for (const team of ['T1', 'T2'] as const) {
      await world.app.accounts.forKey(TEAMS[team].key).service.crm.createList({ name: TEAMS[team].list });
    }
    const lists = {
      T1: textOf(await world.slash('T1', 'lists')),
      T2: textOf(await world.slash('T2', 'lists')),
    };
    expect(lists.T1).toContain(TEAMS.T1.list);
    expect(lists.T1).not.toContain(TEAMS.T2.list);
    expect(lists.T2).toContain(TEAMS.T2.list);
    expect(lists.T2).not.toContain(TEAMS.T1.list);

    const bought = textOf(await world.slash('T1', 'creators profiles category:Fitness perPage:3'));
    expect(bought).not.toContain('This will cost');
    const credits = {
      T1: textOf(await world.slash('T1', 'credits')),
      T2: textOf(await world.slash('T2', 'credits')),
    };
    expect(credits.T1).toContain(TEAMS.T1.admin);
    expect(credits.T2).not.toContain(TEAMS.T1.admin);
    expect(credits.T2).toContain('No spend yet');
    expect(credits.T2).toContain(`${TEAMS.T2.credits} credits`);

    await world.slash('T1', 'notify', { channelId: 'C1REPLIES' });
    await world.slash('T2', 'notify', { channelId: 'C2REPLIES' });
    const subscribed = {
      T1: textOf(await world.slash('T1', 'notify list')),
      T2: textOf(await world.slash('T2', 'notify list')),
    };
    expect(subscribed.T1).toContain('C1REPLIES');
    expect(subscribed.T1).not.toContain('C2REPLIES');
    expect(subscribed.T2).toContain('C2REPLIES');
    expect(subscribed.T2).not.toContain('C1REPLIES');
  });

  it('posts background messages with the bot token of the channel’s own workspace', async () => {
    for (const team of ['T1', 'T2'] as const) {
      const channel = { platform: 'slack' as const, workspaceId: team, channelId: `C${team}POSTS` };
      await world.adapter.outbound.post(channel, reply([notice('info', `Hello ${team}`)]));
      const post = world.slack.calls.findLast(
        (c) => c.method === 'chat.postMessage' && c.args.channel === channel.channelId,
      );
      expect(post?.token).toBe(world.slack.issued.get(team)?.at(-1));
    }
  });

  it('answers a button of one workspace pressed in the other like an expired one, with no service request', async () => {
    const cards = await world.slash('T1', 'creators followers:10k-100k niche:yoga');
    const [next] = buttonIds((cards.body.blocks ?? []) as Block[], 'Next');
    expect(next).toBeDefined();
    const requests = world.sandbox.requests().length;
    const press = blockActionPayload({
      actionId: next as string,
      responseUrl: world.slack.responseUrl('cross-press'),
      teamId: 'T2',
      userId: TEAMS.T2.admin,
    });
    await sendPayload(world.adapter.port, press);
    const answer = await world.responseTo('cross-press');
    expect(textOf(answer)).toContain('This button no longer works');
    expect(world.sandbox.requests()).toHaveLength(requests);
  });

  it('forgets a workspace that uninstalls: installation, key and subscriptions; the poller stops reading its key', async () => {
    jobs = createJobs({
      app: world.app,
      outbound: new Map([['slack', world.adapter.outbound]]),
      logger: createLogger({ level: 'silent' }),
      pollIntervalMs: 20,
      digestCheckMs: 60_000,
    });
    await jobs.start();
    const polled = { T1: inboundPolls(TEAMS.T1.key), T2: inboundPolls(TEAMS.T2.key) };
    await world.slack.waitFor(
      () => inboundPolls(TEAMS.T1.key) > polled.T1 && inboundPolls(TEAMS.T2.key) > polled.T2,
    );

    expect((await sendEvent(world.adapter.port, 'T1', { type: 'app_uninstalled' })).status).toBe(200);
    await waitUntil(async () => (await world.app.store.tenants.slackInstallation('T1')) === null);
    expect(await world.app.store.tenants.account(slackTenant('T1'))).toBeNull();
    expect((await world.app.store.subscriptions.active()).map((s) => s.workspaceId)).toEqual(['T2']);
    expect(await world.app.store.tenants.slackInstallation('T2')).not.toBeNull();

    // A poll of T1's key already under way may finish; none starts after it.
    const after = { T1: inboundPolls(TEAMS.T1.key), T2: inboundPolls(TEAMS.T2.key) };
    await world.slack.waitFor(() => inboundPolls(TEAMS.T2.key) >= after.T2 + 3);
    expect(inboundPolls(TEAMS.T1.key)).toBeLessThanOrEqual(after.T1 + 1);
    await expect(
      world.adapter.outbound.post(
        { platform: 'slack', workspaceId: 'T1', channelId: 'CT1POSTS' },
        reply([notice('info', 'x')]),
      ),
    ).rejects.toThrow(/not installed/);
  });

  it('refreshes a rotating token before it expires, and posts with the new one', async () => {
    await world.install('T3', { rotate: true });
    const first = world.slack.issued.get('T3')?.at(-1);
    await world.adapter.outbound.post(
      { platform: 'slack', workspaceId: 'T3', channelId: 'CT3' },
      reply([notice('info', 'hi')]),
    );
    const refreshed = world.slack.issued.get('T3')?.at(-1);
    expect(refreshed).not.toBe(first);
    const post = world.slack.calls.findLast(
      (c) => c.method === 'chat.postMessage' && c.args.channel === 'CT3',
    );
    expect(post?.token).toBe(refreshed);
    expect(world.onDisk()).not.toContain(refreshed);
  });

  it('forgets a workspace whose bot token is revoked; revoked person tokens change nothing', async () => {
    const revoked = (tokens: Record<string, string[]>) =>
      sendEvent(world.adapter.port, 'T3', { type: 'tokens_revoked', tokens });
    await revoked({ oauth: ['U0ADMIN'] });
    // A command answered afterwards: the revocation before it has been handled by then.
    expect(textOf(await world.slash('T3', 'help', { userId: 'U3MEMBER' }))).toContain('/scout');
    expect(await world.app.store.tenants.slackInstallation('T3')).not.toBeNull();
    await revoked({ bot: ['UBOT'] });
    await waitUntil(async () => (await world.app.store.tenants.slackInstallation('T3')) === null);
    expect(await world.app.store.tenants.slackInstallation('T2')).not.toBeNull();
  });

  it('ignores an uninstall or a revocation Slack delivers late, after a reinstall; a current one removes it', async () => {
    await world.install('T2');
    const reinstalled = Math.floor(Date.now() / 1000);
    const ignored = () => world.logged.filter((line) => line.includes('older than the installation')).length;
    const late = { eventTime: reinstalled - 600 };
    await sendEvent(world.adapter.port, 'T2', { type: 'app_uninstalled' }, late);
    await world.slack.waitFor(() => ignored() === 1);
    await sendEvent(world.adapter.port, 'T2', { type: 'tokens_revoked', tokens: { bot: ['UBOT'] } }, late);
    await world.slack.waitFor(() => ignored() === 2);
    expect(await world.app.store.tenants.slackInstallation('T2')).not.toBeNull();
    expect(await world.app.store.tenants.account(slackTenant('T2'))).not.toBeNull();
    expect(textOf(await world.slash('T2', 'lists'))).toContain(TEAMS.T2.list);

    await sendEvent(world.adapter.port, 'T2', { type: 'app_uninstalled' });
    await waitUntil(async () => (await world.app.store.tenants.slackInstallation('T2')) === null);
    expect(await world.app.store.tenants.account(slackTenant('T2'))).toBeNull();
  });

  it('never logs a key typed in the form or a token, nor keeps one in clear on disk', () => {
    const log = world.logged.join('');
    expect(log.length).toBeGreaterThan(0);
    const tokens = [...world.slack.issued.values()].flat();
    for (const secret of [TEAMS.T1.key, TEAMS.T2.key, ...tokens, OAUTH_CLIENT.clientSecret, ENCRYPTION_KEY]) {
      expect(log).not.toContain(secret);
    }
    const disk = world.onDisk();
    for (const secret of [TEAMS.T1.key, TEAMS.T2.key, ...tokens]) expect(disk).not.toContain(secret);
  });
});
