/** `/scout list` end to end: contacts of one list through the terminal, the dispatcher and the sandbox. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_ACTOR } from '../../src/adapters/terminal/shell.js';
import { helpFamily } from '../../src/commands/help.js';
import { listFamily, listsFamily } from '../../src/commands/lists.js';
import { openForm, readForm } from '../../src/core/command/forms/index.js';
import { CRM_STATUSES } from '../../src/core/service/enums.js';
import type { CrmContact } from '../../src/core/service/index.js';
import type { Reply } from '../../src/core/ui/index.js';
import { type Harness, startHarness } from '../helpers/harness.js';

const LIST = 'Scout Contacts Test';
let h: Harness;
let listId: string;
/** Creator ids that exist in the sandbox. */
let ids: string[];
const invocation = { actor: LOCAL_ACTOR, channelId: 'terminal' };

beforeAll(async () => {
  h = await startHarness({
    families: [listsFamily, listFamily, helpFamily],
    sandbox: { rateLimitPerMinute: 10_000 },
  });
  expect(await h.type(`lists create "${LIST}"`)).toContain('Created the list');
  const lists = (await h.app.service.crm.listLists()).data.lists;
  listId = lists.find((l) => l.name === LIST)?.id as string;
  ids = (await h.app.service.creators.search({ perPage: 20 })).data.items;
  expect(ids.length).toBeGreaterThanOrEqual(8);
});

afterAll(async () => {
  await h.stop();
});

async function sent<T>(
  work: () => Promise<T>,
): Promise<{ result: T; requests: ReturnType<Harness['requests']> }> {
  const before = h.requests().length;
  const result = await work();
  return { result, requests: h.requests().slice(before) };
}

async function contacts(): Promise<CrmContact[]> {
  return (await h.app.service.crm.listCreators({ listId, perPage: 500 })).data.items;
}

const contactOf = async (userId: string) =>
  (await contacts()).find((c) => c.user_id === userId) as CrmContact;
const id = (n: number) => ids[n] as string;
const writes = (requests: ReturnType<Harness['requests']>) => requests.filter((r) => r.method !== 'GET');

function tokenOf(reply: Reply, label: string): string {
  for (const node of reply.nodes) {
    const found = node.type === 'buttons' ? node.buttons : node.type === 'card' ? node.actions : [];
    const button = found.find((b) => b.label === label);
    if (button !== undefined) return button.actionId;
  }
  throw new Error(`no ${label} button`);
}

describe('list add', () => {
  it('adds several creators with a status and notes, and shows the counters', async () => {
    const { result: out, requests } = await sent(() =>
      h.type(
        `list add "${LIST.toLowerCase()}" ${id(0)} ${id(1)},${id(2)} status:outreached notes:"Met at the expo"`,
      ),
    );
    const post = requests.find((r) => r.method === 'POST');
    expect(post?.path).toBe(`/api/v2/crm/lists/${listId}/creators`);
    expect(post?.body).toEqual({
      userIds: [id(0), id(1), id(2)],
      status: 'OUTREACHED',
      notes: 'Met at the expo',
    });
    expect(out).toContain(`Added 3 creators to ${LIST}.`);
    expect(out).toContain('Requested: 3 · Added: 3 · Created: 3');
    expect(out).toContain('Reactivated: 0 · Skipped duplicates: 0 · Skipped invalid: 0');
    expect(out).toContain('Status: Outreached');
    expect((await contacts()).map((c) => c.user_id).sort()).toEqual([id(0), id(1), id(2)].sort());
  });

  it('counts duplicates and invalid ids', async () => {
    const out = await h.type(`list add "${LIST}" ${id(0)} nobody_0000001`);
    expect(out).toContain(`Nothing was added to ${LIST}.`);
    expect(out).toContain('Skipped duplicates: 1 · Skipped invalid: 1');
  });

  it('sets the single-creator fields when exactly one creator is added', async () => {
    const { result: out, requests } = await sent(() =>
      h.type(
        `list add "${LIST}" ${id(3)} email:ana@example.com rate:1.5k instagram:@ana.ig tiktok:@ana.tt status:"to outreach"`,
      ),
    );
    expect(requests.find((r) => r.method === 'POST')?.body).toEqual({
      userIds: [id(3)],
      status: 'TO_OUTREACH',
      contactEmail: 'ana@example.com',
      proposedRate: 1500,
      instagramHandle: '@ana.ig',
      tiktokHandle: '@ana.tt',
    });
    expect(out).toContain('Email: ana@example.com');
    expect(out).toContain('Proposed: 1,500');
  });

  it('refuses the single-creator fields with several ids, and other bad input, before sending anything', async () => {
    for (const [line, message, more] of [
      [
        `list add "${LIST}" ${id(4)} ${id(5)} email:ana@example.com`,
        'Error: email sets one creator',
        'you gave 2',
      ],
      [
        `list add "${LIST}" ${id(4)} ${id(5)} rate:100`,
        'Error: rate sets one creator',
        'exactly one creator id',
      ],
      [`list add "${LIST}" ${id(4)} rate:-1`, 'Error: rate must be a number of at least 0.', ''],
      [`list add "${LIST}" ${id(4)} email:not-an-email`, 'Error: email must be an email address.', ''],
      [`list add "${LIST}" ${id(4)} status:negotiatin`, 'Did you mean "NEGOTIATING"?', ''],
      [`list add "${LIST}"`, 'Error: Give 1 to 500 creator ids after the list name.', ''],
      [`list add "${LIST}" ${Array.from({ length: 501 }, (_, i) => `c${i}`).join(',')}`, 'from 1 to 500', ''],
      ['list add', 'list is required', ''],
    ] as const) {
      const { result: out, requests } = await sent(() => h.type(line));
      expect(out, line).toContain('Error:');
      expect(out, line).toContain(message);
      expect(out, line).toContain(more);
      expect(requests, line).toEqual([]);
    }
  });

  it('answers an unknown list with the existing names, and writes nothing', async () => {
    const { result: out, requests } = await sent(() => h.type(`list add "Scout Contacts Tset" ${id(4)}`));
    expect(out).toContain(`There is no list "Scout Contacts Tset". Did you mean "${LIST}"?`);
    expect(writes(requests)).toEqual([]);
  });
});

