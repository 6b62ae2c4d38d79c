/**
 * Several creators of a result page over Slack, through real Bolt against the fake Slack and the sandbox: the
 * page's multi-select ("Choose creators to add…") arrives as a block action's `selected_options`, asks which list
 * as Add to list does and adds exactly the chosen creators in one CRM request, once however often Slack delivers
 * it; Add all N results adds every result in one request; a list named that no one has is offered as Create
 * "<name>" and add, one press.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SlackAdapter } from '../../../src/adapters/slack/index.js';
import { TYPE_PREFIX, VALUE_MODAL } from '../../../src/adapters/slack/value-modal.js';
import {
  blockActionPayload,
  type ResponsePost,
  slashCommandBody,
  viewSubmissionPayload,
} from '../../fakes/slack-api.js';
import {
  responseTo as answerTo,
  type Block,
  buttonIds,
  sendForm,
  sendPayload,
  startBotAdapter,
  startWorld,
  type World,
} from './helpers.js';

const KEY = 'slack-test-key-0001';

let world: World;
let adapter: SlackAdapter;

beforeAll(async () => {
  world = await startWorld();
  adapter = await startBotAdapter(world.app, world.slack);
});

afterAll(async () => {
  await adapter.stop();
  await world.stop();
});

const send = async (form: Record<string, string>) => (await sendForm(adapter.port, form)).status;
const press = async (payload: Record<string, unknown>) => (await sendPayload(adapter.port, payload)).status;
const responseTo = (id: string): Promise<ResponsePost> => answerTo(world.slack, id);
const blocksOf = (post: ResponsePost) => (post.body.blocks ?? []) as Block[];

type Element = {
  type: string;
  action_id: string;
  value?: string;
  placeholder?: { text: string };
  options?: Array<{ value: string; text: { text: string } }>;
};
const elementsOf = (blocks: readonly Block[]) =>
  blocks.filter((b) => b.type === 'actions').flatMap((b) => b.elements as Element[]);

const requests = () => world.sandbox.requests(KEY);
const adds = (from: number) =>
  requests()
    .slice(from)
    .filter((r) => r.method === 'POST' && /^\/api\/v2\/crm\/lists\/[^/]+\/creators$/.test(r.path));
const addedIds = (from: number) => (adds(from)[0]?.body as { userIds?: string[] } | undefined)?.userIds ?? [];
const members = async (listId: string) =>
  (await world.app.service.crm.listCreators({ listId, perPage: 500 })).data.items
    .map((c) => c.user_id)
    .sort();

/** A block action of the multi-select `actionId` with `values` chosen, as Slack sends it. */
function multiChoice(actionId: string, values: readonly string[], responseUrl: string) {
  return {
    ...blockActionPayload({ actionId, responseUrl }),
    actions: [
      {
        type: 'multi_static_select',
        action_id: actionId,
        block_id: 'b1',
        selected_options: values.map((value) => ({ text: { type: 'plain_text', text: value }, value })),
        action_ts: '1',
      },
    ],
  };
}

/** Runs a search and returns its page, the multi-select of its creators and their ids in card order. */
async function searchPage(name: string, category: string) {
  await send(
    slashCommandBody({ text: `creators category:${category}`, responseUrl: world.slack.responseUrl(name) }),
  );
  const page = await responseTo(name);
  const chooser = elementsOf(blocksOf(page)).find((e) => e.placeholder?.text === 'Choose creators to add…');
  expect(chooser?.type).toBe('multi_static_select');
  const ids = chooser?.options?.map((o) => o.value) ?? [];
  expect(ids).toHaveLength(5);
  return { page, chooser: chooser as Element, ids };
}

/** Chooses `listId` in the list picker `picker`; resolves with the answer. */
async function chooseList(picker: ResponsePost, listId: string, name: string) {
  const select = elementsOf(blocksOf(picker)).find((e) => e.type === 'static_select');
  expect(select?.options?.map((o) => o.value)).toContain(listId);
  const choice = blockActionPayload({
    actionId: select?.action_id as string,
    value: listId,
    ephemeral: true,
    responseUrl: world.slack.responseUrl(name),
  });
  await press(choice);
  return {
    answer: await responseTo(name),
    again: () => press({ ...choice, response_url: world.slack.responseUrl(`${name}-again`) }),
  };
}

