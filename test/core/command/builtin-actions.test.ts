/**
 * The dispatcher's own elements pressed through the dispatcher, with payloads as the store holds them: what each
 * runs, once, and the answer to one whose payload or command no longer reads.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { LOCAL_ACTOR } from '../../../src/adapters/terminal/shell.js';
import { defineAction, defineCommand, defineFamily } from '../../../src/core/command/types.js';
import { sql } from '../../../src/core/store/sql.js';
import { type Reply, reply, text } from '../../../src/core/ui/index.js';
import { type Harness, startHarness } from '../../helpers/harness.js';

const runs: string[] = [];
const family = defineFamily({
  name: 'test',
  description: 'Commands for built-in elements.',
  commands: [
    defineCommand({
      name: 'paid',
      description: 'Costs more than the threshold.',
      params: { name: { kind: 'text', positional: true, description: 'A name.' } },
      schema: z.object({ name: z.string() }),
      examples: ['test paid a'],
      cost: '20 credits',
      estimate: () => 20,
      async run(_ctx, input) {
        runs.push(`paid ${input.name}`);
        return reply([text(`paid ${input.name}`)], { visibility: 'channel' });
      },
    }),
  ],
  actions: [
    defineAction({
      kind: 'test.press',
      payload: z.object({ n: z.number() }),
      estimate: () => 20,
      async run(_ctx, payload, event) {
        runs.push(`pressed ${payload.n} ${event.value ?? ''}`);
        return reply([text(`pressed ${payload.n}`)]);
      },
    }),
  ],
});

let h: Harness;
afterEach(async () => {
  await h.stop();
});
const start = async () => {
  runs.length = 0;
  h = await startHarness({ families: [family], settings: { confirmAbove: 15 } });
};
/** Stores an element of the local person, as the dispatcher makes them. */
const element = (kind: string, payload: unknown, rerun: string | null = null) =>
  h.app.store.actions.create({
    kind,
    payload,
    actor: LOCAL_ACTOR,
    personal: true,
    rerun,
    ttlMs: 60_000,
    now: h.app.clock.now(),
  });
/** A Confirm of `test <command>` with `input`, as the confirmation stores it. */
const confirmOf = (command: string, input: unknown) =>
  element('scout.confirm', { type: 'command', family: 'test', command, input, text: `test ${command}` });
const press = async (token: string, value?: string) =>
  h.app.dispatcher.action({
    actor: LOCAL_ACTOR,
    channelId: 'c1',
    token,
    ...(value === undefined ? {} : { event: { value } }),
  });
const said = (answer: Reply) => JSON.stringify(answer.nodes);
const latest = async (kind: string) =>
  (
    await h.app.store.db.one<{ token: string }>(
      sql`SELECT token FROM action_tokens WHERE kind = ${kind} ORDER BY rowid DESC LIMIT 1`,
    )
  )?.token as string;

describe('built-in elements', () => {
  it('runs a confirmed command once, as it was typed', async () => {
    await start();
    const token = await confirmOf('paid', { name: 'x' });
    expect(said(await press(token))).toContain('paid x');
    expect(said(await press(token))).toContain('Already done.');
    expect(runs).toEqual(['paid x']);
  });

  it('runs a confirmed element press with the value it was pressed with, without asking again', async () => {
    await start();
    const pressed = await element('test.press', { n: 3 });
    expect(said(await press(pressed, 'blue'))).toContain('Confirm (20 credits)');
    expect(runs).toEqual([]);
    expect(said(await press(await latest('scout.confirm')))).toContain('pressed 3');
    expect(runs).toEqual(['pressed 3 blue']);
  });

  it('says a Confirm no longer works when its payload or its command does not read, running nothing', async () => {
    await start();
    const older = await element('scout.confirm', { type: 'command', line: 'test paid x' });
    const gone = await confirmOf('removed', {});
    const notInput = await confirmOf('paid', 'x');
    for (const token of [older, gone, notInput]) {
      expect(said(await press(token))).toContain('This button no longer works. Run the command again.');
    }
    expect(runs).toEqual([]);
  });

  it('cancels a confirmation once: its Confirm no longer runs, and a later Cancel says it was decided', async () => {
    await start();
    expect(
      said(await h.app.dispatcher.text({ actor: LOCAL_ACTOR, channelId: 'c1', text: 'test paid a' })),
    ).toContain('Confirm (20 credits)');
    const confirm = await latest('scout.confirm');
    const cancel = await latest('scout.cancel');
    const cancelled = await press(cancel);
    expect(said(cancelled)).toContain('Cancelled: nothing was spent.');
    expect(cancelled.replace).toBe(true);
    expect(said(await press(confirm))).toContain('Already done.');
    // A Cancel whose Confirm was pressed first.
    const confirmed = await confirmOf('paid', { name: 'b' });
    const late = await element('scout.cancel', { confirmToken: confirmed });
    await press(confirmed);
    expect(said(await press(late))).toContain('That was already decided.');
    expect(runs).toEqual(['paid b']);
  });

  it('runs a command line again as typed, and says so when it carries none', async () => {
    await start();
    expect(said(await press(await element('scout.rerun', { text: 'test paid c' })))).toContain(
      'Confirm (20 credits)',
    );
    expect(said(await press(await element('scout.rerun', { text: 'test paid' })))).toContain(
      '/scout test paid [<name>]',
    );
    expect(said(await press(await element('scout.rerun', { line: 'test paid c' })))).toContain(
      'This button no longer works.',
    );
    expect(runs).toEqual([]);
  });

  it('says a Stop has nothing to stop once the wait is over', async () => {
    await start();
    const stopped = await press(await element('scout.stop', { id: 'long-gone' }));
    expect(said(stopped)).toContain('That is no longer waiting.');
    expect(stopped.replace).toBe(true);
  });
});