describe('list show', () => {
  it('shows the contacts as rows with buttons, in the channel', async () => {
    const reply = await h.app.dispatcher.text({ ...invocation, text: `list "${LIST}"` });
    expect(reply.visibility).toBe('channel');
    const rows = reply.nodes.filter((n) => n.type === 'card');
    expect(rows).toHaveLength(4);
    for (const row of rows) {
      expect(row.type === 'card' && row.actions.map((a) => a.label)).toEqual(['Set status', 'Edit']);
    }
    expect(reply.nodes.some((n) => n.type === 'pager')).toBe(false);
    const out = await h.type(`list show ${listId}`);
    expect(out).toContain(`${LIST} · 4 contacts`);
    expect(out).toContain('Notes: Met at the expo');
  });

  it('pages with a page size, in place', async () => {
    const { result: out, requests } = await sent(() => h.type(`list "${LIST}" limit:3`));
    expect(requests.at(-1)?.query).toEqual({ page: '1', per_page: '3' });
    expect(out).toContain('Page 1 of 2');
    const next = await sent(() => h.type('next'));
    expect(next.requests.map((r) => r.query)).toEqual([{ page: '2', per_page: '3' }]);
    expect(next.result).toContain('Page 2 of 2');
    expect(next.result).toContain('‹ Previous');
    const back = await h.type('previous');
    expect(back).toContain('Page 1 of 2');

    const first = await h.app.dispatcher.text({ ...invocation, text: `list "${LIST}" perPage:3 page:2` });
    const pager = first.nodes.find((n) => n.type === 'pager');
    if (pager?.type !== 'pager' || pager.prevActionId === null) throw new Error('no previous page');
    expect(pager.nextActionId).toBeNull();
    const previous = await h.app.dispatcher.action({ ...invocation, token: pager.prevActionId });
    expect(previous.replace).toBe(true);
    expect(previous.nodes.find((n) => n.type === 'pager')).toMatchObject({ page: 1, totalPages: 2 });
  });

  it('filters by status in any case', async () => {
    const { result: out, requests } = await sent(() => h.type(`list "${LIST}" status:"To Outreach"`));
    expect(requests.at(-1)?.query).toEqual({ page: '1', per_page: '10', status: 'TO_OUTREACH' });
    expect(out).toContain(`${LIST} · 1 contact with status To outreach`);
  });

  it('shows big pages as one line per contact', async () => {
    const out = await h.type(`list "${LIST}" perPage:50`);
    expect(out).toMatch(/^1\. @\S+ \(\S+\) · Outreached/m);
    expect(out).toContain('4. ');
    expect(out).not.toContain('Set status');
  });

  it('refuses bad options before sending anything', async () => {
    for (const [line, message] of [
      [`list "${LIST}" perPage:501`, 'Error: perPage must be a whole number from 1 to 500.'],
      [`list "${LIST}" page:0`, 'Error: page must be a whole number of at least 1.'],
      [`list "${LIST}" status:negotiatin`, 'Did you mean "NEGOTIATING"?'],
      [`list "${LIST}" page:1.5`, 'page takes a whole number'],
    ] as const) {
      const { result: out, requests } = await sent(() => h.type(line));
      expect(out, line).toContain(message);
      expect(requests, line).toEqual([]);
    }
  });
});

