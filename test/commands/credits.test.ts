/** `/scout credits`: the balance the service reports, my spend, and the team's spend by person, command and day. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_ACTOR } from '../../src/adapters/terminal/shell.js';
import type { TableNode } from '../../src/core/ui/index.js';
import { type Harness, startHarness, TEST_KEY } from '../helpers/harness.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.stop();
});

const today = () => new Date().toISOString().slice(0, 10);

describe('credits', () => {
  it('says there is no spend yet instead of empty tables', async () => {
    const out = await h.type('credits');
    expect(out).toContain('Team this month, by command\n\nNo spend yet.');
    expect(out).toContain('Team, last 7 days\n\nNo spend yet.');
    expect(out).not.toMatch(/^Command +Credits|^Day +Credits/m);
  });

  it('shows the balance and what each command cost, counted in calls', async () => {
    await h.type('creators category:Fitness');
    await h.type('next');
    await h.type('viral categories:Food');
    const out = await h.type('credits');
    const spent = await h.spentToday();

    expect(out).toContain(`Service balance: ${h.sandbox.credits(TEST_KEY)} credits`);
    expect(out).toContain(`You today: ${spent} credits`);
    expect(out).toContain('Your daily cap: none');
    // By person, as a table: the person (a mention where the platform shows names), credits and calls.
    expect(out).toContain('Team this month, by person:');
    expect(out).toMatch(/^Person +Credits +Calls$/m);
    expect(out).toMatch(new RegExp(`^@me +${spent} +3$`, 'm'));
    // By command, as a table: two pages of five profiles; one viral search.
    expect(out).toContain('Team this month, by command:');
    expect(out).toMatch(/^Command +Credits +Calls$/m);
    expect(out).toMatch(/^creators search +10 +2$/m);
    expect(out).toMatch(/^viral search +\d+ +1$/m);
    // By day: each of the last seven days, today first, a day without spend at zero.
    expect(out).toContain('Team, last 7 days:');
    expect(out).toMatch(/^Day +Credits +Calls$/m);
    expect(out).toMatch(new RegExp(`^${today()} +${spent} +3$`, 'm'));
    const days = out.split('\n').filter((line) => /^\d{4}-\d{2}-\d{2} +\d+ +\d+$/.test(line));
    expect(days).toHaveLength(7);
    expect(days.slice(1).every((line) => / 0 +0$/.test(line))).toBe(true);
  });

  it('lays the breakdowns out as tables whose credits and calls sort as numbers', async () => {
    const reply = await h.app.dispatcher.text({ actor: LOCAL_ACTOR, channelId: 'terminal', text: 'credits' });
    const tables = reply.nodes.filter((node): node is TableNode => node.type === 'table');
    expect(tables.map((t) => t.caption)).toEqual([
      'Team this month, by person',
      'Team this month, by command',
      'Team, last 7 days',
    ]);
    expect(tables[0]?.rows[0]?.[0]).toEqual({
      text: `@${LOCAL_ACTOR.userId}`,
      number: null,
      person: LOCAL_ACTOR.userId,
    });
    for (const [table, key] of [
      [tables[0], 'Person'],
      [tables[1], 'Command'],
      [tables[2], 'Day'],
    ] as const) {
      expect(table?.columns).toEqual([
        { label: key, align: 'left' },
        { label: 'Credits', align: 'right' },
        { label: 'Calls', align: 'right' },
      ]);
    }
    const search = tables[1]?.rows.find((row) => row[0]?.text === 'creators search');
    expect(search?.map((cell) => cell.number)).toEqual([null, 10, 2]);
    expect(tables[2]?.rows[0]?.[0]?.text).toBe(today());
    expect(tables[2]?.rows[0]?.[1]?.number).toBe(await h.spentToday());
  });

  it('shows up to 100 people and commands, and says how many more it left out', async () => {
    for (let i = 0; i < 103; i++) {
      await h.app.store.ledger.record({
        platform: LOCAL_ACTOR.platform,
        workspaceId: LOCAL_ACTOR.workspaceId,
        userId: `teammate${String(i).padStart(3, '0')}`,
        at: new Date(),
        operation: 'creators.get',
        command: `command ${String(i).padStart(3, '0')}`,
        units: 1,
        credits: 1,
        balance: null,
        idempotencyKey: `many-${i}`,
      });
    }
    const out = await h.type('credits');
    // 104 people spent (the 103 and me, who spent most): a table shows 100 of them.
    const people = out.slice(out.indexOf('by person:'), out.indexOf('by command:'));
    expect(people.split('\n').filter((line) => /^@teammate\d{3} +1 +1$/.test(line))).toHaveLength(99);
    expect(people).toMatch(/^@me +\d+ +3$/m);
    expect(people).toContain('And 4 other people, who spent less.');
    // 105 commands (the 103 and the two searches before, which spent most).
    const commands = out.slice(out.indexOf('by command:'), out.indexOf('Team, last 7 days:'));
    expect(commands.split('\n').filter((line) => /^command \d{3} +1 +1$/.test(line))).toHaveLength(98);
    expect(commands).toContain('And 5 more, not shown.');
  });
});
