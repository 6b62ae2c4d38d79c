/**
 * `npm run db:copy`: a SQLite installation filled through the store's repositories is copied by the command (run as
 * a child process, as an operator would) into a fresh PostgreSQL schema, then read back through the repositories.
 * Needs the PostgreSQL server of the scale suite (SCOUT_TEST_DATABASE_URL).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../src/core/store/index.js';
import { EVERYONE } from '../../src/core/store/settings.js';
import { sql } from '../../src/core/store/sql.js';
import { freshLocation } from '../core/store/engine.js';

const ROOT = join(import.meta.dirname, '..', '..');
const TOOL = join(ROOT, 'src', 'tools', 'db-copy.ts');

const ana = { platform: 'slack', workspaceId: 'T1', userId: 'U1' } as const;
const bob = { platform: 'slack', workspaceId: 'T1', userId: 'U2' } as const;
const tenant = { platform: 'slack', workspaceId: 'T1' } as const;
const t0 = new Date('2026-11-20T10:00:00Z');
const later = (ms: number) => new Date(t0.getTime() + ms);
const day = { from: new Date('2026-11-20T00:00:00Z'), to: new Date('2026-11-21T00:00:00Z') };
/** More ledger rows than one INSERT batch holds. */
const BULK_ROWS = 1203;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the command as a child process, as `npm run db:copy` would. */
function runTool(args: readonly string[]): Promise<Run> {
  const env = { ...process.env };
  delete env.DATABASE_URL;
  delete env.DATABASE_PATH;
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', TOOL, ...args],
      { cwd: ROOT, env, timeout: 120_000 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** A new, empty PostgreSQL schema, as the URL of a database whose connections use it. */
async function freshSchema(): Promise<{ url: string; drop(): Promise<void> }> {
  const place = await freshLocation();
  if (!('url' in place.location)) throw new Error('The scale tests run on PostgreSQL (SCOUT_TEST_ENGINE).');
  return { url: place.location.url, drop: place.drop };
}

/** Fills a single-team installation's SQLite store with a bit of everything Scout keeps. */
async function fill(store: Store): Promise<{ token: string; subscriptionId: number; digestId: number }> {
  // Ledger: recorded calls, many of them (several batches), and written-before-sent calls in each state.
  await store.ledger.record({
    ...ana,
    at: later(0),
    operation: 'creators.get',
    command: 'creators search',
    units: 5,
    credits: 5,
    balance: 995,
    idempotencyKey: 'rec-1',
  });
  for (let i = 0; i < BULK_ROWS; i++) {
    await store.ledger.record({
      ...bob,
      at: later(1000 + i),
      operation: 'songs.query',
      command: null,
      units: 1,
      credits: 1,
      balance: null,
      idempotencyKey: `bulk-${i}`,
    });
  }
  const intent = (key: string, estimate: number) => ({
    ...ana,
    at: later(5000),
    operation: 'creators.get',
    command: 'creators search',
    estimate,
    units: estimate,
    accountId: 'acct_1',
    owner: null,
    idempotencyKey: key,
  });
  await store.ledger.reading('acct_1', await store.ledger.tick(), later(4000), 1000);
  await store.ledger.intend(intent('int-confirmed', 10));
  await store.ledger.confirm('int-confirmed', { credits: 8, units: 8, balance: 987 });
  await store.ledger.intend(intent('int-lost', 7));
  await store.ledger.doubt('int-lost', later(6000));
  await store.ledger.intend(intent('int-pending', 3));

  const token = await store.actions.create({
    kind: 'creators.page',
    payload: { page: 2, query: 'yoga' },
    actor: ana,
    personal: true,
    rerun: 'creators search niche:yoga',
    ttlMs: 3_600_000,
    now: t0,
  });
  await store.invocations.begin('inv-done', t0, 60_000, null);
  await store.invocations.finish('inv-done', { nodes: [{ text: 'hello' }] }, later(10), 'slack:T1');
  await store.invocations.begin('inv-running', t0, 60_000, null);
  await store.processes.register({ id: 'proc-1', host: 'old-host', pid: 4242 }, () => true, t0);

  await store.profiles.put('acct_1', [{ id: 'cr-1', profile: { handle: 'yogi', followers: 1200 } }], t0);
  await store.searches.create({
    actor: ana,
    command: 'creators search niche:yoga',
    filters: { nichesToPromote: 'yoga' },
    ids: ['cr-1', 'cr-2'],
    nextServicePage: 2,
    serviceTotalPages: 4,
    createdAt: t0,
    expiresAt: later(3_600_000),
  });

  await store.settings.setDailyCap({ ...ana, userId: EVERYONE }, 100, 'U9', t0);
  await store.settings.setDailyCap(ana, 25, 'U9', t0);
  await store.settings.setPreference(ana, 'last-list', 'L7');

  const { subscription } = await store.subscriptions.subscribe({
    ...tenant,
    channelId: 'C1',
    projectId: null,
    createdBy: 'U1',
    now: t0,
  });
  const fresh = (messageId: string, at: number) => ({
    messageId,
    threadId: 'mail-1',
    messageAt: later(at).toISOString(),
    message: { id: messageId, body: `reply ${messageId}` },
    subscriptions: [subscription],
  });
  await store.subscriptions.recordPoll('acct_1', 2, [fresh('m1', 100), fresh('m2', 200)], later(300));
  const [m1] = await store.outbox.unposted('reply');
  await store.outbox.markPosted(
    m1?.id ?? 0,
    { channelId: 'C1', messageId: 'P1', threadId: null },
    later(400),
  );

  const digest = await store.digests.create({
    ...tenant,
    channelId: 'C2',
    createdBy: 'U1',
    localTime: '09:00',
    timeZone: 'Europe/Berlin',
    filters: { platform: 'tiktok', from: '7d' },
    top: 5,
    createdAt: t0,
  });
  await store.digests.begin(digest, '2026-11-20', { posts: [{ id: 'post-1' }], note: null }, later(500));
  const [run] = await store.outbox.unposted('digest');
  await store.outbox.markPosted(
    run?.id ?? 0,
    { channelId: 'C2', messageId: 'D1', threadId: null },
    later(600),
  );

  await store.tenants.putAccount({
    tenant,
    accountId: 'acct_1',
    keySealed: 'sealed-key',
    keyHint: 'abcd',
    connectedBy: 'U1',
    connectedAt: t0,
  });
  await store.tenants.addAdmin(tenant, 'U2', 'U1', t0);
  await store.tenants.putSlackInstallation('T1', 'sealed-installation', t0);

  await store.alerts.queueCap(
    ana,
    '80',
    '2026-11-20',
    { kind: 'cap', spent: 20, cap: 25, resetsAt: '2026-11-21T00:00:00.000Z' },
    t0,
  );
  await store.alerts.queueBalance(
    tenant,
    ['U1'],
    '2026-11-20',
    { kind: 'balance', balance: 40, threshold: 50, crossedBy: 'U1' },
    t0,
  );
  await store.alerts.sawAdmin({ ...ana, userId: 'U5' }, t0);
  return { token, subscriptionId: subscription.id, digestId: digest.id };
}

/** What the repositories answer about the filled data: the same on both sides after the copy. */
async function readBack(store: Store, ids: { token: string; subscriptionId: number; digestId: number }) {
  return {
    spentAna: await store.ledger.spent(ana, day),
    spentTenant: await store.ledger.spent(tenant, day),
    breakdown: await store.ledger.breakdown(tenant, day, 'user'),
    unconfirmed: await store.ledger.unconfirmed(ana, day, later(7000)),
    confirmed: await store.ledger.find('int-confirmed'),
    lookup: await store.actions.lookup(ids.token, ana, later(60_000)),
    invocation: await store.invocations.begin('inv-done', later(20), 60_000, null),
    profile: (await store.profiles.getFresh('acct_1', ['cr-1'], t0)).get('cr-1'),
    capAna: await store.settings.dailyCap(ana),
    capBob: await store.settings.dailyCap(bob),
    caps: await store.settings.caps(ana),
    preference: await store.settings.preference(ana, 'last-list'),
    subscriptions: await store.subscriptions.list(tenant),
    seen: [...(await store.subscriptions.seen('acct_1', ['m1', 'm2', 'm3']))],
    pollState: await store.subscriptions.pollState('acct_1'),
    unpostedReplies: await store.outbox.unposted('reply'),
    threadPost: await store.outbox.threadPost(`subscription:${ids.subscriptionId}`, 'mail-1'),
    digest: await store.digests.get(ids.digestId),
    digestRun: await store.outbox.find(tenant, `digest:${ids.digestId}:2026-11-20`),
    digestShown: [...(await store.digests.shown(ids.digestId, ['post-1', 'post-2']))],
    account: await store.tenants.account(tenant),
    admins: await store.tenants.admins(tenant),
    installation: await store.tenants.slackInstallation('T1'),
    alerts: await store.outbox.unposted('budget-alert'),
    // A UNION without an order: compared as a set.
    knownAdmins: (await store.alerts.knownAdmins(tenant)).sort(),
  };
}

describe('db:copy from SQLite to PostgreSQL', () => {
  let dir: string;
  let sqlitePath: string;
  let target: { url: string; drop(): Promise<void> };
  let ids: { token: string; subscriptionId: number; digestId: number };
  let before: Awaited<ReturnType<typeof readBack>>;
  let firstRun: Run;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'scout-db-copy-'));
    sqlitePath = join(dir, 'scout.db');
    const source = await openStore({ path: sqlitePath });
    try {
      ids = await fill(source);
      before = await readBack(source, ids);
    } finally {
      await source.close();
    }
    target = await freshSchema();
    firstRun = await runTool(['--to', target.url, '--from', sqlitePath]);
  }, 180_000);

  afterAll(async () => {
    await target?.drop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('copies every table and says how many rows each got', () => {
    expect(firstRun.stderr).toBe('');
    expect(firstRun.code).toBe(0);
    expect(firstRun.stdout).toContain(`credit_ledger: ${BULK_ROWS + 4} rows copied`);
    expect(firstRun.stdout).toContain('reply_subscriptions: 1 row copied');
    // Two replies, a digest's day, a cap alert and a balance alert.
    expect(firstRun.stdout).toContain('outbox: 5 rows copied');
    expect(firstRun.stdout).toContain('ledger_clock: 1 row copied');
    expect(firstRun.stdout).not.toContain('schema_migrations');
    expect(firstRun.stdout).toMatch(/the row counts match/);
    // Parents before the tables whose foreign keys name them.
    expect(firstRun.stdout.indexOf('digests:')).toBeLessThan(firstRun.stdout.indexOf('digest_shown:'));
  });

  it('reads back the same through the repositories on PostgreSQL', async () => {
    const store = await openStore({ url: target.url });
    try {
      const after = await readBack(store, ids);
      expect(after).toEqual(before);
      // And the values are the ones written, not two equal empties.
      expect(after.spentAna).toBe(5 + 8 + 7 + 3);
      expect(after.spentTenant).toBe(5 + 8 + 7 + 3 + BULK_ROWS);
      expect(after.lookup).toMatchObject({
        status: 'ok',
        record: { payload: { page: 2, query: 'yoga' }, rerun: 'creators search niche:yoga' },
      });
      expect((await store.actions.lookup(ids.token, bob, later(60_000))).status).toBe('not-yours');
      expect(after.capAna).toBe(25);
      expect(after.capBob).toBe(100);
      expect(after.digest).toMatchObject({ channelId: 'C2', timeZone: 'Europe/Berlin', top: 5 });
      expect(after.digestRun).toMatchObject({ state: 'posted', payload: { posts: [{ id: 'post-1' }] } });
      expect(after.subscriptions).toHaveLength(1);
      expect(after.seen.sort()).toEqual(['m1', 'm2']);
      expect(after.unpostedReplies.map((a) => a.key)).toEqual([`reply:${ids.subscriptionId}:m2`]);
      expect(after.threadPost).toEqual({ channelId: 'C1', messageId: 'P1', threadId: null });
      expect(after.invocation).toMatchObject({ status: 'done', reply: { nodes: [{ text: 'hello' }] } });
      expect((after.invocation as { at?: unknown }).at).toBeInstanceOf(Date);
      expect(after.installation).toBe('sealed-installation');
      expect(after.alerts.map((a) => a.key)).toEqual([
        'alert:U1:80:2026-11-20',
        'alert:U1:balance:2026-11-20',
      ]);
      const clock = await store.db.one<{ tick: number }>(sql`SELECT tick FROM ledger_clock`);
      expect(clock?.tick).toBeGreaterThan(0);
    } finally {
      await store.close();
    }
  });

  it('has advanced the id sequences, so new rows take new ids', async () => {
    const store = await openStore({ url: target.url });
    try {
      const { max } = (await store.db.one<{ max: number }>(
        sql`SELECT MAX(id) AS "max" FROM credit_ledger`,
      )) ?? { max: 0 };
      expect(
        await store.ledger.record({
          ...ana,
          at: later(8000),
          operation: 'creators.get',
          command: 'creators search',
          units: 2,
          credits: 2,
          balance: null,
          idempotencyKey: 'after-copy',
        }),
      ).toBe(true);
      expect((await store.ledger.find('after-copy'))?.id).toBeGreaterThan(max);
      const digest = await store.digests.create({
        ...tenant,
        channelId: 'C3',
        createdBy: 'U2',
        localTime: '18:00',
        timeZone: 'UTC',
        filters: {},
        top: 3,
        createdAt: later(9000),
      });
      expect(digest.id).toBeGreaterThan(ids.digestId);
      expect((await store.digests.list(tenant)).map((d) => d.channelId)).toEqual(['C2', 'C3']);
      const { subscription, created } = await store.subscriptions.subscribe({
        ...tenant,
        channelId: 'C4',
        projectId: 'proj',
        createdBy: 'U2',
        now: later(9000),
      });
      expect(created).toBe(true);
      expect(subscription.id).toBeGreaterThan(ids.subscriptionId);
      await store.ledger.reading('acct_1', await store.ledger.tick(), later(9500), 980);
    } finally {
      await store.close();
    }
  });

  it('refuses a second run: the target is no longer empty', async () => {
    const run = await runTool(['--to', target.url, '--from', sqlitePath]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/already holds data, in .*credit_ledger \(\d+ rows\)/);
    expect(run.stdout).not.toMatch(/rows? copied/);
    const store = await openStore({ url: target.url });
    try {
      // Nothing was added: the rows of the first copy, plus the one recorded since.
      expect(await store.ledger.spent(tenant, day)).toBe(5 + 8 + 7 + 3 + BULK_ROWS + 2);
    } finally {
      await store.close();
    }
  });
});

