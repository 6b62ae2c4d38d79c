/**
 * `list add` to a list no one has, through the terminal against the sandbox: nothing is created on the words
 * alone; the answer offers Create "<name>" and add (with a suggestion for a near name), and that press creates the
 * list and adds the creators with what was typed, once however often it is pressed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_ACTOR } from '../../src/adapters/terminal/shell.js';
import { helpFamily } from '../../src/commands/help.js';
import { listFamily, listsFamily } from '../../src/commands/lists.js';
import { createManualClock } from '../../src/core/clock.js';
import { type Reply, renderText } from '../../src/core/ui/index.js';
import { type Harness, startHarness } from '../helpers/harness.js';

const clock = createManualClock(Date.now());
let h: Harness;
/** Creator ids that exist in the sandbox. */
let ids: string[];

beforeAll(async () => {
  h = await startHarness({
    clock,
    families: [listsFamily, listFamily, helpFamily],
    rateLimitPerMinute: 1000,
  });
  ids = (await h.app.service.creators.search({ perPage: 5 })).data.items;
});
afterAll(async () => h.stop());

const invocation = { actor: LOCAL_ACTOR, channelId: 'terminal' };
const textOf = (reply: Reply) => renderText(reply).text;
/** The Create "<name>" and add button of an answer. */
function createToken(reply: Reply): string {
  const found = reply.nodes.flatMap((node) => (node.type === 'buttons' ? node.buttons : []));
  const create = found.find((b) => /^Create ".+" and add$/.test(b.label));
  if (create === undefined) throw new Error(`no Create button in ${textOf(reply)}`);
  return create.actionId;
}
const since = (from: number) => h.requests().slice(from);
const calls = (from: number) => since(from).map((r) => `${r.method} ${r.path}`);
const named = async (name: string) =>
  (await h.app.service.crm.listLists()).data.lists.filter((list) => list.name === name);
const members = async (listId: string) =>
  (await h.app.service.crm.listCreators({ listId, perPage: 500 })).data.items;

describe('list add to a list no one has', () => {
  it('offers Create "<name>" and add; its press creates the list and adds with the status typed, once', async () => {
    let from = h.requests().length;
    const offer = await h.type(`list add "Autumn Push" ${ids[0]} ${ids[1]} status:outreached`);
    expect(offer).toContain('There is no list "Autumn Push".');
    expect(offer).toContain('[1] Create "Autumn Push" and add');
    expect(calls(from)).toEqual(['GET /api/v2/crm/lists']);
    expect(await named('Autumn Push')).toHaveLength(0);

    from = h.requests().length;
    const spent = await h.spentToday();
    const made = await h.type('1');
    expect(made).toContain('Created the list "Autumn Push".');
    expect(made).toContain('Added 2 creators to "Autumn Push".'.replace(/"/g, ''));
    expect(calls(from).filter((c) => c === 'POST /api/v2/crm/lists')).toHaveLength(1);
    const adds = since(from).filter((r) => r.method === 'POST' && r.path.endsWith('/creators'));
    expect(adds).toHaveLength(1);
    expect(adds[0]?.body).toEqual({ userIds: [ids[0], ids[1]], status: 'OUTREACHED' });
    const [list] = await named('Autumn Push');
    const contacts = await members(list?.id as string);
    expect(contacts.map((c) => c.user_id).sort()).toEqual([ids[0], ids[1]].sort());
    expect(contacts.every((c) => c.status === 'OUTREACHED')).toBe(true);
    expect(await h.spentToday()).toBe(spent);
  });

  it('a second offer pressed after the first made the list adds there: the list is never made twice', async () => {
    const line = `list add "Harvest Drive" ${ids[2]}`;
    const first = await h.app.dispatcher.text({ ...invocation, text: line });
    clock.advance(11_000);
    const second = await h.app.dispatcher.text({ ...invocation, text: line });
    const [a, b] = [createToken(first), createToken(second)];
    expect(a).not.toBe(b);

    let from = h.requests().length;
    const made = textOf(await h.app.dispatcher.action({ ...invocation, token: a }));
    expect(made).toContain('Created the list "Harvest Drive".');
    // The same press delivered twice: nothing more is sent.
    from = h.requests().length;
    await h.app.dispatcher.action({ ...invocation, token: a });
    expect(since(from)).toHaveLength(0);

    from = h.requests().length;
    const again = textOf(await h.app.dispatcher.action({ ...invocation, token: b }));
    expect(again).toContain('The list "Harvest Drive" exists already: added there.');
    expect(calls(from)).not.toContain('POST /api/v2/crm/lists');
    expect(await named('Harvest Drive')).toHaveLength(1);
    expect((await members((await named('Harvest Drive'))[0]?.id as string)).map((c) => c.user_id)).toEqual([
      ids[2],
    ]);
  });

  it('suggests a list with a near name beside the offer', async () => {
    await h.app.service.crm.createList({ name: 'Winter Launch' });
    const offer = await h.type(`list add "Wintr Launch" ${ids[2]}`);
    expect(offer).toContain('There is no list "Wintr Launch". Did you mean "Winter Launch"?');
    expect(offer).toContain('Create "Wintr Launch" and add');
    expect(await named('Wintr Launch')).toHaveLength(0);
  });
});
