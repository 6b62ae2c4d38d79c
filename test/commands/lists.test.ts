/** `/scout lists` end to end: the terminal, the dispatcher, the real client and the sandbox. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_ACTOR } from '../../src/adapters/terminal/shell.js';
import { helpFamily } from '../../src/commands/help.js';
import { listFamily, listsFamily } from '../../src/commands/lists.js';
import type { CrmList } from '../../src/core/service/index.js';
import { type Reply, renderText, type TableNode } from '../../src/core/ui/index.js';
import { type Harness, startHarness, TEST_KEY, TEST_TEAM } from '../helpers/harness.js';

let h: Harness;
const invocation = { actor: LOCAL_ACTOR, channelId: 'terminal' };

beforeAll(async () => {
  h = await startHarness({
    families: [listsFamily, listFamily, helpFamily],
    sandbox: { rateLimitPerMinute: 10_000 },
  });
});

afterAll(async () => {
  await h.stop();
});

/** What the sandbox received while `work` ran. */
async function sent<T>(
  work: () => Promise<T>,
): Promise<{ result: T; requests: ReturnType<Harness['requests']> }> {
  const before = h.requests().length;
  const result = await work();
  return { result, requests: h.requests().slice(before) };
}

async function teamLists(): Promise<CrmList[]> {
  return (await h.app.service.crm.listLists()).data.lists;
}

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function tableOf(reply: Reply): TableNode {
  const found = reply.nodes.find((node) => node.type === 'table');
  if (found?.type !== 'table') throw new Error('no table');
  return found;
}

const selectsOf = (reply: Reply) => reply.nodes.filter((node) => node.type === 'select');

describe('lists show', () => {
  it('shows every active list as a table with its counts, and a menu that opens one', async () => {
    const lists = await teamLists();
    expect(lists.length).toBeGreaterThan(0);
    const { result: out, requests } = await sent(() => h.type('/scout lists'));
    expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /api/v2/crm/lists']);
    expect(out).toContain(`CRM lists · ${lists.length} lists`);
    expect(out).toMatch(/^Name +Contacts +To outreach +Budget +Dates +Updated$/m);
    for (const list of lists) {
      const row = `^${escaped(list.name as string)} +${list.contact_count} +${list.to_outreach_count} `;
      expect(out).toMatch(new RegExp(row, 'm'));
    }
    expect(out).toContain('[1] Open a list…');
    const first = lists[0] as CrmList;
    expect(out).toContain(`1.1 ${first.name} — ${first.contact_count} contacts`);
    const opened = await sent(() => h.type('1.1'));
    // One read of a table's worth of contacts.
    expect(opened.requests.map((r) => r.path)).toEqual([`/api/v2/crm/lists/${first.id}/creators`]);
    expect(opened.requests[0]?.query).toEqual({ page: '1', per_page: '100' });
    expect(opened.result).toContain(`${first.name} · ${first.contact_count} contacts`);
    expect(opened.result).toMatch(/^Creator +Status +Followers +Engagement \(%\)/m);
    expect(opened.result).toContain('Act on a contact…');
  });

  it('is posted to the channel: names, counts that sort as numbers, dates, and one option per list', async () => {
    const lists = await teamLists();
    const reply = await h.app.dispatcher.text({ ...invocation, text: 'lists' });
    expect(reply.visibility).toBe('channel');
    const table = tableOf(reply);
    expect(table.columns).toEqual([
      { label: 'Name', align: 'left' },
      { label: 'Contacts', align: 'right' },
      { label: 'To outreach', align: 'right' },
      { label: 'Budget', align: 'right' },
      { label: 'Dates', align: 'left' },
      { label: 'Updated', align: 'left' },
    ]);
    expect(table.rows.map((row) => row[0]?.text)).toEqual(lists.map((l) => l.name));
    expect(table.rows.map((row) => row[1]?.number)).toEqual(lists.map((l) => l.contact_count));
    expect(table.rows.map((row) => row[2]?.number)).toEqual(lists.map((l) => l.to_outreach_count));
    expect(table.rows.map((row) => row[3]?.number)).toEqual(lists.map((l) => l.budget));
    expect(table.rows.map((row) => row[5]?.text)).toEqual(lists.map((l) => l.date_updated?.slice(0, 10)));
    const [open, ...others] = selectsOf(reply);
    expect(others).toEqual([]);
    expect(open?.type === 'select' && open.options.map((o) => [o.label, o.value])).toEqual(
      lists.map((l) => [l.name, l.id]),
    );
  });
});

