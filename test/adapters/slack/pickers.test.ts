import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSlackAdapter, type SlackAdapter } from '../../../src/adapters/slack/index.js';
import { TYPE_PREFIX, VALUE_MODAL } from '../../../src/adapters/slack/value-modal.js';
import { createLogger } from '../../../src/core/logger.js';
import { notice, reply } from '../../../src/core/ui/index.js';
import {
  blockActionPayload,
  type ResponsePost,
  slashCommandBody,
  viewSubmissionPayload,
} from '../../fakes/slack-api.js';
import { type Block, buttonIds, SECRET, signedPost, startWorld, type World } from './helpers.js';

const KEY = 'slack-test-key-0001';
/** Short enough for a quick test, long enough to see in the fake's clock. */
const PACE_MS = 200;

let world: World;
let adapter: SlackAdapter;

const startAdapter = async (postIntervalMs: number) => {
  const started = createSlackAdapter({
    config: {
      botToken: 'xoxb-test',
      oauth: null,
      signingSecret: SECRET,
      appToken: null,
      apiUrl: world.slack.apiUrl,
      port: 0,
    },
    chat: world.app.chat,
    logger: createLogger({ level: 'silent' }),
    postIntervalMs,
  });
  await started.start();
  return started;
};

beforeAll(async () => {
  world = await startWorld();
  adapter = await startAdapter(PACE_MS);
});

afterAll(async () => {
  await adapter.stop();
  await world.stop();
});

async function send(form: Record<string, string>, target: SlackAdapter = adapter) {
  return (await signedPost(target.port, new URLSearchParams(form).toString())).status;
}

const press = (payload: Record<string, unknown>) => send({ payload: JSON.stringify(payload) });

const responseTo = (id: string): Promise<ResponsePost> =>
  world.slack.waitFor(() => world.slack.responses.find((r) => r.id === id));

const blocksOf = (post: ResponsePost) => (post.body.blocks ?? []) as Block[];

type Element = {
  type: string;
  action_id: string;
  value?: string;
  options?: Array<{ value: string; text: { text: string } }>;
};
const elementsOf = (blocks: readonly Block[]) =>
  blocks.filter((b) => b.type === 'actions').flatMap((b) => b.elements as Element[]);

