/**
 * Tenancy through the real dispatcher, the sandbox over HTTP and SQLite on disk: who gets in, which account each
 * tenant uses, what stays apart, and where keys never appear.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { type App, createApp } from '../../../src/app.js';
import { FAMILIES } from '../../../src/commands/index.js';
import type { Actor } from '../../../src/core/actor.js';
import { createLogger } from '../../../src/core/logger.js';
import { sql } from '../../../src/core/store/sql.js';
import { renderText } from '../../../src/core/ui/index.js';
import { createSandbox, DEMO_KEY, DEMO_KEY_2, type Sandbox } from '../../../src/sandbox/index.js';

const ENCRYPTION_KEY = 'test-encryption-secret-0123456789abcdef';

interface World {
  sandbox: Sandbox;
  app: App;
  dir: string;
  logs: string[];
  /** Runs a command line as `actor` and returns the reply as text. */
  run(actor: Actor, line: string): Promise<string>;
  /** Presses a token as `actor`. */
  press(actor: Actor, token: string): Promise<string>;
  stop(): Promise<void>;
}

const person = (
  platform: Actor['platform'],
  workspaceId: string,
  userId: string,
  isAdmin = false,
): Actor => ({
  platform,
  workspaceId,
  userId,
  isAdmin,
});

let world: World | null = null;