describe('lists create, rename, describe, get', () => {
  it('creates a list with every field of the contract and shows it', async () => {
    const { result: out, requests } = await sent(() =>
      h.type('lists create name:"Scout Test Launch" budget:5k description:"Q2 skincare" websiteId:web_42'),
    );
    const post = requests.find((r) => r.method === 'POST');
    expect(post?.path).toBe('/api/v2/crm/lists');
    expect(post?.body).toEqual({
      name: 'Scout Test Launch',
      budget: 5000,
      description: 'Q2 skincare',
      websiteId: 'web_42',
    });
    expect(out).toContain('Created the list Scout Test Launch.');
    expect(out).toContain('Budget: 5,000');
    expect((await teamLists()).some((l) => l.name === 'Scout Test Launch')).toBe(true);
  });

  it('refuses a name another list has, in any case, without creating anything', async () => {
    const { result: out, requests } = await sent(() => h.type('lists create "scout test LAUNCH"'));
    expect(out).toContain('A list named "Scout Test Launch" already exists');
    // Lists are named by name: the service's id of the other list is no help here.
    const taken = (await teamLists()).find((l) => l.name === 'Scout Test Launch') as CrmList;
    expect(out).not.toContain(taken.id);
    expect(requests.filter((r) => r.method !== 'GET')).toEqual([]);
  });

  it('refuses bad input before sending anything', async () => {
    for (const [line, message] of [
      ['lists create name:"Bad budget" budget:-5', 'Error: budget must be a number of at least 0.'],
      ['lists create name:"Bad budget" budget:lots', 'budget takes a number'],
      ['lists create budget:10', 'name is required'],
      ['lists create name:x colour:red', 'Unknown option "colour"'],
      ['lists rename "Scout Test Launch"', 'name is required'],
      ['lists describe "Scout Test Launch"', 'description is required'],
      ['lists get', 'list is required'],
    ] as const) {
      const { result: out, requests } = await sent(() => h.type(line));
      expect(out, line).toContain('Error:');
      expect(out, line).toContain(message);
      expect(requests, line).toEqual([]);
    }
  });

  it('renames a list found by its name in any case', async () => {
    const { result: out, requests } = await sent(() =>
      h.type('lists rename "scout test launch" name:"Scout Test Launch 2"'),
    );
    const list = (await teamLists()).find((l) => l.name === 'Scout Test Launch 2');
    expect(list).toBeDefined();
    const patch = requests.find((r) => r.method === 'PATCH');
    expect(patch?.path).toBe(`/api/v2/crm/lists/${list?.id}`);
    expect(patch?.body).toEqual({ name: 'Scout Test Launch 2' });
    expect(out).toContain('Renamed Scout Test Launch to Scout Test Launch 2.');
  });

  it('refuses to rename a list to the name of another one', async () => {
    const other = (await teamLists()).find((l) => l.name !== 'Scout Test Launch 2') as CrmList;
    const { result: out, requests } = await sent(() =>
      h.type(`lists rename "Scout Test Launch 2" name:"${(other.name as string).toUpperCase()}"`),
    );
    expect(out).toContain('already exists');
    expect(requests.filter((r) => r.method === 'PATCH')).toEqual([]);
  });

  it('describes a list found by its id, and gets its details', async () => {
    const list = (await teamLists()).find((l) => l.name === 'Scout Test Launch 2') as CrmList;
    const described = await sent(() =>
      h.type(`lists describe ${list.id} description:"Creators for the Q2 launch"`),
    );
    expect(described.requests.find((r) => r.method === 'PATCH')?.body).toEqual({
      description: 'Creators for the Q2 launch',
    });
    expect(described.result).toContain('Updated the description of Scout Test Launch 2.');

    const { result: out, requests } = await sent(() => h.type('lists get "SCOUT test launch 2"'));
    expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /api/v2/crm/lists',
      `GET /api/v2/crm/lists/${list.id}`,
    ]);
    expect(out).toContain('Scout Test Launch 2');
    expect(out).toContain('Creators for the Q2 launch');
    expect(out).toContain(`List id: ${list.id}`);
    expect(out).toContain('Budget: 5,000');
    expect(out).toContain('Website id: web_42');
    expect(out).toContain('Contacts: 0');
    const opened = await h.type('open 1');
    expect(opened).toContain('No contacts yet');
    expect(opened).not.toContain('Act on a contact');
  });

  it('names the existing lists, with a suggestion, when a list is unknown', async () => {
    const lists = await teamLists();
    const target = lists.find(
      (l) => (l.name as string).length > 8 && !l.name?.startsWith('Scout'),
    ) as CrmList;
    const typo = (target.name as string).slice(0, -1);
    const { result: out, requests } = await sent(() => h.type(`lists get "${typo}x"`));
    expect(out).toContain(`There is no list "${typo}x". Did you mean "${target.name}"?`);
    expect(out).toContain('Lists:');
    expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /api/v2/crm/lists']);
    const reply = await h.app.dispatcher.text({ ...invocation, text: 'lists get "no such list"' });
    expect(reply.visibility).toBe('author');
  });
});