describe('db:copy refusals', () => {
  let dir: string;
  let sqlitePath: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'scout-db-copy-'));
    sqlitePath = join(dir, 'scout.db');
    const store = await openStore({ path: sqlitePath });
    await store.settings.setDailyCap(ana, 25, 'U9', t0);
    await store.close();
  });

  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('exits 1 with a message, and never shows the password, when the target cannot be reached', async () => {
    const run = await runTool([
      '--to',
      'postgres://scout:Sup3r-S3cret%21@127.0.0.1:1/nowhere',
      '--from',
      sqlitePath,
    ]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /Cannot open the PostgreSQL database postgres:\/\/scout@127\.0\.0\.1:1\/nowhere/,
    );
    expect(`${run.stdout}${run.stderr}`).not.toMatch(/Sup3r-S3cret/);
  });

  it('exits 1 with the usage when --to is not a PostgreSQL URL, without its password', async () => {
    const run = await runTool(['--to=mysql://root:Sup3r-S3cret@db/scout', '--from', sqlitePath]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/--to must be a PostgreSQL URL/);
    expect(run.stderr).toMatch(/Usage: npm run db:copy/);
    expect(`${run.stdout}${run.stderr}`).not.toMatch(/Sup3r-S3cret/);
  });

  it('exits 1 when the SQLite file does not exist, creating nothing', async () => {
    const target = await freshSchema();
    try {
      const run = await runTool(['--to', target.url, '--from', join(dir, 'missing.db')]);
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/No SQLite database at .*missing\.db/);
    } finally {
      await target.drop();
    }
  });

  it('names the table it could not copy, and leaves the target empty', async () => {
    // A NUL character: SQLite keeps it in a text, PostgreSQL refuses it.
    const source = join(dir, 'nul.db');
    const store = await openStore({ path: source });
    await store.settings.setPreference(
      { platform: 'slack', workspaceId: 'T1', userId: 'U1' },
      'list',
      'a\0b',
    );
    await store.close();
    const target = await freshSchema();
    try {
      const run = await runTool(['--to', target.url, '--from', source]);
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/Could not copy user_preferences/);
      const again = await runTool(['--to', target.url, '--from', sqlitePath]);
      expect(again.code).toBe(0);
    } finally {
      await target.drop();
    }
  });
});
