/**
 * Add all on this page over Slack, through real Bolt against the fake Slack and the sandbox: the button beside the
 * cards' Add to list opens the same list picker (a select, and the modal that takes a name when the select is
 * full); a choice adds every creator of the page in one CRM request, and a duplicate delivery adds nothing more.
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
  options?: Array<{ value: string; text: { text: string } }>;
};
const elementsOf = (blocks: readonly Block[]) =>
  blocks.filter((b) => b.type === 'actions').flatMap((b) => b.elements as Element[]);

const adds = (from: number) =>
  world.sandbox
    .requests(KEY)
    .slice(from)
    .filter((r) => r.method === 'POST' && /^\/api\/v2\/crm\/lists\/[^/]+\/creators$/.test(r.path));
const members = async (listId: string) =>
  (await world.app.service.crm.listCreators({ listId, perPage: 500 })).data.items
    .map((c) => c.user_id)
    .sort();

/** Runs a search (of profiles not cached yet) and presses Add all on this page: the page's ids and the picker. */
async function pickerForPage(name: string, category: string) {
  const from = world.sandbox.requests(KEY).length;
  await send(
    slashCommandBody({ text: `creators category:${category}`, responseUrl: world.slack.responseUrl(name) }),
  );
  const page = await responseTo(name);
  expect(page.body.response_type).toBe('in_channel');
  expect(buttonIds(blocksOf(page), 'Add to list')).toHaveLength(5);
  const [addAll] = buttonIds(blocksOf(page), 'Add all on this page');
  expect(addAll).toBeDefined();
  const get = world.sandbox
    .requests(KEY)
    .slice(from)
    .find((r) => r.path === '/api/v2/creators/get');
  const ids = ((get?.body as { userIds?: string[] } | undefined)?.userIds ?? []).slice().sort();
  await press(
    blockActionPayload({ actionId: addAll as string, responseUrl: world.slack.responseUrl(`${name}-pick`) }),
  );
  const picker = await responseTo(`${name}-pick`);
  expect(picker.body.response_type).toBe('ephemeral');
  expect(String(picker.body.text)).toMatch(/Add \*?the 5 creators on this page\*? to which list\?/);
  return { ids, picker };
}

describe('Slack: Add all on this page', () => {
  it('adds the page to the list chosen in the select, once, whatever the deliveries', async () => {
    const list = (await world.app.service.crm.createList({ name: 'Slack Page' })).data;
    const { ids, picker } = await pickerForPage('page', 'Fitness');
    const select = elementsOf(blocksOf(picker)).find((e) => e.type === 'static_select');
    expect(select?.options?.map((o) => o.value)).toContain(list.id);

    const from = world.sandbox.requests(KEY).length;
    const choice = blockActionPayload({
      actionId: select?.action_id as string,
      value: list.id,
      ephemeral: true,
      responseUrl: world.slack.responseUrl('page-added'),
    });
    await press(choice);
    const added = await responseTo('page-added');
    const said = String(added.body.text);
    expect(said).toContain('Added 5 of the 5 creators on this page to Slack Page.');
    // The service's counters, as Block Kit fields.
    const counters = blocksOf(added).flatMap((b) => (b.fields ?? []) as Array<{ text: string }>);
    expect(counters.map((f) => f.text)).toEqual(['*Added*\n5', '*Reactivated*\n0', '*Already there*\n0']);
    expect(adds(from)).toHaveLength(1);
    expect(adds(from)[0]?.body).toEqual({ userIds: expect.any(Array), status: 'TO_OUTREACH' });
    expect(await members(list.id)).toEqual(ids);

    // Slack delivers the same choice again (a retry, a double click): nothing more reaches the service.
    await press({ ...choice, response_url: world.slack.responseUrl('page-again') });
    await responseTo('page-again');
    expect(adds(from)).toHaveLength(1);
    expect(await members(list.id)).toEqual(ids);
  });

  it('takes a typed list name through the modal when the select cannot show every list', async () => {
    const names = Array.from({ length: 30 }, (_, i) => `Season ${String(i + 1).padStart(2, '0')}`);
    const created = new Map<string, string>();
    for (const name of names) created.set((await world.app.service.crm.createList({ name })).data.id, name);
    const { ids, picker } = await pickerForPage('full', 'Food');
    const elements = elementsOf(blocksOf(picker));
    const select = elements.find((e) => e.type === 'static_select');
    const typed = elements.find((e) => e.type === 'button' && e.action_id.startsWith(TYPE_PREFIX));
    expect(typed?.action_id).toBe(`${TYPE_PREFIX}${select?.action_id}`);
    const shown = new Set(select?.options?.map((o) => o.value));
    const [hiddenId, hiddenName] = [...created].find(([id]) => !shown.has(id)) ?? [];
    expect(hiddenName).toBeDefined();

    const before = world.slack.calls.length;
    await press(
      blockActionPayload({
        actionId: typed?.action_id as string,
        buttonValue: typed?.value as string,
        ephemeral: true,
        responseUrl: world.slack.responseUrl('full-typed'),
      }),
    );
    const open = await world.slack.waitFor(() =>
      world.slack.calls.slice(before).find((c) => c.method === 'views.open'),
    );
    const view = open.args.view as { callback_id: string; private_metadata: string; blocks: Block[] };
    expect(view.callback_id).toBe(VALUE_MODAL);
    const input = view.blocks.find((b) => b.type === 'input') as
      | { block_id: string; element: { action_id: string } }
      | undefined;

    const from = world.sandbox.requests(KEY).length;
    await press(
      viewSubmissionPayload({
        callbackId: VALUE_MODAL,
        privateMetadata: view.private_metadata,
        values: {
          [input?.block_id as string]: {
            [input?.element.action_id as string]: { type: 'plain_text_input', value: hiddenName },
          },
        },
      }),
    );
    const confirmation = await responseTo('full-typed');
    expect(String(confirmation.body.text)).toContain(
      `Added 5 of the 5 creators on this page to ${hiddenName}.`,
    );
    expect(adds(from)).toHaveLength(1);
    expect(await members(hiddenId as string)).toEqual(ids);
  });
});