describe('contact buttons', () => {
  it('"Set status" offers the six statuses, and choosing one updates the contact', async () => {
    await h.type(`list "${LIST}"`);
    const picker = await h.type('set 1');
    for (const label of ['To outreach', 'Outreached', 'Negotiating', 'Working', 'Done', 'Cancelled']) {
      expect(picker).toContain(label);
    }
    const { result: out, requests } = await sent(() => h.type('1.3'));
    const patch = requests.find((r) => r.method === 'PATCH');
    expect(patch?.path).toMatch(/^\/api\/v2\/crm\/contacts\//);
    expect(patch?.body).toEqual({ status: 'NEGOTIATING' });
    expect(out).toContain('status Negotiating');
    expect(out).toContain('Status: Negotiating');
    const contactId = patch?.path.split('/').at(-1);
    expect((await contacts()).find((c) => c.id === contactId)?.status).toBe('NEGOTIATING');
  });

  it('"Set status" takes the status typed after it', async () => {
    await h.type(`list "${LIST}" page:1`);
    const { result: out, requests } = await sent(() => h.type('set 2 working'));
    expect(requests.find((r) => r.method === 'PATCH')?.body).toEqual({ status: 'WORKING' });
    expect(out).toContain('Status: Working');
    const bad = await sent(() => h.type('set 1 to sleeping'));
    expect(bad.result).toContain('status cannot be "sleeping"');
    expect(writes(bad.requests)).toEqual([]);
  });

  it('"Edit" prints the contact form\'s command line filled in, then runs it with what is typed after it', async () => {
    await h.type(`list "${LIST}" perPage:1`);
    const [first] = (await h.app.service.crm.listCreators({ listId, perPage: 1 })).data.items;
    const help = await h.type('edit 1');
    expect(help).toContain(
      `/scout list update list:${listId} creator:${first?.user_id} [status:negotiating]`,
    );
    expect(help).toContain('[agreed:450]');
    const { result: out, requests } = await sent(() =>
      h.type('edit 1 notes:"Call Monday" rate:500 agreed:450 deliverables:"1 reel" email:bo@example.com'),
    );
    expect(requests.find((r) => r.method === 'PATCH')?.body).toEqual({
      notes: 'Call Monday',
      proposedRate: 500,
      agreedRate: 450,
      contentDeliverables: '1 reel',
      contactEmail: 'bo@example.com',
    });
    expect(out).toContain('Email: bo@example.com · Proposed: 500');
    expect(out).toContain('Agreed: 450 · Deliverables: 1 reel');
    expect(out).toContain('Notes: Call Monday');
    const bad = await sent(() => h.type('edit 1 rate:-3'));
    expect(bad.result).toContain('Error: rate must be a number of at least 0.');
    expect(writes(bad.requests)).toEqual([]);
  });

  it('"Edit" opens the contact form: list update with the list and creator set, the six statuses as its choices', async () => {
    const page = await h.app.dispatcher.text({ ...invocation, text: `list "${LIST}" perPage:2 page:2` });
    const token = tokenOf(page, 'Edit');
    const lookup = (t: string) => h.app.store.actions.lookup(t, LOCAL_ACTOR, new Date());
    const spec = await openForm({ registry: h.app.registry, lookup }, token);
    if (spec === null) throw new Error('Edit opened no form');
    const [contact] = (await h.app.service.crm.listCreators({ listId, perPage: 2, page: 2 })).data.items;
    expect(spec).toMatchObject({
      family: 'list',
      command: 'update',
      fixed: { list: listId, creator: contact?.user_id },
    });
    const status = spec.fields[0];
    expect(status?.name).toBe('status');
    expect(status?.choices).toEqual([
      'TO_OUTREACH',
      'OUTREACHED',
      'NEGOTIATING',
      'WORKING',
      'DONE',
      'CANCELLED',
    ]);
    expect(status?.hint).toContain('to outreach, outreached, negotiating, working, done');
    expect(status?.hint).not.toMatch(/to contact|agreed,|declined/);
    const def = h.app.registry.command('list', 'update');
    if (def === undefined) throw new Error('no list update');

    const wrong = readForm(def, spec, {
      values: { status: 'to contact', proposedRate: '-5' },
      platform: 'terminal',
    });
    expect(wrong.ok).toBe(false);
    expect(Object.keys(wrong.ok ? {} : wrong.errors).sort()).toEqual(['proposedRate', 'status']);

    const reading = readForm(def, spec, {
      values: {
        status: 'done',
        notes: 'Delivered',
        contactEmail: 'cy@example.com',
        proposedRate: '700',
        agreedRate: '650',
        contentDeliverables: '',
      },
      platform: 'terminal',
    });
    if (!reading.ok) throw new Error(JSON.stringify(reading.errors));
    const { result: reply, requests } = await sent(() =>
      h.app.dispatcher.form({ ...invocation, family: 'list', command: 'update', tokens: reading.tokens }),
    );
    expect(reply.visibility).toBe('channel');
    expect(requests.find((r) => r.method === 'PATCH')?.body).toEqual({
      status: 'DONE',
      notes: 'Delivered',
      contactEmail: 'cy@example.com',
      proposedRate: 700,
      agreedRate: 650,
    });
  });

  it('an "Edit" made before the form offers the form, not another Edit, and still takes a form\'s values', async () => {
    const [contact] = (await h.app.service.crm.listCreators({ listId, perPage: 1 })).data.items;
    const ref = { contactId: contact?.id, listId, listName: LIST, userId: contact?.user_id, handle: null };
    const token = await h.app.store.actions.create({
      kind: 'list.edit',
      payload: ref,
      actor: LOCAL_ACTOR,
      rerun: null,
      ttlMs: 60_000,
      now: new Date(),
    });
    const bare = await h.app.dispatcher.action({ ...invocation, token });
    const labels = bare.nodes.flatMap((n) => (n.type === 'buttons' ? n.buttons.map((b) => b.label) : []));
    expect(labels).toEqual(['Open the form']);
    const form = await openForm(
      { registry: h.app.registry, lookup: (t) => h.app.store.actions.lookup(t, LOCAL_ACTOR, new Date()) },
      tokenOf(bare, 'Open the form'),
    );
    expect(form?.fixed).toEqual({ list: listId, creator: contact?.user_id });
    const { result, requests } = await sent(() =>
      h.app.dispatcher.action({ ...invocation, token, event: { values: { notes: 'Older button' } } }),
    );
    expect(result.visibility).toBe('channel');
    expect(requests.find((r) => r.method === 'PATCH')?.body).toEqual({ notes: 'Older button' });
    const bad = await sent(() =>
      h.app.dispatcher.action({ ...invocation, token, event: { values: { colour: 'red' } } }),
    );
    expect(bad.result.visibility).toBe('author');
    expect(writes(bad.requests)).toEqual([]);
  });
});

describe('list update, check and remove', () => {
  it('updates a contact found by @handle or by creator id', async () => {
    const target = await contactOf(id(1));
    const byHandle = await sent(() =>
      h.type(
        `list update "${LIST}" @${(target.handle as string).toUpperCase()} status:cancelled notes:"Not a fit"`,
      ),
    );
    expect(byHandle.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /api/v2/crm/lists',
      `GET /api/v2/crm/lists/${listId}/creators`,
      `PATCH /api/v2/crm/contacts/${target.id}`,
    ]);
    expect(byHandle.requests[1]?.query).toEqual({ page: '1', per_page: '500' });
    expect(byHandle.requests[2]?.body).toEqual({ status: 'CANCELLED', notes: 'Not a fit' });
    expect(byHandle.result).toContain(`Updated @${target.handle} in ${LIST}: status Cancelled, notes.`);

    const byId = await sent(() => h.type(`list update "${LIST}" ${id(1)} agreed:900 deliverables:"2 posts"`));
    expect(byId.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /api/v2/crm/lists',
      `POST /api/v2/crm/lists/${listId}/creators/check`,
      `PATCH /api/v2/crm/contacts/${target.id}`,
    ]);
    expect(byId.result).toContain('Agreed: 900');
    expect((await contactOf(id(1))).content_deliverables).toBe('2 posts');
  });

  it('says so when the creator is not in the list, or nothing is to change', async () => {
    const missing = await sent(() => h.type(`list update "${LIST}" @nobody_here status:done`));
    expect(missing.result).toContain(`No creator "@nobody_here" in "${LIST}"`);
    expect(writes(missing.requests).filter((r) => r.method === 'PATCH')).toEqual([]);
    const nothing = await sent(() => h.type(`list update "${LIST}" ${id(1)}`));
    expect(nothing.result).toContain('Error: Nothing to change: give status, notes, email, rate,');
    expect(nothing.requests).toEqual([]);
    const bad = await sent(() => h.type(`list update "${LIST}" ${id(1)} agreed:-1`));
    expect(bad.result).toContain('Error: agreed must be a number of at least 0.');
    expect(bad.requests).toEqual([]);
  });

  it('checks membership with status and dates', async () => {
    const { result: out, requests } = await sent(() => h.type(`list check "${LIST}" ${id(0)} ${id(7)}`));
    expect(requests.at(-1)?.body).toEqual({ userIds: [id(0), id(7)] });
    expect(out).toContain(`${LIST} · 1 of 2 checked are in the list`);
    expect(out).toMatch(new RegExp(`✓ ${id(0)}: in the list · \\w+ · added \\d{4}-\\d{2}-\\d{2}`));
    expect(out).toContain(`✗ ${id(7)}: not in the list`);
    const missing = await sent(() => h.type(`list check "${LIST}"`));
    expect(missing.result).toContain('Error: Give one or more creator ids after the list name.');
    expect(missing.requests).toEqual([]);
  });

  it('removes a creator only after a confirmation, once', async () => {
    const asked = await h.type(`list remove "${LIST}" ${id(2)}`);
    expect(asked).toContain(`Remove ${id(2)}`);
    expect(asked).toContain('Confirm removal');
    const cancelled = await sent(() => h.type('cancel'));
    expect(cancelled.result).toContain('nothing was removed');
    expect(writes(cancelled.requests)).toEqual([]);

    const reply = await h.app.dispatcher.text({ ...invocation, text: `list remove "${LIST}" ${id(2)}` });
    expect(reply.visibility).toBe('author');
    const confirmToken = tokenOf(reply, 'Confirm removal');
    const cancelToken = tokenOf(reply, 'Cancel');
    const removed = await sent(() => h.app.dispatcher.action({ ...invocation, token: confirmToken }));
    expect(removed.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      `DELETE /api/v2/crm/lists/${listId}/creators/${id(2)}`,
    ]);
    expect(removed.result.visibility).toBe('channel');
    expect(await contactOf(id(2))).toBeUndefined();
    const late = await h.app.dispatcher.action({ ...invocation, token: cancelToken });
    expect(JSON.stringify(late.nodes)).toContain('already decided');

    const check = await h.type(`list check "${LIST}" ${id(2)}`);
    expect(check).toContain(`✗ ${id(2)}: not in the list`);
    const again = await h.type(`list add "${LIST}" ${id(2)}`);
    expect(again).toContain('Reactivated: 1');
  });

  it('refuses to remove a creator who is not in the list', async () => {
    const { result: out, requests } = await sent(() => h.type(`list remove "${LIST}" ${id(9)}`));
    expect(out).toContain(`No creator "${id(9)}"`);
    expect(requests.filter((r) => r.method === 'DELETE')).toEqual([]);
  });

  it('spends no credits', async () => {
    expect(await h.spentToday()).toBe(0);
  });
});

