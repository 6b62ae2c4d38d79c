import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { LOCAL_ACTOR } from '../../../src/adapters/terminal/shell.js';
import type { Actor } from '../../../src/core/actor.js';
import { createManualClock } from '../../../src/core/clock.js';
import { defineAction, defineCommand, defineFamily } from '../../../src/core/command/types.js';
import { sql } from '../../../src/core/store/sql.js';
import { button, buttons, file, notice, type Reply, reply, text } from '../../../src/core/ui/index.js';
import { type Harness, startHarness } from '../../helpers/harness.js';

/** Every byte value, twice: what a CSV or an image may hold. */
const BYTES = Uint8Array.from({ length: 512 }, (_, i) => i % 256);

/** A family whose commands make real paid calls: songs cost 10 credits a request, viral 1 credit a post. */
const testFamily = defineFamily({
  name: 'test',
  description: 'Commands for dispatcher tests.',
  commands: [
    defineCommand({
      name: 'songs',
      description: 'One paid songs request per time.',
      params: { times: { kind: 'integer', description: 'How many requests.' } },
      schema: z.object({ times: z.number().int().min(1).max(5).default(1) }),
      examples: ['test songs times:2'],
      cost: '10 credits a request',
      estimate: (input) => 10 * input.times,
      async run(ctx, input) {
        for (let i = 0; i < input.times; i++) await ctx.service.songs.query({ action: 'countries' });
        const next = ctx.token('test.songs', { times: 1 });
        const once = ctx.token('test.songs', { times: 1 }, { ttlMs: 1000 });
        return reply([text(`done ${input.times}`), buttons(button('More', next), button('Once', once))], {
          visibility: 'channel',
        });
      },
    }),
    defineCommand({
      name: 'admin',
      description: 'Admins only.',
      params: {},
      schema: z.object({}),
      examples: ['test admin'],
      permission: 'admin',
      run: async () => reply([notice('success', 'admin ok')]),
    }),
    defineCommand({
      name: 'write',
      description: 'A free state change.',
      params: { name: { kind: 'text', positional: true, description: 'A name.' } },
      schema: z.object({ name: z.string() }),
      examples: ['test write a'],
      mutates: true,
      async run(ctx, input) {
        const count = Number((await ctx.store.settings.preference(ctx.actor, 'writes')) ?? '0') + 1;
        await ctx.store.settings.setPreference(ctx.actor, 'writes', String(count));
        return reply([text(`wrote ${input.name} (${count})`)]);
      },
    }),
    defineCommand({
      name: 'boom',
      description: 'Fails unexpectedly.',
      params: {},
      schema: z.object({}),
      examples: ['test boom'],
      run: async () => {
        throw new Error('kaput with secret details');
      },
    }),
    defineCommand({
      name: 'file',
      description: 'A state change answered with a file.',
      params: {},
      schema: z.object({}),
      examples: ['test file'],
      mutates: true,
      run: async () =>
        reply([text('here it is')], {
          files: [file('bytes.bin', BYTES, { mimeType: 'application/octet-stream', title: 'Bytes' })],
        }),
    }),
  ],
  actions: [
    defineAction({
      kind: 'test.songs',
      payload: z.object({ times: z.number().int() }),
      estimate: (payload) => 10 * payload.times,
      async run(ctx, payload) {
        await ctx.service.songs.query({ action: 'countries' });
        return reply([text(`pressed ${payload.times}`)], { replace: true });
      },
    }),
  ],
});

const latestToken = async (h: Harness, kind: string) =>
  (
    await h.app.store.db.one<{ token: string }>(
      sql`SELECT token FROM action_tokens WHERE kind = ${kind} ORDER BY rowid DESC LIMIT 1`,
    )
  )?.token as string;
const songsRequests = (h: Harness) => h.requests().filter((r) => r.path === '/api/v1/songs').length;
let h: Harness;
afterEach(async () => {
  await h.stop();
});