describe('Slack: choosing creators of a page', () => {
  it('adds exactly the chosen creators in one request, after asking which list, once', async () => {
    const list = (await world.app.service.crm.createList({ name: 'Slack Chosen' })).data;
    const { chooser, ids } = await searchPage('choose', 'Fitness');
    const balance = world.sandbox.credits(KEY);

    let from = requests().length;
    await press(
      multiChoice(chooser.action_id, [ids[1] as string, ids[3] as string], world.slack.responseUrl('chosen')),
    );
    const picker = await responseTo('chosen');
    expect(picker.body.response_type).toBe('ephemeral');
    expect(String(picker.body.text)).toMatch(/Add \*?the 2 chosen creators\*? to which list\?/);
    expect(adds(from)).toHaveLength(0);

    from = requests().length;
    const { answer, again } = await chooseList(picker, list.id, 'chosen-added');
    expect(String(answer.body.text)).toContain('Added 2 of the 2 chosen creators to Slack Chosen.');
    expect(adds(from)).toHaveLength(1);
    expect(addedIds(from)).toEqual([ids[1], ids[3]]);
    expect(await members(list.id)).toEqual([ids[1], ids[3]].sort());

    await again();
    await responseTo('chosen-added-again');
    expect(adds(from)).toHaveLength(1);
    expect(world.sandbox.credits(KEY)).toBe(balance);
  });

  it('refuses a choice that is not a creator of the page, sending nothing', async () => {
    const { chooser, ids } = await searchPage('stranger', 'Food');
    const from = requests().length;
    await press(
      multiChoice(
        chooser.action_id,
        [ids[0] as string, 'tiktok_not_on_page'],
        world.slack.responseUrl('stranger-chosen'),
      ),
    );
    const answer = await responseTo('stranger-chosen');
    expect(String(answer.body.text)).toContain(
      'One choice is not a creator of this page: nothing was added.',
    );
    expect(requests().slice(from)).toHaveLength(0);
  });

  it('Add all N results adds every result of the search in one request', async () => {
    const list = (await world.app.service.crm.createList({ name: 'Slack Results' })).data;
    const { page } = await searchPage('results', 'Gaming');
    const label = elementsOf(blocksOf(page))
      .filter((e) => e.type === 'button')
      .map((e) => (e as { text?: { text: string } }).text?.text ?? '')
      .find((text) => /^Add (all|the first) \d+ results$/.test(text));
    expect(label).toBeDefined();
    const count = Number(/\d+/.exec(label as string)?.[0]);
    const [all] = buttonIds(blocksOf(page), label as string);
    await press(
      blockActionPayload({ actionId: all as string, responseUrl: world.slack.responseUrl('results-pick') }),
    );
    const picker = await responseTo('results-pick');
    const from = requests().length;
    const { answer } = await chooseList(picker, list.id, 'results-added');
    expect(String(answer.body.text)).toContain(`Added ${count} of the`);
    expect(adds(from)).toHaveLength(1);
    expect(addedIds(from)).toHaveLength(count);
    expect((await members(list.id)).length).toBe(count);
  });

  it('offers Create "<name>" for a list typed that no one has; one press creates it and adds', async () => {
    // Lists enough that the picker's select cannot show them all: it then takes a name typed in its modal.
    for (let i = 1; i <= 26; i++) await world.app.service.crm.createList({ name: `Slack Season ${i}` });
    const { chooser, ids } = await searchPage('create', 'Travel');
    await press(
      multiChoice(
        chooser.action_id,
        [ids[0] as string, ids[2] as string],
        world.slack.responseUrl('create-chosen'),
      ),
    );
    const picker = await responseTo('create-chosen');
    const typed = elementsOf(blocksOf(picker)).find(
      (e) => e.type === 'button' && e.action_id.startsWith(TYPE_PREFIX),
    );
    const before = world.slack.calls.length;
    await press(
      blockActionPayload({
        actionId: typed?.action_id as string,
        buttonValue: typed?.value as string,
        ephemeral: true,
        responseUrl: world.slack.responseUrl('create-typed'),
      }),
    );
    const open = await world.slack.waitFor(() =>
      world.slack.calls.slice(before).find((c) => c.method === 'views.open'),
    );
    const view = open.args.view as { private_metadata: string; blocks: Block[] };
    const input = view.blocks.find((b) => b.type === 'input') as unknown as {
      block_id: string;
      element: { action_id: string };
    };
    let from = requests().length;
    await press(
      viewSubmissionPayload({
        callbackId: VALUE_MODAL,
        privateMetadata: view.private_metadata,
        values: {
          [input.block_id]: {
            [input.element.action_id]: { type: 'plain_text_input', value: 'Slack Brand New' },
          },
        },
      }),
    );
    const offer = await responseTo('create-typed');
    expect(String(offer.body.text)).toContain('There is no list "Slack Brand New".');
    expect(adds(from)).toHaveLength(0);
    const [create] = buttonIds(blocksOf(offer), 'Create "Slack Brand New" and add');
    expect(create).toBeDefined();

    from = requests().length;
    await press(
      blockActionPayload({
        actionId: create as string,
        ephemeral: true,
        responseUrl: world.slack.responseUrl('created'),
      }),
    );
    const made = await responseTo('created');
    expect(String(made.body.text)).toContain('Created the list Slack Brand New.');
    expect(String(made.body.text)).toContain('Added 2 of the 2 chosen creators to Slack Brand New.');
    const created = requests()
      .slice(from)
      .filter((r) => r.method === 'POST' && r.path === '/api/v2/crm/lists');
    expect(created).toHaveLength(1);
    expect(adds(from)).toHaveLength(1);
    const lists = (await world.app.service.crm.listLists()).data.lists.filter(
      (l) => l.name === 'Slack Brand New',
    );
    expect(lists).toHaveLength(1);
    expect(await members(lists[0]?.id as string)).toEqual([ids[0], ids[2]].sort());
  });
});