describe('status hints', () => {
  /** Statuses a text offers: `status:<value>` examples, and enumerations (`a, b, c or d`) on help's status lines. */
  function hintsIn(text: string): string[] {
    const examples = [...text.matchAll(/status:([^\s"<…]+)/g)].map((m) => m[1] as string);
    const listed = text
      .split('\n')
      .filter((line) => line.startsWith('status: '))
      .flatMap((line) => [...line.matchAll(/(?:: |\()([^():.]+)[.)]/g)])
      .map((m) => (m[1] as string).split(/, | or /))
      .filter((items) => items.length >= 3)
      .flat();
    return [...new Set([...examples, ...listed])];
  }

  it('offers only statuses that work typed as shown, every allowed one among them', async () => {
    await h.type(`list "${LIST}" perPage:1`);
    const texts = [await h.type('help list'), await h.type('edit 1')];
    const hints = texts.flatMap(hintsIn);
    expect(hints.length).toBeGreaterThan(CRM_STATUSES.length);
    const sentStatuses = new Set<unknown>();
    for (const hint of hints) {
      const { result: out, requests } = await sent(() => h.type(`list "${LIST}" status:${hint}`));
      expect(out, hint).not.toMatch(/^Error: /);
      const read = requests.filter((r) => r.path === `/api/v2/crm/lists/${listId}/creators`);
      expect(read, hint).toHaveLength(1);
      sentStatuses.add(read[0]?.query.status);
    }
    expect([...sentStatuses].sort()).toEqual([...CRM_STATUSES].sort());
  });
});