describe('dispatcher', () => {
  it('records each paid call in the ledger against the person, with the service balance', async () => {
    h = await startHarness({ families: [testFamily] });
    expect(await h.type('test songs')).toContain('done 1');
    const rows = await h.app.store.db.all<Record<string, unknown>>(sql`SELECT * FROM credit_ledger`);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      platform: 'terminal',
      workspace_id: 'local',
      user_id: 'me',
      operation: 'songs.query',
      command: 'test songs',
      units: 1,
      credits: 10,
      balance: h.sandbox.credits('harness-key-0001'),
    });
  });

  it('asks for confirmation above the threshold; cancel spends nothing, confirm runs once', async () => {
    h = await startHarness({ families: [testFamily], settings: { confirmAbove: 15 } });
    const asked = await h.type('test songs times:2');
    expect(asked).toContain('This will cost up to 20 credits. You have spent none today.');
    expect(songsRequests(h)).toBe(0);
    expect(await h.type('cancel')).toContain('Cancelled: nothing was spent.');
    expect(songsRequests(h)).toBe(0);
    expect(await h.type('test songs times:2')).toContain('Confirm (20 credits)');
    const confirmed = await h.type('confirm');
    expect(confirmed).toContain('done 2');
    expect(songsRequests(h)).toBe(2);
    expect(await h.spentToday()).toBe(20);
  });

  it('makes a confirmation single-use: the second of two simultaneous clicks does nothing more', async () => {
    h = await startHarness({ families: [testFamily], settings: { confirmAbove: 15 } });
    expect(await h.type('test songs times:2')).toContain('Confirm (20 credits)');
    const token = await latestToken(h, 'scout.confirm');
    const press = () => h.app.dispatcher.action({ actor: LOCAL_ACTOR, channelId: 'terminal', token });
    const answers = (await Promise.all([press(), press()])).map((r) => JSON.stringify(r));
    expect(answers.filter((a) => a.includes('done 2'))).toHaveLength(1);
    expect(answers.filter((a) => a.includes('Already'))).toHaveLength(1);
    expect(songsRequests(h)).toBe(2);
    expect(await h.spentToday()).toBe(20);
  });

  it('refuses above the daily cap with the numbers, before any call', async () => {
    h = await startHarness({ families: [testFamily], settings: { defaultDailyCap: 25 } });
    expect(await h.type('test songs times:2')).toContain('done 2');
    const refused = await h.type('test songs');
    expect(refused).toContain('This needs up to 10 credits, and your daily cap is 25 (20 spent today)');
    expect(songsRequests(h)).toBe(2);
    await h.app.store.settings.setDailyCap(
      { platform: 'terminal', workspaceId: 'local', userId: 'me' },
      100,
      'x',
      new Date(),
    );
    expect(await h.type('test songs')).toContain('done 1');
  });

  it('holds the cap for commands running at the same time', async () => {
    h = await startHarness({ families: [testFamily], settings: { defaultDailyCap: 25 } });
    const run = (channelId: string) =>
      h.app.dispatcher
        .text({ actor: LOCAL_ACTOR, channelId, text: 'test songs' })
        .then((r) => JSON.stringify(r));
    const answers = await Promise.all(['a', 'b', 'c', 'd'].map(run));
    expect(answers.filter((a) => a.includes('done 1'))).toHaveLength(2);
    expect(answers.filter((a) => a.includes('daily cap is 25'))).toHaveLength(2);
    expect(songsRequests(h)).toBe(2);
    expect(await h.spentToday()).toBe(20);
  });

  it('records a charge whose answer could not be read at the estimate, and offers a Retry', async () => {
    h = await startHarness({ families: [testFamily] });
    h.sandbox.injectFaults('harness-key-0001', { kind: 'malformed-json' });
    const answer = await h.type('test songs');
    expect(answer).toContain('its answer was lost');
    expect(answer).toContain('Retry (up to 10 credits)');
    expect(await h.spentToday()).toBe(10);
  });

  it('runs a paid command repeated within seconds once, and again after the window', async () => {
    const clock = createManualClock(new Date());
    h = await startHarness({ families: [testFamily], clock, settings: { repeatWindowMs: 10_000 } });
    expect(await h.type('test songs')).toContain('done 1');
    clock.advance(4_000);
    // The repeat is told so, with what the first run said, and gets no buttons of its own.
    const repeat = await h.type('/scout test songs');
    expect(repeat).toContain('Info: Already done (nothing changed). This repeat spent no credits.');
    expect(repeat).toContain('First run, 4 seconds ago: “done 1”');
    expect(repeat).not.toContain('More');
    expect(songsRequests(h)).toBe(1);
    expect(await h.spentToday()).toBe(10);
    clock.advance(10_001);
    await h.type('test songs');
    expect(songsRequests(h)).toBe(2);
    expect(await h.spentToday()).toBe(20);
  });

  it('runs a double-clicked paid button once', async () => {
    h = await startHarness({ families: [testFamily] });
    expect(await h.type('test songs')).toContain('More');
    const token = (
      await h.app.store.db.one<{ token: string }>(
        sql`SELECT token FROM action_tokens WHERE kind = 'test.songs' ORDER BY rowid LIMIT 1`,
      )
    )?.token as string;
    const press = () => h.app.dispatcher.action({ actor: LOCAL_ACTOR, channelId: 'terminal', token });
    const answers = await Promise.all([press(), press(), press()]);
    // The first answer replaces the message pressed; the others say it is under way or done, nothing spent again.
    const first = (answer: Reply) =>
      answer.replace === true && JSON.stringify(answer.nodes[0]).includes('"pressed 1"');
    expect(answers.filter(first)).toHaveLength(1);
    for (const answer of answers.filter((a) => !first(a)))
      expect(JSON.stringify(answer)).toMatch(
        /Already working on that|Already done \(nothing changed\)\. This repeat spent no credits\./,
      );
    expect(songsRequests(h)).toBe(2);
    expect(await h.spentToday()).toBe(20);
  });

  it('runs a duplicated state change once, telling the repeat nothing changed, but free reads every time', async () => {
    const clock = createManualClock(new Date());
    h = await startHarness({ families: [testFamily], clock });
    expect(await h.type('test write a')).toBe('wrote a (1)\n');
    clock.advance(9_000);
    const repeat = await h.type('test write a');
    expect(repeat).toContain('Info: Already done (nothing changed).');
    expect(repeat).toContain('First run, 9 seconds ago: “wrote a (1)”');
    expect(await h.app.store.settings.preference(LOCAL_ACTOR, 'writes')).toBe('1');
    expect(await h.type('test write b')).toBe('wrote b (2)\n');
  });

  it('keeps buttons working across a restart of the dispatcher, and says when they expired', async () => {
    const clock = createManualClock(new Date());
    h = await startHarness({ families: [testFamily], clock });
    const shown = await h.type('test songs');
    const once = /\[(\d+)\] Once/.exec(shown)?.[1] as string;
    clock.advance(2000);
    const expired = await h.type(once);
    expect(expired).toContain('These results have expired.');
    expect(expired).toContain('Run it again');
    const rerun = await h.type('1');
    expect(rerun).toContain('done 1');
  });

  it('answers bad input, unknown commands, admin-only commands and crashes to the author, spending nothing', async () => {
    const member: Actor = { platform: 'terminal', workspaceId: 'local', userId: 'ana', isAdmin: false };
    h = await startHarness({ families: [testFamily], actor: member });
    expect(await h.type('test songs times:9')).toMatch(
      /^Error: times must be at most 5\.\n[\s\S]*Usage:[\s\S]*\/scout test songs/m,
    );
    expect(await h.type('test songs times:many')).toContain('times takes a number');
    expect(await h.type('test songz')).toContain('Unknown subcommand "songz". Did you mean "songs"?');
    expect(await h.type('tets songs')).toContain('Unknown command "tets". Did you mean "test"?');
    expect(await h.type('test admin')).toContain('/scout test admin needs an admin.');
    const crash = await h.type('test boom');
    // The reference is said once, by the notice.
    expect(crash).toMatch(/Something went wrong\. Please try again\. \(ref: [0-9a-f]{8}\)$/m);
    expect(crash.match(/ref/g)).toHaveLength(1);
    expect(crash).not.toContain('kaput');
    expect(await h.type('test songs times:"1')).toContain('A quote is not closed');
    expect(songsRequests(h)).toBe(0);
    expect(await h.spentToday()).toBe(0);
  });

  it('says so when a button is unknown or belongs to someone else', async () => {
    h = await startHarness({ families: [testFamily], settings: { confirmAbove: 5 } });
    const other: Actor = { platform: 'terminal', workspaceId: 'local', userId: 'bob', isAdmin: false };
    expect(
      await h.app.dispatcher.action({ actor: other, channelId: 'c', token: 'test.songs:doesnotexist' }),
    ).toMatchObject({
      nodes: [{ type: 'notice', level: 'warning' }],
    });
    const asked = await h.type('test songs');
    const token = /Confirm/.test(asked)
      ? ((
          await h.app.store.db.one<{ token: string }>(
            sql`SELECT token FROM action_tokens WHERE kind = 'scout.confirm'`,
          )
        )?.token as string)
      : '';
    const answer = await h.app.dispatcher.action({ actor: other, channelId: 'c', token });
    expect(JSON.stringify(answer)).toContain('Only the person who ran the command can use this.');
    expect(songsRequests(h)).toBe(0);
  });
});

