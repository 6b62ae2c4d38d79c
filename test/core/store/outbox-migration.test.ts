/**
 * The outbox's migration: digest runs, reply announcements and budget alerts of a database from before it move into
 * the outbox with their keys, states and history, so nothing is posted twice or dropped across the upgrade.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src/core/store/database.js';
import { openStore, type Store } from '../../../src/core/store/index.js';
import { MIGRATIONS } from '../../../src/core/store/migrations.js';
import { sql } from '../../../src/core/store/sql.js';
import { freshLocation } from './engine.js';

let store: Store | null = null;
let drop: () => Promise<void> = async () => {};
afterEach(async () => {
  await store?.close();
  store = null;
  await drop();
});

const AT = '2026-03-10T08:00:00.000Z';
const slack = { platform: 'slack' as const, workspaceId: 'T1' };

/** A database at the schema before the outbox, holding one of each kind of row the outbox takes over. */
async function upgraded(): Promise<Store> {
  const place = await freshLocation({ shared: true });
  drop = place.drop;
  const db = await openDatabase({ ...place.location, migrations: MIGRATIONS.filter((m) => m.version < 14) });
  await db.run(sql`INSERT INTO digests (id, platform, workspace_id, channel_id, created_by, local_time, time_zone,
      filters, top, created_at) VALUES (7, 'slack', 'T1', 'C7', 'U1', '09:00', 'UTC', '{}', 5, ${AT})`);
  await db.run(sql`INSERT INTO digest_runs (digest_id, local_day, state, posts, note, attempts, created_at, posted_at,
      posted_message_id) VALUES (7, '2026-03-09', 'posted', '[{"id":"v1"}]', NULL, 1, ${AT}, ${AT}, '1.1'),
      (7, '2026-03-10', 'posting', '[]', 'Skipped today.', 1, ${AT}, NULL, NULL)`);
  await db.run(sql`INSERT INTO reply_subscriptions (id, platform, workspace_id, channel_id, project_id, created_by,
      created_at) VALUES (3, 'slack', 'T1', 'C3', NULL, 'U1', ${AT})`);
  await db.run(sql`INSERT INTO reply_announcements (subscription_id, message_id, thread_id, message, message_at, state,
      attempts, created_at, posted_at, posted_channel_id, posted_message_id, posted_thread_id)
      VALUES (3, 'm1', 'mail-1', '{"id":"m1"}', ${AT}, 'posted', 1, ${AT}, ${AT}, 'C3', 'P1', 'P1'),
      (3, 'm2', 'mail-1', '{"id":"m2","body":"hi"}', ${AT}, 'pending', 0, ${AT}, NULL, NULL, NULL, NULL)`);
  const alert = (user: string, threshold: string, state: string, owner: string | null) =>
    db.run(sql`INSERT INTO budget_alerts (platform, workspace_id, user_id, threshold, day, state, details, attempts,
        owner, created_at) VALUES ('slack', 'T1', ${user}, ${threshold}, '2026-03-10', ${state},
        '{"kind":"cap","spent":20,"cap":20,"resetsAt":"2026-03-11T00:00:00.000Z"}', ${state === 'posting' ? 1 : 0},
        ${owner}, ${AT})`);
  await alert('U1', '100', 'posting', 'a process gone');
  await alert('U1', '80', 'skipped', null);
  await alert('*', 'balance', 'guard', null);
  await alert('U2', 'balance', 'posted', null);
  await db.close();
  return openStore(place.location);
}

describe('the outbox migration', () => {
  it('moves digest runs with their posts, days and a post cut off mid-way', async () => {
    store = await upgraded();
    expect(await store.outbox.find(slack, 'digest:7:2026-03-09')).toMatchObject({
      state: 'posted',
      to: { channelId: 'C7' },
      payload: { digestId: 7, localDay: '2026-03-09', posts: [{ id: 'v1' }], note: null },
    });
    const [cutOff] = await store.outbox.unposted('digest');
    expect(cutOff).toMatchObject({ key: 'digest:7:2026-03-10', payload: { note: 'Skipped today.' } });
    await store.processes.register({ id: 'p1', host: 'h', pid: 1 }, () => true, new Date(AT));
    expect(await store.outbox.claim(cutOff?.id ?? 0, 'p1', new Date(AT))).toEqual({
      mayHaveLanded: true,
      attempts: 2,
    });
  });

  it('moves reply announcements, threads and counts included', async () => {
    store = await upgraded();
    expect(await store.outbox.threadPost('subscription:3', 'mail-1')).toEqual({
      channelId: 'C3',
      messageId: 'P1',
      threadId: 'P1',
    });
    expect(await store.subscriptions.postedCount(3)).toBe(1);
    expect(await store.outbox.unposted('reply')).toMatchObject([
      {
        key: 'reply:3:m2',
        thread: 'mail-1',
        payload: { subscriptionId: 3, message: { id: 'm2', body: 'hi' } },
      },
    ]);
  });

  it('moves budget alerts with their once-guards, and frees a post whose process is gone', async () => {
    store = await upgraded();
    const details = { kind: 'cap' as const, spent: 20, cap: 20, resetsAt: '2026-03-11T00:00:00.000Z' };
    const now = new Date(AT);
    const ana = { ...slack, userId: 'U1' };
    expect(await store.alerts.queueCap(ana, '80', '2026-03-10', details, now)).toBe(false);
    expect(await store.alerts.queueCap(ana, '100', '2026-03-10', details, now)).toBe(false);
    const balance = { kind: 'balance' as const, balance: 1, threshold: 5, crossedBy: 'U1' };
    expect(await store.alerts.queueBalance(slack, ['U1'], '2026-03-10', balance, now)).toBe(false);
    expect((await store.outbox.find(slack, 'alert:U1:80:2026-03-10'))?.state).toBe('dropped');
    const [alert] = await store.outbox.unposted('budget-alert');
    expect(alert).toMatchObject({
      key: 'alert:U1:100:2026-03-10',
      to: { userId: 'U1' },
      payload: { details },
    });
    await store.processes.register({ id: 'p1', host: 'h', pid: 1 }, () => true, now);
    expect(await store.outbox.claim(alert?.id ?? 0, 'p1', now)).toEqual({ mayHaveLanded: true, attempts: 2 });
    const tables = await store.db.all<{ n: number }>(sql`SELECT COUNT(*) AS "n" FROM outbox`);
    expect(tables).toEqual([{ n: 7 }]);
  });
});
