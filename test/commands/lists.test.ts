/** `/scout lists` end to end: the terminal, the dispatcher, the real client and the sandbox. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_ACTOR } from '../../src/adapters/terminal/shell.js';
import { helpFamily } from '../../src/commands/help.js';
import { listFamily, listsFamily } from '../../src/commands/lists.js';
import type { CrmList } from '../../src/core/service/index.js';
import type { Reply } from '../../src/core/ui/index.js';
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

const buttonsOf = (reply: Reply) =>
  reply.nodes.flatMap((node) =>
    node.type === 'buttons' || node.type === 'card'
      ? node.type === 'buttons'
        ? node.buttons
        : node.actions
      : [],
  );

describe('lists show', () => {
  it('shows every active list with its counts and an Open button that shows its contacts', async () => {
    const lists = await teamLists();
    expect(lists.length).toBeGreaterThan(0);
    const { result: out, requests } = await sent(() => h.type('/scout lists'));
    expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /api/v2/crm/lists']);
    expect(out).toContain(`CRM lists · ${lists.length} lists`);
    for (const list of lists.slice(0, 5)) {
      expect(out).toContain(list.name as string);
      expect(out).toContain(`Contacts: ${list.contact_count}`);
      expect(out).toContain(`To outreach: ${list.to_outreach_count}`);
    }
    const first = lists[0] as CrmList;
    const opened = await sent(() => h.type('open 1'));
    expect(opened.requests.map((r) => r.path)).toEqual([`/api/v2/crm/lists/${first.id}/creators`]);
    expect(opened.requests[0]?.query).toEqual({ page: '1', per_page: '10' });
    expect(opened.result).toContain(`${first.name} · ${first.contact_count} contacts`);
    expect(opened.result).toContain('Set status');
    expect(opened.result).toContain('Edit');
  });

  it('is posted to the channel', async () => {
    const reply = await h.app.dispatcher.text({ ...invocation, text: 'lists' });
    expect(reply.visibility).toBe('channel');
    expect(buttonsOf(reply).map((b) => b.label)).toContain('Open');
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
    expect(out).toContain(`Id: ${list.id}`);
    expect(out).toContain('Budget: 5,000');
    expect(out).toContain('Website id: web_42');
    expect(out).toContain('Contacts: 0');
    const opened = await h.type('open 1');
    expect(opened).toContain('No contacts yet');
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
  it('pages the lists five at a time, in place', async () => {
    for (const name of ['Scout Paging A', 'Scout Paging B', 'Scout Paging C'])
      await h.type(`lists create "${name}"`);
    const lists = await teamLists();
    expect(lists.length).toBeGreaterThan(5);
    const first = await h.app.dispatcher.text({ ...invocation, text: 'lists' });
    const pager = first.nodes.find((node) => node.type === 'pager');
    expect(pager).toMatchObject({ page: 1, totalPages: Math.ceil(lists.length / 5), prevActionId: null });
    const out = await h.type('lists');
    expect(out).toContain(`Page 1 of ${Math.ceil(lists.length / 5)}`);
    const next = await h.type('next');
    expect(next).toContain('Page 2 of');
    expect(next).toContain(lists[5]?.name as string);
    expect(next).not.toContain(lists[0]?.name as string);
    if (pager?.type !== 'pager' || pager.nextActionId === null) throw new Error('no next page');
    const second = await h.app.dispatcher.action({ ...invocation, token: pager.nextActionId });
    expect(second.replace).toBe(true);
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
