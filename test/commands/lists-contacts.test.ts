/** `/scout list` end to end: contacts of one list through the terminal, the dispatcher and the sandbox. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_ACTOR } from '../../src/adapters/terminal/shell.js';
import { helpFamily } from '../../src/commands/help.js';
import { CRM_STATUS_LABELS } from '../../src/commands/lists/crm-cards.js';
import { listFamily, listsFamily } from '../../src/commands/lists.js';
import { openForm, readForm } from '../../src/core/command/forms/index.js';
import { quoteValue } from '../../src/core/command/syntax.js';
import { CRM_STATUSES, type CrmStatus } from '../../src/core/service/enums.js';
import type { CrmContact } from '../../src/core/service/index.js';
import { type Reply, renderText, type SelectNode, type TableNode } from '../../src/core/ui/index.js';
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
const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function tableOf(reply: Reply): TableNode {
  const found = reply.nodes.find((node) => node.type === 'table');
  if (found?.type !== 'table') throw new Error('no table');
  return found;
}

const selectsOf = (reply: Reply): SelectNode[] =>
  reply.nodes.filter((node): node is SelectNode => node.type === 'select');

/** A contact chosen in a table's menu: the answer that offers what can be done to it. */
async function choose(page: Reply, contact: CrmContact): Promise<Reply> {
  const menu = selectsOf(page).find((s) => s.options.some((o) => o.value === contact.id));
  if (menu === undefined) throw new Error(`no option for ${contact.id}`);
  return h.app.dispatcher.action({ ...invocation, token: menu.actionId, event: { value: contact.id } });
}

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
    // In words, not the service's counters.
    expect(out).not.toMatch(/Requested|Skipped|Reactivated|already there/);
    expect(out).toContain('Status: Outreached');
    expect((await contacts()).map((c) => c.user_id).sort()).toEqual([id(0), id(1), id(2)].sort());
  });

  it('says in words which were already there and names the ids the service did not take', async () => {
    const out = await h.type(`list add "${LIST}" ${id(0)} tiktok_0000001`);
    expect(out).toContain(
      `Nothing was added to ${LIST}: 1 was already there; tiktok_0000001 is not a creator id.`,
    );
    const some = await h.type(`list add "${LIST}" ${id(0)} ${id(6)} tiktok_0000001 youtube_x`);
    expect(some).toContain(
      `Added 1 creator to ${LIST}; 1 was already there; not added: tiktok_0000001, youtube_x (not creator ids).`,
    );
    expect(some).not.toMatch(/Requested|Skipped/);
    await h.app.service.crm.removeCreator({ listId, userId: id(6) });
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
      [`list add "${LIST}" ${id(4)} status:negotiatin`, 'Did you mean "Negotiating"?', ''],
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
  it('shows the contacts as a table read in one request, in the channel, with a menu to act on each', async () => {
    const { result: reply, requests } = await sent(() =>
      h.app.dispatcher.text({ ...invocation, text: `list "${LIST}"` }),
    );
    expect(requests.filter((r) => r.path.endsWith('/creators')).map((r) => r.query)).toEqual([
      { page: '1', per_page: '100' },
    ]);
    expect(reply.visibility).toBe('channel');
    const table = tableOf(reply);
    expect(table.caption).toBe(`${LIST}, contacts 1–4`);
    // Proposed rate: one contact has one; Agreed rate: none has one yet, so no column.
    expect(table.columns).toEqual([
      { label: 'Creator', align: 'left' },
      { label: 'Status', align: 'left' },
      { label: 'Followers', align: 'right' },
      { label: 'Engagement (%)', align: 'right' },
      { label: 'Proposed rate', align: 'right' },
      { label: 'Last contact', align: 'left' },
    ]);
    const listed = await contacts();
    expect(table.rows).toHaveLength(4);
    for (const [index, contact] of listed.entries()) {
      const row = table.rows[index] ?? [];
      const creator = contact.influencer as { nickname: string; followers: number; engagement_rate: number };
      expect(row[0]?.text).toBe(`@${contact.handle} · ${creator.nickname}`);
      expect(row[1]?.text).toBe(contact.status === 'TO_OUTREACH' ? 'To outreach' : 'Outreached');
      expect(row[2]?.number).toBe(creator.followers);
      expect(row[3]?.number).toBeCloseTo(creator.engagement_rate * 100, 4);
      expect(row[4]?.number).toBe(contact.proposed_rate ?? null);
      expect(row[5]?.text).toBe('—');
    }
    expect(table.rows.map((row) => row[4]?.text)).toContain('1,500');
    const [menu, ...more] = selectsOf(reply);
    expect(more).toEqual([]);
    expect(menu?.placeholder).toBe('Act on a contact…');
    expect(menu?.options.map((o) => [o.value, o.label])).toEqual(
      listed.map((c) => [c.id, table.rows[listed.indexOf(c)]?.[0]?.text]),
    );
    expect(reply.nodes.some((n) => n.type === 'pager' || n.type === 'card')).toBe(false);
    const out = await h.type(`list show ${listId}`);
    expect(out).toContain(`${LIST} · 4 contacts`);
    expect(out).toMatch(/^Creator +Status +Followers +Engagement \(%\) +Proposed rate +Last contact$/m);
    expect(out).toMatch(/^@\S+ · .+ {2,}Outreached +[\d.]+K? +[\d.]+ +— +—$/m);
    for (const contact of listed) expect(out).not.toContain(contact.user_id as string);
  });

  it('shows a chosen contact with its notes and every action, to the one who chose it', async () => {
    await h.type(`list "${LIST}"`);
    const out = await h.type('1.1');
    const [first] = await contacts();
    expect(out).toContain(`@${first?.handle}`);
    expect(out).toContain('Notes: Met at the expo');
    expect(out).toContain('[1] Set status  [2] Edit  [3] Remove');
    const page = await h.app.dispatcher.text({ ...invocation, text: `list "${LIST}"` });
    const { result: chosen, requests } = await sent(() => choose(page, first as CrmContact));
    expect(chosen.visibility).toBe('author');
    expect(writes(requests)).toEqual([]);
    expect(requests.map((r) => r.path)).toEqual([`/api/v2/crm/lists/${listId}/creators`]);
    const [menu] = selectsOf(page);
    const nothing = await sent(() =>
      h.app.dispatcher.action({ ...invocation, token: menu?.actionId as string }),
    );
    expect(renderText(nothing.result).text).toContain('Choose a contact in the menu.');
    expect(nothing.requests).toEqual([]);
  });

  it('pages with a page size, in place', async () => {
    const { result: out, requests } = await sent(() => h.type(`list "${LIST}" limit:3`));
    expect(requests.at(-1)?.query).toEqual({ page: '1', per_page: '3' });
    expect(out).toContain('Page 1 of 2');
    expect(out).toContain('This table shows contacts 1–3 of 4. See the other 1 contact with the pager below');
    const next = await sent(() => h.type('next'));
    expect(next.requests.map((r) => r.query)).toEqual([{ page: '2', per_page: '3' }]);
    expect(next.result).toContain('Page 2 of 2');
    expect(next.result).toContain(`${LIST}, contacts 4–4:`);
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
    expect(requests.at(-1)?.query).toEqual({ page: '1', per_page: '100', status: 'TO_OUTREACH' });
    expect(out).toContain(`${LIST} · 1 contact with status To outreach`);
    expect(out).toContain(`${LIST}, contacts 1–1 with status To outreach:`);
  });

  it('refuses bad options before sending anything', async () => {
    for (const [line, message] of [
      [`list "${LIST}" perPage:101`, 'Error: perPage takes a whole number from 1 to 100, not "101".'],
      [`list "${LIST}" page:0`, 'Error: page must be a whole number of at least 1.'],
      [`list "${LIST}" status:negotiatin`, 'Did you mean "Negotiating"?'],
      [
        `list "${LIST}" status:sleeping`,
        'Allowed: To outreach, Outreached, Negotiating, Working, Done, Cancelled.',
      ],
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
    const [first] = await contacts();
    // The table's menu, then the contact's own buttons.
    expect(await h.type('1.1')).toContain(`@${first?.handle}`);
    const picker = await h.type('set 1');
    expect(picker).toContain(`New status for @${first?.handle} in ${LIST}:`);
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
    expect(contactId).toBe(first?.id);
    expect((await contacts()).find((c) => c.id === contactId)?.status).toBe('NEGOTIATING');
  });

  it('"Set status" takes the status typed after it', async () => {
    await h.type(`list "${LIST}" page:1`);
    const second = (await contacts())[1] as CrmContact;
    await h.type('1.2');
    const { result: out, requests } = await sent(() => h.type('set 1 working'));
    const patch = requests.find((r) => r.method === 'PATCH');
    expect(patch?.path).toBe(`/api/v2/crm/contacts/${second.id}`);
    expect(patch?.body).toEqual({ status: 'WORKING' });
    expect(out).toContain('Status: Working');
    const bad = await sent(() => h.type('set 1 to sleeping'));
    expect(bad.result).toContain('status cannot be "sleeping"');
    expect(writes(bad.requests)).toEqual([]);
  });

  it('"Edit" prints the contact form\'s command line filled in, then runs it with what is typed after it', async () => {
    await h.type(`list "${LIST}" perPage:1`);
    const [first] = (await h.app.service.crm.listCreators({ listId, perPage: 1 })).data.items;
    await h.type('1.1');
    const help = await h.type('edit 1');
    // The list by its name and the creator by handle, as people type them: no id of the service.
    expect(help).toContain(
      `/scout list update list:"${LIST}" creator:@${first?.handle} [status:negotiating]`,
    );
    expect(help).not.toContain(listId);
    expect(help).not.toContain(first?.user_id as string);
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
    const [contact] = (await h.app.service.crm.listCreators({ listId, perPage: 2, page: 2 })).data.items;
    const token = tokenOf(await choose(page, contact as CrmContact), 'Edit');
    const lookup = (t: string) => h.app.store.actions.lookup(t, LOCAL_ACTOR, new Date());
    const spec = await openForm({ registry: h.app.registry, lookup }, token);
    if (spec === null) throw new Error('Edit opened no form');
    expect(spec).toMatchObject({
      family: 'list',
      command: 'update',
      fixed: { list: LIST, creator: `@${contact?.handle}` },
    });
    const status = spec.fields[0];
    expect(status?.name).toBe('status');
    expect(status?.choices).toEqual([
      'To outreach',
      'Outreached',
      'Negotiating',
      'Working',
      'Done',
      'Cancelled',
    ]);
    expect(status?.hint).toContain('To outreach, Outreached, Negotiating, Working, Done');
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
    // A contact known by no handle is named by its creator id, the only name it has; the list by its name.
    expect(form?.fixed).toEqual({ list: LIST, creator: contact?.user_id });
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
    expect(requests.find((r) => r.path.endsWith('/check'))?.body).toEqual({ userIds: [id(0), id(7)] });
    // The creator in the list as people read it, not by the service's id.
    const member = await contactOf(id(0));
    const label = `@${member.handle} · ${(member.influencer as { nickname: string }).nickname}`;
    expect(out).toContain(`${LIST} · 1 of 2 checked are in the list`);
    expect(out).toContain(`Checked in ${LIST}:`);
    expect(out).toMatch(/^Creator +In the list +Status +Added +Updated$/m);
    const day = '\\d{4}-\\d{2}-\\d{2}';
    const status = CRM_STATUS_LABELS[member.status as CrmStatus];
    expect(out).toMatch(new RegExp(`^${escaped(label)} +Yes +${status} +${day} +${day}$`, 'm'));
    expect(out).not.toContain(id(0));
    expect(out).toMatch(new RegExp(`^${id(7)} +No +— +— +—$`, 'm'));
    expect(out).not.toMatch(/TO_OUTREACH|OUTREACHED|NEGOTIATING|WORKING|CANCELLED/);
    const reply = await h.app.dispatcher.text({
      ...invocation,
      text: `list check "${LIST}" ${id(7)} ${id(0)}`,
    });
    expect(reply.visibility).toBe('channel');
    expect(tableOf(reply).rows.map((row) => row.map((cell) => cell.text).slice(0, 2))).toEqual([
      [id(7), 'No'],
      [label, 'Yes'],
    ]);
    const missing = await sent(() => h.type(`list check "${LIST}"`));
    expect(missing.result).toContain('Error: Give one or more creator ids after the list name.');
    expect(missing.requests).toEqual([]);
  });

  it('asks to remove a creator found by handle by that handle alone', async () => {
    const [contact] = (await h.app.service.crm.listCreators({ listId, perPage: 1 })).data.items;
    const asked = await h.type(`list remove "${LIST}" @${contact?.handle}`);
    expect(asked).toContain(`Remove @${contact?.handle} (`);
    expect(asked).not.toContain(contact?.user_id as string);
    await h.type('cancel');
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
    expect(check).toMatch(new RegExp(`^${id(2)} +No +— +— +—$`, 'm'));
    const again = await h.type(`list add "${LIST}" ${id(2)}`);
    expect(again).toContain(`Added 1 creator to ${LIST} (1 back on the list).`);
  });

  it("a chosen contact's Remove asks with its status now, then removes it once confirmed", async () => {
    const page = await h.app.dispatcher.text({ ...invocation, text: `list "${LIST}"` });
    const target = (await contacts()).find((c) => c.user_id === id(3)) as CrmContact;
    const chosen = await choose(page, target);
    // Changed since the table was read: the question says the status it has now.
    await h.app.service.crm.updateContact({ contactId: target.id, status: 'DONE' });
    const asked = await sent(() =>
      h.app.dispatcher.action({ ...invocation, token: tokenOf(chosen, 'Remove') }),
    );
    // Only read (the membership check, a POST that changes nothing): nothing is removed before a confirmation.
    expect(asked.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      `POST /api/v2/crm/lists/${listId}/creators/check`,
    ]);
    expect(asked.result.visibility).toBe('author');
    const question = renderText(asked.result).text;
    expect(question).toContain(`Remove @${target.handle} (Done) from ${LIST}?`);
    expect(question).not.toContain(id(3));
    const removed = await sent(() =>
      h.app.dispatcher.action({ ...invocation, token: tokenOf(asked.result, 'Confirm removal') }),
    );
    expect(removed.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      `DELETE /api/v2/crm/lists/${listId}/creators/${id(3)}`,
    ]);
    expect(renderText(removed.result).text).toContain(`Removed @${target.handle} from ${LIST}.`);
    expect(await contactOf(id(3))).toBeUndefined();
    const gone = await choose(page, target);
    expect(renderText(gone).text).toContain(`That contact is no longer in ${LIST}.`);
    await h.type(`list add "${LIST}" ${id(3)}`);
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

describe('a list of more than 100 contacts', () => {
  const BIG = 'Scout Contacts Big';
  let bigId: string;
  const SIZE = 123;

  beforeAll(async () => {
    const { crm, creators } = h.app.service;
    bigId = (await crm.createList({ name: BIG })).data.id;
    const found: string[] = [];
    for (let page = 1; found.length < SIZE; page++)
      found.push(...(await creators.search({ perPage: 100, page })).data.items);
    await crm.addCreators({ listId: bigId, userIds: found.slice(0, SIZE) });
  });

  it('reads 100 in one request, reaches each with a menu, and says how to see the rest', async () => {
    const { result: reply, requests } = await sent(() =>
      h.app.dispatcher.text({ ...invocation, text: `list "${BIG}"` }),
    );
    const reads = requests.filter((r) => r.path === `/api/v2/crm/lists/${bigId}/creators`);
    expect(reads.map((r) => r.query)).toEqual([{ page: '1', per_page: '100' }]);
    const page = (await h.app.service.crm.listCreators({ listId: bigId, perPage: 100 })).data.items;
    expect(tableOf(reply).rows.map((row) => row[0]?.text)).toHaveLength(100);
    expect(tableOf(reply).caption).toBe(`${BIG}, contacts 1–100`);
    const menus = selectsOf(reply);
    expect(menus.map((m) => m.placeholder)).toEqual([
      'Act on contacts 1–25…',
      'Act on contacts 26–50…',
      'Act on contacts 51–75…',
      'Act on contacts 76–100…',
    ]);
    expect(menus.flatMap((m) => m.options.map((o) => o.value))).toEqual(page.map((c) => c.id));
    const text = renderText(reply).text;
    expect(text).toContain(`${BIG} · ${SIZE} contacts`);
    expect(text).toContain(
      `This table shows contacts 1–100 of ${SIZE}. See the other 23 contacts with the pager below, all of them in a file with /scout list export "${BIG}", or one status at a time: /scout list "${BIG}" status:negotiating.`,
    );
    expect(reply.nodes.find((n) => n.type === 'pager')).toMatchObject({ page: 1, totalPages: 2 });

    const last = page.at(-1) as CrmContact;
    const chosen = renderText(await choose(reply, last)).text;
    expect(chosen).toContain(`@${last.handle}`);

    await h.type(`list "${BIG}"`);
    const next = await sent(() => h.type('next'));
    expect(next.requests.map((r) => r.query)).toEqual([{ page: '2', per_page: '100' }]);
    expect(next.result).toContain(`${BIG}, contacts 101–${SIZE}:`);
    expect(next.result).toContain(
      `This table shows contacts 101–${SIZE} of ${SIZE}. See the other 100 contacts`,
    );
    expect(next.result).toContain('[1] Act on a contact…');
  });

  it('names the status in the export it points to when a status is shown', async () => {
    const out = await h.type(`list "${BIG}" status:"to outreach" perPage:50`);
    expect(out).toContain(`/scout list export "${BIG}" status:to_outreach.`);
    expect(out).not.toContain('one status at a time');
  });
});

describe('status hints', () => {
  /** Statuses a text offers: `status:<value>` examples, and enumerations (`a, b, c or d`) on help's status lines. */
  function hintsIn(text: string): string[] {
    const examples = [...text.matchAll(/status:([^\s"<…]+)/g)].map((m) => m[1] as string);
    const listed = text
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line.startsWith('status: '))
      .flatMap((line) => [...line.matchAll(/(?:: |\()([^():.]+)[.)]/g)])
      .map((m) => (m[1] as string).split(/, | or /))
      .filter((items) => items.length >= 3)
      .flat();
    return [...new Set([...examples, ...listed])];
  }

  it('offers only statuses that work typed as shown, every allowed one among them', async () => {
    await h.type(`list "${LIST}" perPage:1`);
    await h.type('1.1');
    const texts = [await h.type('help list show'), await h.type('help list update'), await h.type('edit 1')];
    const hints = texts.flatMap(hintsIn);
    expect(hints.length).toBeGreaterThan(CRM_STATUSES.length);
    const sentStatuses = new Set<unknown>();
    for (const hint of hints) {
      // Help asks for quotes around a value of several words ("To outreach").
      const { result: out, requests } = await sent(() => h.type(`list "${LIST}" status:${quoteValue(hint)}`));
      expect(out, hint).not.toMatch(/^Error: /);
      const read = requests.filter((r) => r.path === `/api/v2/crm/lists/${listId}/creators`);
      expect(read, hint).toHaveLength(1);
      sentStatuses.add(read[0]?.query.status);
    }
    expect([...sentStatuses].sort()).toEqual([...CRM_STATUSES].sort());
  });
});
