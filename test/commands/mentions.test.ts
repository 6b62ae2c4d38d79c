/**
 * Replies that name a person mention them: the cap set or removed, the admins added, removed and listed, who
 * connected the key, who spent what and who scheduled a digest. Through the terminal they read `@id`; for Slack and
 * Discord people the reply model carries a mention span with the id the command resolved, never the id as text.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type App, createApp } from '../../src/app.js';
import { FAMILIES } from '../../src/commands/index.js';
import type { Actor } from '../../src/core/actor.js';
import { createLogger } from '../../src/core/logger.js';
import { tenantOf } from '../../src/core/tenancy/index.js';
import type { MentionSpan, Reply, Span } from '../../src/core/ui/index.js';
import { createSandbox, DEMO_KEY, type Sandbox } from '../../src/sandbox/index.js';
import { type Harness, startHarness } from '../helpers/harness.js';

describe('through the terminal', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.stop();
  });

  it('names whose cap was set and removed as @person', async () => {
    expect(await h.type('credits cap @bob 6')).toContain('Done: The daily cap of @bob is now 6 credits.');
    expect(await h.type('credits cap bob off')).toContain('Done: The daily cap of @bob is removed.');
    expect(await h.type('credits cap everyone 500')).toContain('Everyone’s default daily cap is now 500');
  });

  it('takes @here and @channel typed as text for nobody, not a person of that name', async () => {
    for (const who of ['@here', '@channel', '@HERE']) {
      expect(await h.type(`credits cap ${who} 7`)).toContain(`"${who}" is not a person`);
      expect(await h.type(`admins add ${who}`)).toContain(`"${who}" is not a person`);
    }
  });

  it('names the admins added, listed and removed as @person', async () => {
    expect(await h.type('admins add @bob')).toContain('Done: @bob is now a Scout admin.');
    expect(await h.type('admins add bob')).toContain('Done: @bob already is a Scout admin.');
    expect(await h.type('admins add @ana')).toContain('@ana is now a Scout admin.');
    expect(await h.type('admins')).toMatch(/Scout admins: (@bob, @ana|@ana, @bob)\./);
    expect(await h.type('admins remove @bob')).toContain('Done: @bob is no longer a Scout admin.');
    expect(await h.type('admins remove @nobody')).toContain('Info: @nobody was not a Scout admin.');
  });

  it('names who spent what and who scheduled a digest', async () => {
    await h.type('creators category:Fitness');
    expect(await h.type('credits')).toMatch(/^@me +\d+ +1$/m);
    await h.type('digest 09:00 Europe/Paris categories:Food');
    expect(await h.type('digest list')).toMatch(/· by @me ·/);
  });
});

/** The spans of a reply's text and notices. */
const spansOf = (answer: Reply): Span[] =>
  answer.nodes.flatMap((node) => (node.type === 'text' || node.type === 'notice' ? node.spans : []));

const mentions = (answer: Reply): string[] =>
  spansOf(answer)
    .filter((span): span is MentionSpan => span.kind === 'mention')
    .map((span) => span.userId);

/** The text of every span but mentions: where an id must not appear as text. */
const literalText = (answer: Reply): string =>
  spansOf(answer)
    .map((span) => (span.kind === 'mention' ? '' : span.kind === 'link' ? span.label : span.text))
    .join('');

describe('for Slack and Discord people', () => {
  let sandbox: Sandbox;
  let app: App;
  const slackAdmin: Actor = { platform: 'slack', workspaceId: 'T1', userId: 'UA1', isAdmin: true };
  const discordAdmin: Actor = {
    platform: 'discord',
    workspaceId: '300000000000000001',
    userId: '200000000000000001',
    isAdmin: true,
  };
  const run = (actor: Actor, line: string) => app.dispatcher.text({ actor, channelId: 'C1', text: line });

  beforeAll(async () => {
    sandbox = createSandbox({ replyIntervalMs: 0, remixDelayMs: 0 });
    await sandbox.start();
    app = await createApp({
      service: {
        baseUrl: sandbox.url,
        mediaUrl: sandbox.mediaUrl,
        retry: { maxAttempts: 2, baseDelayMs: 5, maxDelayMs: 20 },
      },
      tenancy: { kind: 'multi', encryptionKey: 'test-encryption-secret-0123456789abcdef' },
      databasePath: ':memory:',
      logger: createLogger({ level: 'silent' }),
      families: FAMILIES,
    });
    app.tenants.serve(tenantOf(slackAdmin));
    app.tenants.serve(tenantOf(discordAdmin));
  });
  afterAll(async () => {
    await app.stop();
    await sandbox.stop();
  });

  it.each([
    ['Slack', slackAdmin, '<@U0BOB>', 'U0BOB'],
    ['Slack (bare id)', slackAdmin, 'W0BOB', 'W0BOB'],
    ['Discord', discordAdmin, '<@!200000000000000042>', '200000000000000042'],
  ])('mentions whose cap was set and removed (%s)', async (_name, actor, typed, id) => {
    const set = await run(actor, `credits cap ${typed} 6`);
    expect(mentions(set)).toEqual([id]);
    expect(literalText(set)).toBe('The daily cap of  is now 6 credits.');
    expect(set.visibility).toBe('channel');
    const removed = await run(actor, `credits cap ${typed} off`);
    expect(mentions(removed)).toEqual([id]);
    expect(literalText(removed)).not.toContain(id);
  });

  it('mentions the admins added, listed and removed', async () => {
    expect(mentions(await run(slackAdmin, 'admins add <@U0BOB>'))).toEqual(['U0BOB']);
    expect(mentions(await run(slackAdmin, 'admins add <@U0ANA>'))).toEqual(['U0ANA']);
    const listed = await run(slackAdmin, 'admins');
    expect(mentions(listed).sort()).toEqual(['U0ANA', 'U0BOB']);
    expect(literalText(listed)).toContain('Scout admins: , .');
    const removed = await run(slackAdmin, 'admins remove <@U0BOB>');
    expect(mentions(removed)).toEqual(['U0BOB']);
    expect(literalText(removed)).not.toContain('U0BOB');
  });

  it('mentions who connected the service key', async () => {
    await run(slackAdmin, `connect key ${DEMO_KEY}`);
    const shown = await run({ ...slackAdmin, userId: 'U0MEMBER', isAdmin: false }, 'connect');
    expect(mentions(shown)).toEqual(['UA1']);
    expect(literalText(shown)).not.toContain('UA1');
  });
});