/**
 * What is kept of an answer for its duplicates, read back from the database through the reply schema: a row that
 * does not hold a reply (an older shape, a damaged one) is never used: the work runs again and what is kept of its
 * new answer takes its place.
 */
describe('stored replies', () => {
  const run = (line: string) => h.app.dispatcher.text({ actor: LOCAL_ACTOR, channelId: 'c1', text: line });
  const shown = (answer: Reply) => JSON.stringify(answer.nodes);
  /** The key of the one invocation kept. */
  const keptKey = async () => {
    const rows = await h.app.store.db.all<{ key: string }>(sql`SELECT key FROM invocations`);
    expect(rows).toHaveLength(1);
    return rows[0]?.key as string;
  };

  it.each([
    [
      'a node type that no longer exists',
      { nodes: [{ type: 'carousel', items: [] }], visibility: 'channel' },
    ],
    ['a node without a member', { nodes: [{ type: 'notice', level: 'info' }], visibility: 'author' }],
    ['a reply without its visibility', { nodes: [] }],
    ['a file whose bytes are not base64', { nodes: [], visibility: 'author', files: [{ bytes: { 0: 1 } }] }],
    ['no reply at all', null],
  ])('runs the work again instead of answering with %s', async (_, stored) => {
    h = await startHarness({ families: [testFamily] });
    expect(shown(await run('test write a'))).toContain('wrote a (1)');
    await h.app.store.invocations.finish(await keptKey(), stored, h.app.clock.now());
    const again = await run('test write a');
    expect(again).toEqual(reply([text('wrote a (2)')]));
    // The new answer is kept in its place: a repeat now quotes it.
    expect(shown(await run('test write a'))).toContain('ago: “wrote a (2)”');
  });

  it('runs the work again when the stored reply is not JSON', async () => {
    h = await startHarness({ families: [testFamily] });
    expect(shown(await run('test write a'))).toContain('wrote a (1)');
    await h.app.store.db.run(sql`UPDATE invocations SET reply = ${'{"nodes": [{"type": "te'}`);
    expect(await run('test write a')).toEqual(reply([text('wrote a (2)')]));
    expect(shown(await run('test write a'))).toContain('Already done (nothing changed).');
  });

  it("keeps no copy of the first answer's files: a duplicate is told it is done, with no file", async () => {
    h = await startHarness({ families: [testFamily] });
    const first = await run('test file');
    expect(first.files?.[0]?.bytes).toEqual(BYTES);
    const kept = await h.app.store.db.one<{ reply: string }>(sql`SELECT reply FROM invocations`);
    expect(JSON.parse(kept?.reply ?? '')).toEqual(reply([text('here it is')]));
    const repeat = await run('test file');
    expect(repeat.files).toBeUndefined();
    expect(shown(repeat)).toContain('Already done (nothing changed).');
    expect(shown(repeat)).toContain('here it is');
  });
});