async function start(
  tenancy: 'single' | 'multi',
  rateLimit?: { perWindow: number; windowMs: number },
): Promise<World> {
  const sandbox = createSandbox({ replyIntervalMs: 0, remixDelayMs: 0 });
  await sandbox.start();
  const dir = mkdtempSync(join(tmpdir(), 'scout-tenancy-'));
  const logs: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      logs.push(String(chunk));
      done();
    },
  });
  const secrets = new Set<string>();
  const app = await createApp({
    service: {
      ...(tenancy === 'single' ? { apiKey: DEMO_KEY } : {}),
      baseUrl: sandbox.url,
      mediaUrl: sandbox.mediaUrl,
      retry: { maxAttempts: 2, baseDelayMs: 5, maxDelayMs: 20 },
      ...(rateLimit === undefined ? {} : { rateLimit }),
    },
    tenancy: tenancy === 'multi' ? { kind: 'multi', encryptionKey: ENCRYPTION_KEY } : { kind: 'single' },
    secrets,
    databasePath: join(dir, 'scout.db'),
    logger: createLogger({ level: 'trace', secrets, destination: sink }),
    families: FAMILIES,
  });
  const text = (reply: Parameters<typeof renderText>[0]) => renderText(reply).text;
  world = {
    sandbox,
    app,
    dir,
    logs,
    run: async (actor, line) => text(await app.dispatcher.text({ actor, channelId: 'C1', text: line })),
    press: async (actor, token) => text(await app.dispatcher.action({ actor, channelId: 'C1', token })),
    async stop() {
      await app.stop();
      await sandbox.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return world;
}

afterEach(async () => {
  await world?.stop();
  world = null;
});

/** Every byte of the database files (the WAL holds recent writes). */
function databaseBytes(dir: string): string {
  return readdirSync(dir)
    .map((name) => readFileSync(join(dir, name)).toString('latin1'))
    .join('\n');
}

describe('single-team mode', () => {
  it('serves the terminal and the tenants the adapters name, and refuses anyone else before any request', async () => {
    const w = await start('single');
    const local = person('terminal', 'local', 'me', true);
    const stranger = person('discord', '999999999999999999', 'U9', true);
    expect(await w.run(local, 'lists')).toContain('Spring Skincare Launch');
    const before = w.sandbox.requests().length;
    for (const line of ['lists', 'creators category:Fitness', 'outreach messages', 'credits', 'help']) {
      const answer = await w.run(stranger, line);
      expect(answer).toContain('Scout is not available here.');
      expect(answer).not.toMatch(/Spring|credits|Fitness/i);
    }
    expect(w.sandbox.requests().length).toBe(before);

    w.app.tenants.serve({ platform: 'slack', workspaceId: 'T1' });
    const ana = person('slack', 'T1', 'U1');
    expect(await w.run(ana, 'lists')).toContain('Spring Skincare Launch');
  });

  it('answers a button of another tenant as an expired one, at no cost', async () => {
    const w = await start('single');
    w.app.tenants.serve({ platform: 'slack', workspaceId: 'T1' });
    w.app.tenants.serve({ platform: 'slack', workspaceId: 'T2' });
    const ana = person('slack', 'T1', 'U1');
    const reply = await w.app.dispatcher.text({
      actor: ana,
      channelId: 'C1',
      text: 'creators category:Fitness',
    });
    const next = renderText(reply).actions.find((a) => a.label.toLowerCase() === 'next');
    expect(next).toBeDefined();
    const before = w.sandbox.requests().length;
    const spent = await w.app.store.ledger.spent(person('slack', 'T2', 'U2'), {
      from: new Date(0),
      to: new Date(8.64e15),
    });
    expect(await w.press(person('slack', 'T2', 'U2'), next?.actionId as string)).toContain(
      'This button no longer works',
    );
    expect(await w.press(person('discord', '999999999999999999', 'U9'), next?.actionId as string)).toContain(
      'Scout is not available here.',
    );
    expect(w.sandbox.requests().length).toBe(before);
    expect(spent).toBe(0);
    // Still good where it was made.
    expect(await w.press(ana, next?.actionId as string)).not.toContain('no longer works');
  });

  it('refuses connecting keys in chat: the deployment sets the one key', async () => {
    const w = await start('single');
    const local = person('terminal', 'local', 'me', true);
    expect(await w.run(local, `connect key ${DEMO_KEY_2}`)).toContain('serves one team');
    expect(await w.run(local, 'connect')).toContain('…-key');
    expect(await w.run(local, 'connect key')).toContain('serves one team');
    // No private form for a key that cannot be connected here.
    expect(w.app.dispatcher.secretsNeeded('connect key')).toBeNull();
  });
});

describe('many-team mode', () => {
  const admin1 = person('slack', 'T1', 'UA1', true);
  const member1 = person('slack', 'T1', 'UM1');
  const admin2 = person('slack', 'T2', 'UA2', true);

  it('does nothing for a tenant without a key but say whom to ask, and sends nothing', async () => {
    const w = await start('multi');
    expect(w.app.dispatcher.secretsNeeded('/scout connect key')).toEqual({
      family: 'connect',
      command: 'key',
      line: '/scout connect key',
      given: {},
      fields: [{ name: 'key', label: 'The API key of the service.' }],
    });
    expect(w.app.dispatcher.secretsNeeded(`connect key ${DEMO_KEY}`)).toBeNull();
    expect(w.app.dispatcher.secretsNeeded('lists')).toBeNull();
    expect(await w.run(member1, 'lists')).toContain('Ask an admin to run /scout connect');
    expect(await w.run(admin1, 'songs countries')).toContain('Run /scout connect');
    expect(await w.run(member1, 'help')).toContain('/scout creators');
    expect(await w.run(member1, 'connect')).toContain('Ask an admin');
    expect(await w.run(member1, `connect key ${DEMO_KEY}`)).toContain(
      'needs a Slack workspace or org admin or owner',
    );
    expect(w.sandbox.requests()).toEqual([]);
    expect(await w.app.store.tenants.account({ platform: 'slack', workspaceId: 'T1' })).toBeNull();
  });

  it('checks a key with a free call, stores nothing for a bad one, and keeps each tenant to its own account', async () => {
    const w = await start('multi');
    expect(await w.run(admin1, 'connect key not-a-real-key-000')).toContain('did not accept this key');
    expect(await w.app.store.tenants.account({ platform: 'slack', workspaceId: 'T1' })).toBeNull();

    expect(await w.run(admin1, `connect key ${DEMO_KEY}`)).toContain('Connected: account …-key');
    expect(await w.run(admin2, `connect key ${DEMO_KEY_2}`)).toContain('Connected: account …ey-2');
    const shown = await w.run(member1, 'connect');
    expect(shown).toContain('…-key');
    expect(shown).toContain('Connected by @UA1');
    expect(shown).toMatch(/\d+ credits/);

    // Each tenant's own CRM: a list made in one is not seen in the other.
    expect(await w.run(admin1, 'lists create "Only in T1"')).toContain('Only in T1');
    expect(await w.run(admin2, 'lists')).not.toContain('Only in T1');
    expect(await w.run(member1, 'lists')).toContain('Only in T1');

    // Spend goes to the tenant's own key and ledger.
    const credits1 = w.sandbox.credits(DEMO_KEY);
    const credits2 = w.sandbox.credits(DEMO_KEY_2);
    await w.run(member1, 'songs countries');
    expect(w.sandbox.credits(DEMO_KEY)).toBe(credits1 - 10);
    expect(w.sandbox.credits(DEMO_KEY_2)).toBe(credits2);
    expect(await w.run(member1, 'credits')).toContain('10 credits');
    expect(await w.run(admin2, 'credits')).not.toContain('UM1');

    // A profile bought by one team is bought again by the other: never served free across accounts.
    const access = await w.app.tenants.access({ platform: 'slack', workspaceId: 'T1' });
    if (access.status !== 'ok') throw new Error('T1 should be connected');
    const id = (await access.account.service.creators.search({ perPage: 1 })).data.items[0] as string;
    await w.run(member1, `creators show ${id}`);
    const afterFirst = w.sandbox.credits(DEMO_KEY_2);
    await w.run(admin2, `creators show ${id}`);
    expect(w.sandbox.credits(DEMO_KEY_2)).toBe(afterFirst - 1);
    const before = w.sandbox.credits(DEMO_KEY);
    await w.run(member1, `creators show ${id}`);
    expect(w.sandbox.credits(DEMO_KEY)).toBe(before);

    // Disconnecting stops the tenant; the other goes on.
    expect(await w.run(member1, 'disconnect')).toContain('needs a Slack workspace or org admin');
    expect(await w.run(admin1, 'disconnect')).toContain('Disconnected');
    expect((await w.app.tenants.access({ platform: 'slack', workspaceId: 'T1' })).status).toBe(
      'not-connected',
    );
    expect(await w.run(member1, 'lists')).toContain('Ask an admin');
    expect(await w.run(admin2, 'lists')).toContain('Spring Skincare Launch');
  });

  it('keeps keys out of the logs, even at trace level, and out of the database file in clear', async () => {
    const w = await start('multi');
    await w.run(admin1, `connect key ${DEMO_KEY}`);
    await w.run(admin2, `connect key ${DEMO_KEY_2}`);
    await w.run(member1, 'lists');
    await w.run(member1, 'songs countries');
    await w.run(admin1, 'connect key not-a-real-key-000');
    await w.app.store.db.one(sql`PRAGMA wal_checkpoint(PASSIVE)`);
    const bytes = databaseBytes(w.dir);
    expect(bytes).toContain('tenant_accounts');
    for (const key of [DEMO_KEY, DEMO_KEY_2, 'not-a-real-key-000']) {
      expect(bytes).not.toContain(key);
      expect(w.logs.join('')).not.toContain(key);
    }
    expect(w.logs.length).toBeGreaterThan(0);
  });

  it('lets admins name Scout admins, who may then do admin work', async () => {
    const w = await start('multi');
    await w.run(admin1, `connect key ${DEMO_KEY}`);
    expect(await w.run(member1, 'credits cap <@UM2> 5')).toContain(
      'needs a Slack workspace or org admin or owner',
    );
    expect(await w.run(member1, 'admins add <@UM1>')).toContain(
      'needs a Slack workspace or org admin or owner',
    );
    expect(await w.run(admin1, 'admins add <@UM1>')).toContain('@UM1 is now a Scout admin');
    expect(await w.run(member1, 'admins')).toContain('@UM1');
    expect(await w.run(member1, 'credits cap <@UM2> 5')).toContain('is now 5 credits');
    // Scout admins of one workspace are nobody in another.
    expect(await w.run(person('slack', 'T2', 'UM1'), 'admins add <@UX>')).toContain('needs');
    expect(await w.run(admin1, 'admins remove <@UM1>')).toContain('no longer a Scout admin');
    expect(await w.run(member1, 'credits cap <@UM2> 6')).toContain('needs');
  });

  it('keeps one tenant’s exhausted allowance from slowing another’s commands', async () => {
    const w = await start('multi', { perWindow: 4, windowMs: 60_000 });
    await w.run(admin1, `connect key ${DEMO_KEY}`);
    await w.run(admin2, `connect key ${DEMO_KEY_2}`);
    const t1 = await w.app.tenants.access({ platform: 'slack', workspaceId: 'T1' });
    if (t1.status !== 'ok') throw new Error('T1 should be connected');
    // T1 queues far more than its window allows: the rest wait a minute for its window.
    let settled = 0;
    const count = () => {
      settled += 1;
    };
    // Those still queued when the app stops are dropped: counted as settled either way.
    const flood = Array.from({ length: 8 }, () =>
      t1.account.service.creators.search({ perPage: 1 }).then(count, count),
    );
    const answer = await w.run(admin2, 'lists');
    expect(answer).toContain('Spring Skincare Launch');
    expect(settled).toBeLessThan(8);
    await w.stop();
    world = null;
    await Promise.allSettled(flood);
  });
});

describe('many-team mode under attack', () => {
  const admin1 = person('slack', 'T1', 'UA1', true);
  const admin1b = person('slack', 'T1', 'UA9', true);
  const t1 = { platform: 'slack', workspaceId: 'T1' } as const;

  it('runs an undo and a redo within the repeat window for real, whoever made the change in between', async () => {
    const w = await start('multi');
    expect(await w.run(admin1, `connect key ${DEMO_KEY}`)).toContain('Connected');
    expect(await w.run(admin1, 'disconnect')).toContain('Disconnected');
    expect(await w.run(admin1, `connect key ${DEMO_KEY_2}`)).toContain('Connected');
    expect(await w.run(admin1, 'disconnect')).toContain('Disconnected');
    expect(await w.app.store.tenants.account(t1)).toBeNull();
    expect(await w.run(admin1, `connect key ${DEMO_KEY}`)).toContain('Connected');
    expect(await w.app.store.tenants.account(t1)).not.toBeNull();
    // Another admin undoes it; the first admin's repeat is a new change, not an old answer.
    expect(await w.run(admin1b, 'disconnect')).toContain('Disconnected');
    expect(await w.run(admin1, `connect key ${DEMO_KEY}`)).toContain('Connected');
    expect(await w.app.store.tenants.account(t1)).not.toBeNull();

    await w.run(admin1, 'admins add <@U9>');
    await w.run(admin1, 'admins remove <@U9>');
    await w.run(admin1, 'admins add <@U9>');
    expect(await w.run(admin1, 'admins remove <@U9>')).toContain('no longer a Scout admin');
    expect(await w.app.store.tenants.isAdmin(t1, 'U9')).toBe(false);
    // A true duplicate (the same change twice in a row) is still answered once.
    await w.run(admin1, 'admins add <@U8>');
    expect(await w.run(admin1, 'admins add <@U8>')).toContain('is now a Scout admin');
    expect((await w.app.store.tenants.admins(t1)).map((a) => a.userId)).toEqual(['U8']);
  });

  it('keeps a person’s repeat answered once when someone else changes something else in between', async () => {
    const w = await start('multi');
    await w.run(admin1, `connect key ${DEMO_KEY}`);
    const ana = person('slack', 'T1', 'UANA');
    expect(await w.run(ana, 'digest 09:00 country:Japan')).toContain('scheduled');
    expect(await w.run(admin1b, 'admins add <@UBOB>')).toContain('is now a Scout admin');
    expect(await w.run(ana, 'digest 09:00 country:Japan')).toContain('scheduled');
    expect(await w.app.store.digests.list(t1)).toHaveLength(1);
  });

  it('leaves nothing of a rejected key behind and limits attempts, each of which is a request', async () => {
    const w = await start('multi');
    // Strings a hostile admin might type to blank out log lines: rejected, so never masked.
    const bogus = ['creators.search', 'Service.account', 'not-a-real-key-000', 'still-wrong-key-1'];
    for (const key of bogus) {
      expect(await w.run(admin1, `connect key ${key}`)).toContain('did not accept this key');
    }
    for (const key of bogus) expect(w.app.secrets.has(key)).toBe(false);
    expect(await w.run(admin1, `connect key ${DEMO_KEY}`)).toContain('Connected');
    expect(w.app.secrets.has(DEMO_KEY)).toBe(true);
    const requests = w.sandbox.requests().length;
    expect(await w.run(admin1, 'connect key one-more-wrong-key')).toContain('Too many attempts');
    expect(w.sandbox.requests().length).toBe(requests);
    // Odd characters are bad input, not a network failure; nothing is sent.
    const before = w.sandbox.requests().length;
    const other = person('slack', 'T3', 'UA3', true);
    expect(await w.run(other, 'connect key ключ-ключ-ключ')).toContain('no spaces');
    expect(w.sandbox.requests().length).toBe(before);
  });

  it('stores no key for a workspace that left while its key was being checked', async () => {
    const w = await start('multi');
    const connecting = w.app.tenants.connect(t1, DEMO_KEY, 'UA1');
    const refused = expect(connecting).rejects.toThrow('removed from this workspace');
    await w.app.tenants.leave(t1);
    await refused;
    expect(await w.app.store.tenants.account(t1)).toBeNull();
    // Installed again, it connects as usual.
    expect(await w.run(admin1, `connect key ${DEMO_KEY}`)).toContain('Connected');
  });

  it('starts notifications from now when the key changes, dropping what the old account queued', async () => {
    const w = await start('multi');
    await w.run(admin1, `connect key ${DEMO_KEY}`);
    await w.run(admin1, 'notify');
    const [subscription] = await w.app.store.subscriptions.list(t1);
    if (subscription === undefined) throw new Error('subscribed');
    await w.app.store.subscriptions.recordPoll(
      'old-account',
      1,
      [
        {
          messageId: 'm1',
          threadId: null,
          messageAt: null,
          message: { id: 'm1' },
          subscriptions: [subscription],
        },
      ],
      new Date(),
    );
    expect(await w.app.store.outbox.unposted('reply')).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, 5));
    await w.run(admin1, `connect key ${DEMO_KEY_2}`);
    expect(await w.app.store.outbox.unposted('reply')).toHaveLength(0);
    const [restarted] = await w.app.store.subscriptions.list(t1);
    expect(restarted?.createdAt.getTime()).toBeGreaterThan(subscription.createdAt.getTime());
  });

  it('says so when a stored key cannot be read, once in the log, and lets the tenant tidy up without a key', async () => {
    const w = await start('multi');
    await w.run(admin1, `connect key ${DEMO_KEY}`);
    await w.run(admin1, 'notify');
    // A sealed value copied from another tenant's row does not open for this one.
    await w.run(person('slack', 'T2', 'UA2', true), `connect key ${DEMO_KEY_2}`);
    const t2Row = await w.app.store.tenants.account({ platform: 'slack', workspaceId: 'T2' });
    const t1Row = await w.app.store.tenants.account(t1);
    if (t1Row === null || t2Row === null) throw new Error('both connected');
    await w.app.store.tenants.putAccount({ ...t1Row, keySealed: t2Row.keySealed });
    const member = person('slack', 'T1', 'UM1');
    expect(await w.run(member, 'lists')).toContain('can no longer be read');
    expect(await w.run(admin1, 'lists')).toContain('Run /scout connect key');
    expect(await w.run(admin1, 'connect')).toContain('can no longer be read');
    await w.run(member, 'lists');
    const opened = w.logs.filter((line) => line.includes('could not be opened'));
    expect(opened).toHaveLength(1);
    expect(w.sandbox.requests(DEMO_KEY_2).some((r) => r.path.includes('/crm/'))).toBe(false);
    // Tidying up needs no key.
    expect(await w.run(admin1, 'notify list')).toContain('Reply notifications');
    expect(await w.run(admin1, 'notify off')).toContain('stopped');
    expect(await w.run(admin1, 'digest list')).not.toContain('connect');
  });

  it('takes only people as admins and capped persons', async () => {
    const w = await start('multi');
    await w.run(admin1, `connect key ${DEMO_KEY}`);
    for (const who of ['<@&999>', '@here', 'ana', '*', `"${'x'.repeat(90)}"`]) {
      expect(await w.run(admin1, `admins add ${who}`)).toContain('is not a person');
    }
    expect(await w.run(admin1, 'credits cap <@&999> 0')).toContain('is not a person');
    expect(await w.run(admin1, 'credits cap @everyone 0')).toContain('Everyone’s default daily cap is now 0');
    expect(await w.app.store.tenants.admins(t1)).toEqual([]);
  });
});