describe('paging and errors', () => {
  it('shows 100 lists a table, each reachable by a menu, and pages past them in place', async () => {
    for (const name of ['Scout Paging A', 'Scout Paging B', 'Scout Paging C'])
      await h.type(`lists create "${name}"`);
    for (let n = 1; (await teamLists()).length <= 110; n++)
      await h.app.service.crm.createList({ name: `Scout Paging ${n}` });
    const lists = await teamLists();
    const first = await h.app.dispatcher.text({ ...invocation, text: 'lists' });
    expect(tableOf(first).caption).toBe('CRM lists 1–100');
    expect(tableOf(first).rows.map((row) => row[0]?.text)).toEqual(lists.slice(0, 100).map((l) => l.name));
    // Every list of the table is one choice away: four menus of 25.
    const menus = selectsOf(first);
    expect(menus.map((m) => m.type === 'select' && m.placeholder)).toEqual([
      'Open lists 1–25…',
      'Open lists 26–50…',
      'Open lists 51–75…',
      'Open lists 76–100…',
    ]);
    expect(menus.flatMap((m) => (m.type === 'select' ? m.options.map((o) => o.value) : []))).toEqual(
      lists.slice(0, 100).map((l) => l.id),
    );
    const pager = first.nodes.find((node) => node.type === 'pager');
    expect(pager).toMatchObject({ page: 1, totalPages: 2, prevActionId: null });
    const out = await h.type('lists');
    expect(out).toContain('Page 1 of 2');
    const next = await sent(() => h.type('next'));
    expect(next.requests.map((r) => r.path)).toEqual(['/api/v2/crm/lists']);
    expect(next.result).toContain('Page 2 of 2');
    expect(next.result).toContain(`CRM lists 101–${lists.length}:`);
    expect(next.result).toContain(lists[100]?.name as string);
    expect(next.result).not.toMatch(new RegExp(`^${escaped(lists[0]?.name as string)} `, 'm'));
    if (pager?.type !== 'pager' || pager.nextActionId === null) throw new Error('no next page');
    const second = await h.app.dispatcher.action({ ...invocation, token: pager.nextActionId });
    expect(second.replace).toBe(true);
    const [open] = selectsOf(second);
    if (open?.type !== 'select') throw new Error('no menu on page 2');
    const last = lists.at(-1) as CrmList;
    const opened = await sent(() =>
      h.app.dispatcher.action({ ...invocation, token: open.actionId, event: { value: last.id } }),
    );
    expect(opened.requests.map((r) => r.path)).toEqual([`/api/v2/crm/lists/${last.id}/creators`]);
    // A value that is none of the menu's lists is looked up like a typed name.
    const unknown = await h.app.dispatcher.action({
      ...invocation,
      token: open.actionId,
      event: { value: 'No such list' },
    });
    expect(renderText(unknown).text).toContain('There is no list "No such list".');
    const none = await h.app.dispatcher.action({ ...invocation, token: open.actionId });
    expect(renderText(none).text).toContain('Choose a list in the menu.');
    const shown = renderText(opened.result).text;
    expect(shown).toContain(`${last.name} · 0 contacts`);
    expect(shown).toContain('No contacts yet');
  });

  it('explains a missing CRM subscription (403 or 402)', async () => {
    h.sandbox.addKey({ key: TEST_KEY, teamId: TEST_TEAM, credits: 100_000, subscriptionActive: false });
    try {
      const out = await h.type('lists');
      expect(out).toContain('Error:');
      expect(out).toContain('CRM operations need an active subscription');
    } finally {
      h.sandbox.addKey({ key: TEST_KEY, teamId: TEST_TEAM, credits: 100_000 });
    }
    h.sandbox.injectFaults(TEST_KEY, {
      kind: 'error-shape',
      status: 402,
      body: { detail: 'Payment required' },
    });
    const out = await h.type('lists get "Scout Paging A"');
    expect(out).toContain('no active subscription');
    expect(await h.type('lists')).toContain('CRM lists');
  });

  it('spends no credits: every CRM operation is free', async () => {
    expect(h.requests().some((r) => r.path.startsWith('/api/v2/crm/'))).toBe(true);
    expect(await h.spentToday()).toBe(0);
  });

  it('has help for every command', async () => {
    const out = await h.type('help lists');
    for (const command of ['lists show', 'lists create', 'lists rename', 'lists describe', 'lists get']) {
      expect(out).toContain(command);
    }
    for (const command of [...listsFamily.commands, ...listFamily.commands]) {
      expect(command.description.length).toBeLessThanOrEqual(100);
      expect(command.examples.length).toBeGreaterThan(0);
    }
  });
});