describe('Slack pickers', () => {
  it('adds to a list the picker cannot show through a modal that takes its name', async () => {
    const names = Array.from({ length: 105 }, (_, i) => `Campaign ${String(i + 1).padStart(3, '0')}`);
    const ids = new Map<string, string>();
    for (const name of names) ids.set((await world.app.service.crm.createList({ name })).data.id, name);

    await send(
      slashCommandBody({ text: 'creators category:Fitness', responseUrl: world.slack.responseUrl('many') }),
    );
    const [add] = buttonIds(blocksOf(await responseTo('many')), 'Add to list');
    const pickUrl = world.slack.responseUrl('many-pick');
    await press(blockActionPayload({ actionId: add as string, responseUrl: pickUrl }));
    const picker = await responseTo('many-pick');
    expect(picker.body.response_type).toBe('ephemeral');
    const elements = elementsOf(blocksOf(picker));
    const select = elements.find((e) => e.type === 'static_select');
    const typed = elements.find((e) => e.type === 'button' && e.action_id.startsWith(TYPE_PREFIX));
    expect(select?.options?.length).toBeLessThan(ids.size);
    expect(typed?.action_id).toBe(`${TYPE_PREFIX}${select?.action_id}`);

    const shown = new Set(select?.options?.map((o) => o.value));
    const [hiddenId, hiddenName] = [...ids].find(([id]) => !shown.has(id)) ?? [];
    expect(hiddenName).toBeDefined();

    const before = world.slack.calls.length;
    const requests = world.sandbox.requests(KEY).length;
    const payload = blockActionPayload({
      actionId: typed?.action_id as string,
      buttonValue: typed?.value as string,
      ephemeral: true,
      responseUrl: world.slack.responseUrl('many-typed'),
    });
    await press(payload);
    const open = await world.slack.waitFor(() =>
      world.slack.calls.slice(before).find((c) => c.method === 'views.open'),
    );
    // The modal is the first thing done: nothing else reached Slack or the service before it.
    expect(world.slack.calls.slice(before)[0]?.method).toBe('views.open');
    expect(world.sandbox.requests(KEY)).toHaveLength(requests);
    expect(open.args.trigger_id).toBe(payload.trigger_id);
    const view = open.args.view as { callback_id: string; private_metadata: string; blocks: Block[] };
    expect(view.callback_id).toBe(VALUE_MODAL);
    const input = view.blocks.find((b) => b.type === 'input') as
      | { block_id: string; element: { action_id: string; type: string } }
      | undefined;
    expect(input?.element.type).toBe('plain_text_input');

    const status = await press(
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
    expect(status).toBe(200);
    // The confirmation replaces the ephemeral picker (the press's response_url): it stays ephemeral.
    const confirmation = await responseTo('many-typed');
    expect(confirmation.body.replace_original).toBe(true);
    expect(confirmation.body.response_type).toBeUndefined();
    expect(String(confirmation.body.text)).toContain(`Added`);
    expect(String(confirmation.body.text)).toContain(hiddenName);
    const contacts = await world.app.service.crm.listCreators({ listId: hiddenId as string });
    expect(contacts.data.items).toHaveLength(1);
  });

  it('shows a list as a data table, and sets a contact status chosen in its menu, confirming ephemerally', async () => {
    const list = (await world.app.service.crm.createList({ name: 'Status board' })).data;
    const userIds = (await world.app.service.creators.search({ perPage: 3 })).data.items;
    await world.app.service.crm.addCreators({ listId: list.id, userIds, status: 'OUTREACHED' });
    const contacts = (await world.app.service.crm.listCreators({ listId: list.id })).data.items;
    await world.app.service.crm.updateContact({ contactId: contacts[1]?.id as string, agreedRate: 1250 });

    await send(
      slashCommandBody({ text: 'list "Status board"', responseUrl: world.slack.responseUrl('view') }),
    );
    const view = await responseTo('view');
    expect(view.body.response_type).toBe('in_channel');
    expect(String(view.body.text)).toContain('3 contacts');
    // The contacts as a data table: paged and sorted in the message, numbers as raw numbers that sort by value.
    const table = blocksOf(view).find((b) => b.type === 'data_table') as
      | { caption: string; page_size: number; rows: Array<Array<Record<string, unknown>>> }
      | undefined;
    expect(table?.caption).toBe('Status board, contacts 1–3');
    expect(table?.rows[0]?.map((cell) => cell.text)).toEqual([
      'Creator',
      'Status',
      'Followers',
      'Engagement (%)',
      'Agreed rate',
      'Last contact',
    ]);
    expect(table?.rows).toHaveLength(1 + contacts.length);
    for (const [index, contact] of contacts.entries()) {
      const row = table?.rows[index + 1] ?? [];
      const creator = contact.influencer as { nickname: string; followers: number };
      expect(row[0]).toEqual({ type: 'raw_text', text: `@${contact.handle} · ${creator.nickname}` });
      expect(row[1]).toEqual({ type: 'raw_text', text: 'Outreached' });
      expect(row[2]).toMatchObject({ type: 'raw_number', value: creator.followers });
      expect(row[3]?.type).toBe('raw_number');
      expect(row[4]).toMatchObject(
        index === 1 ? { type: 'raw_number', value: 1250, text: '1,250' } : { type: 'raw_text', text: '—' },
      );
    }
    const menu = elementsOf(blocksOf(view)).find((e) => e.type === 'static_select');
    expect(menu?.options?.map((o) => o.value)).toEqual(contacts.map((c) => c.id));

    await press(
      blockActionPayload({
        actionId: menu?.action_id as string,
        value: contacts[0]?.id as string,
        responseUrl: world.slack.responseUrl('chosen'),
      }),
    );
    const chosen = await responseTo('chosen');
    expect(chosen.body.response_type).toBe('ephemeral');
    for (const label of ['Set status', 'Edit', 'Remove'])
      expect(buttonIds(blocksOf(chosen), label)).toHaveLength(1);
    const [setStatus] = buttonIds(blocksOf(chosen), 'Set status');

    await press(
      blockActionPayload({ actionId: setStatus as string, responseUrl: world.slack.responseUrl('st') }),
    );
    const picker = await responseTo('st');
    expect(picker.body.response_type).toBe('ephemeral');
    const select = elementsOf(blocksOf(picker)).find((e) => e.type === 'static_select');
    expect(select?.options?.map((o) => o.value)).toEqual(
      expect.arrayContaining(['TO_OUTREACH', 'OUTREACHED', 'NEGOTIATING', 'DONE']),
    );

    const chosenUrl = world.slack.responseUrl('st-chosen');
    await press(
      blockActionPayload({
        actionId: select?.action_id as string,
        value: 'NEGOTIATING',
        ephemeral: true,
        responseUrl: chosenUrl,
      }),
    );
    const confirmation = await responseTo('st-chosen');
    expect(confirmation.body.replace_original).toBe(true);
    expect(confirmation.body.delete_original).toBeUndefined();
    expect(String(confirmation.body.text)).toContain('Negotiating');
    expect(world.slack.responses.filter((r) => r.id === 'st-chosen')).toHaveLength(1);
    const after = await world.app.service.crm.listCreators({ listId: list.id });
    expect(after.data.items[0]?.status).toBe('NEGOTIATING');
  });

  it('spaces background posts per channel, other channels are not held up', async () => {
    const channel = (id: string) => ({ platform: 'slack' as const, workspaceId: 'T0001', channelId: id });
    const message = (n: number) => reply([notice('info', `Digest part ${n}`)]);
    await Promise.all([
      adapter.outbound.post(channel('C0100'), message(1)),
      adapter.outbound.post(channel('C0100'), message(2)),
      adapter.outbound.post(channel('C0100'), message(3)),
      adapter.outbound.post(channel('C0200'), message(4)),
    ]);
    const posts = world.slack.calls.filter((c) => c.method === 'chat.postMessage');
    const paced = posts.filter((c) => c.args.channel === 'C0100');
    expect(paced).toHaveLength(3);
    for (let i = 1; i < paced.length; i++) {
      // Bottleneck spaces the starts of the calls; allow for the request's own travel.
      expect((paced[i]?.at ?? 0) - (paced[i - 1]?.at ?? 0)).toBeGreaterThanOrEqual(PACE_MS - 20);
    }
    const other = posts.findIndex((c) => c.args.channel === 'C0200');
    expect(other).toBeLessThan(posts.indexOf(paced[2] as (typeof posts)[number]));
  });

  it('answers interactions while background posts wait their turn', async () => {
    const slow = await startAdapter(60_000);
    try {
      const channel = { platform: 'slack' as const, workspaceId: 'T0001', channelId: 'C0300' };
      await slow.outbound.post(channel, reply([notice('info', 'First')]));
      const waiting = slow.outbound.post(channel, reply([notice('info', 'Second')]));
      const dropped = expect(waiting).rejects.toThrow();
      await send(
        slashCommandBody({ text: 'help', channelId: 'C0300', responseUrl: world.slack.responseUrl('hi') }),
        slow,
      );
      const answer = await responseTo('hi');
      expect(String(answer.body.text)).not.toBe('');
      const inChannel = world.slack.calls.filter(
        (c) => c.method === 'chat.postMessage' && c.args.channel === 'C0300',
      );
      expect(inChannel).toHaveLength(1);
      await slow.stop();
      await dropped;
    } finally {
      await slow.stop();
    }
  });
});
