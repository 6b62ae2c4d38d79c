/**
 * Forms on Slack through real Bolt (HTTP mode) against the fake Slack Web API: a bare command that needs an option
 * or filters by ranges opens its form (views.open), a usage message offers a Form button, the contact Edit button
 * opens the contact form, a wrong value is shown on its field (response_action: errors, keyed by block id) with
 * nothing sent to the service, and a right one runs the command and answers as the typed command is answered.
 * Every registered command's form fits Slack's modal limits.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SlackAdapter } from '../../../src/adapters/slack/index.js';
import { SLACK } from '../../../src/adapters/slack/limits.js';
import { FORM_MODAL, formModal, INPUT_LIMITS } from '../../../src/adapters/slack/modals.js';
import { FAMILIES } from '../../../src/commands/index.js';
import { createManualClock } from '../../../src/core/clock.js';
import { formSpec, hasForm } from '../../../src/core/command/forms/index.js';
import { createRegistry } from '../../../src/core/command/registry.js';
import { OUTSIDE_MESSAGE } from '../../../src/core/tenancy/index.js';
import { FORM_MORE } from '../../../src/core/ui/index.js';
import { blockActionPayload, slashCommandBody, viewSubmissionPayload } from '../../fakes/slack-api.js';
import {
  type Block,
  buttonIds,
  responseTo,
  sendForm,
  sendPayload,
  signedPost,
  startBotAdapter,
  startWorld,
  type World,
} from './helpers.js';

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

type Option = { text: { text: string }; value: string };
type Element = {
  type: string;
  action_id: string;
  options?: Option[];
  placeholder?: { text: string };
  initial_value?: string;
};
type InputBlock = {
  type: 'input';
  block_id: string;
  optional?: boolean;
  label: { text: string };
  hint?: { text: string };
  element: Element;
};
type View = {
  callback_id: string;
  private_metadata: string;
  title: { text: string };
  submit?: { text: string };
  close?: { text: string };
  blocks: Array<Block | InputBlock>;
};

const inputs = (view: View) => view.blocks.filter((b): b is InputBlock => b.type === 'input');

/** The view of the next views.open after `before` calls. */
async function opened(before: number, slack = world.slack): Promise<{ view: View; triggerId: unknown }> {
  const open = await slack.waitFor(() => slack.calls.slice(before).find((c) => c.method === 'views.open'));
  return { view: open.args.view as View, triggerId: open.args.trigger_id };
}

/**
 * Submits a form view with `values` (block id → action value), by `from` (U0001 of the served workspace by
 * default); resolves with the ack's body (null if empty).
 */
async function submit(
  view: View,
  values: Record<string, Record<string, unknown>>,
  from: { teamId?: string; userId?: string } = {},
  port = adapter.port,
) {
  const payload = viewSubmissionPayload({
    callbackId: view.callback_id,
    privateMetadata: view.private_metadata,
    values: Object.fromEntries(Object.entries(values).map(([block, value]) => [block, { value }])),
    ...from,
  });
  const res = await signedPost(port, new URLSearchParams({ payload: JSON.stringify(payload) }).toString());
  expect(res.status).toBe(200);
  return res.text === ''
    ? null
    : (JSON.parse(res.text) as { response_action?: string; errors?: Record<string, string> });
}

const typed = (value: string) => ({ type: 'plain_text_input', value });
const chosen = (value: string) => ({ type: 'static_select', selected_option: { value } });
const searches = () => world.sandbox.requests().filter((r) => r.path.startsWith('/api/v2/creators')).length;

describe('forms on Slack', () => {
  it('a bare /scout creators opens its form; wrong values are shown on their fields and nothing is sent', async () => {
    const before = world.slack.calls.length;
    const url = world.slack.responseUrl('bare');
    await sendForm(adapter.port, slashCommandBody({ text: 'creators', responseUrl: url }));
    const { view } = await opened(before);
    expect(view.callback_id).toBe(FORM_MODAL);
    const blocks = inputs(view);
    expect(blocks.slice(0, 4).map((b) => b.block_id)).toEqual(['source', 'followers', 'country', 'language']);
    // A short list of choices is a select; a long one (every country) a text input whose hint says so.
    expect(blocks.find((b) => b.block_id === 'source')?.element.type).toBe('static_select');
    const country = blocks.find((b) => b.block_id === 'country');
    expect(country?.element.type).toBe('plain_text_input');
    expect(country?.hint?.text).toMatch(/\d{3} values, e\.g\./);
    const followers = blocks.find((b) => b.block_id === 'followers');
    expect(followers?.hint?.text).toBe('Follower count range, e.g. 10k-100k or >50k. 0 or more.');
    expect(JSON.stringify(blocks.find((b) => b.block_id === 'perPage'))).toContain(
      'Creators per page, 1 to 10',
    );

    const spent = searches();
    const ack = await submit(view, {
      followers: typed('lots'),
      country: typed('Germny'),
      bio: typed('yoga'),
    });
    expect(ack?.response_action).toBe('errors');
    expect(Object.keys(ack?.errors ?? {}).sort()).toEqual(['country', 'followers']);
    expect(ack?.errors?.country).toContain('Did you mean "Germany"?');
    expect(ack?.errors?.followers).toContain('"lots"');
    expect(searches()).toBe(spent);

    expect(await submit(view, { followers: typed('10k-100k'), country: typed('germany') })).toBeNull();
    const answer = await responseTo(world.slack, 'bare');
    expect(answer.body.response_type).toBe('in_channel');
    const search = world.sandbox
      .requests()
      .find((r) => r.path === '/api/v2/creators/search' && r.query?.country);
    expect(search?.query).toMatchObject({
      followersMin: '10000',
      followersMax: '100000',
      country: 'Germany',
    });
  });

  it('refuses a form submitted from outside before checking any of its fields', async () => {
    const before = world.slack.calls.length;
    await sendForm(
      adapter.port,
      slashCommandBody({ text: 'creators', responseUrl: world.slack.responseUrl('outside-form') }),
    );
    const { view } = await opened(before);
    const calls = world.slack.calls.length;
    const spent = world.sandbox.requests().length;
    const ack = await submit(
      view,
      { followers: typed('lots'), country: typed('Germny') },
      { teamId: 'TFOREIGN01', userId: 'UOUTSIDER' },
    );
    // No field is marked: the checks of what an outsider typed are not theirs to read.
    expect(ack).toBeNull();
    const answer = await responseTo(world.slack, 'outside-form');
    expect(String(answer.body.text)).toContain(OUTSIDE_MESSAGE);
    expect(answer.body.response_type).toBe('ephemeral');
    expect(world.slack.calls.slice(calls)).toEqual([]);
    expect(world.sandbox.requests().length).toBe(spent);
  });

  it('a bare command that needs an option opens its form; the schema’s bounds are checked on the fields', async () => {
    const before = world.slack.calls.length;
    await sendForm(
      adapter.port,
      slashCommandBody({ text: 'remix video', responseUrl: world.slack.responseUrl('remix') }),
    );
    const { view } = await opened(before);
    const blocks = inputs(view);
    expect(blocks[0]).toMatchObject({ block_id: 'url', optional: false });
    expect(blocks.find((b) => b.block_id === 'brightness')?.hint?.text).toContain('From -1 to 1.');
    const ack = await submit(view, { url: typed('https://example.com/v.mp4'), brightness: typed('7') });
    expect(ack?.response_action).toBe('errors');
    expect(Object.keys(ack?.errors ?? {})).toEqual(['brightness']);
  });

  it('each problem is a sentence under its field, naming the field once and ending with a period', async () => {
    const before = world.slack.calls.length;
    const url = world.slack.responseUrl('remix-sentences');
    await sendForm(adapter.port, slashCommandBody({ text: 'remix video', responseUrl: url }));
    const { view } = await opened(before);
    const ack = await submit(view, { url: typed('ftp://x'), brightness: typed('7') });
    expect(ack?.errors).toEqual({
      url: 'URL must be an http(s) URL such as https://example.com/clip.mp4.',
      brightness: 'Brightness must be a number from -1 to 1.',
    });
    const search = world.slack.calls.length;
    await sendForm(adapter.port, slashCommandBody({ text: 'creators', responseUrl: url }));
    const creators = (await opened(search)).view;
    const refused = await submit(creators, { followers: typed('>-5'), engagementRate: typed('150') });
    expect(refused?.errors).toEqual({
      followers: 'Followers ">-5" is not a range Scout reads: numbers here are 0 or more, such as 10k-100k.',
      engagementRate: '"150" is out of range: Engagement rate (%) is a percentage, from 0 to 100.',
    });
  });

  it('a field’s hint gives the bounds and examples the command line takes', async () => {
    const hintsOf = async (text: string) => {
      const before = world.slack.calls.length;
      await sendForm(adapter.port, slashCommandBody({ text, responseUrl: world.slack.responseUrl('hints') }));
      const { view } = await opened(before);
      return Object.fromEntries(inputs(view).map((b) => [b.block_id, b.hint?.text ?? '']));
    };
    const creators = await hintsOf('creators');
    expect(creators.perPage).toContain('From 1 to 10.');
    expect(creators.perPage).not.toContain('100');
    expect(creators.engagementRate).toContain('A range such as 2-5, >3 or <=10. From 0 to 100.');
    expect(creators.engagementRate).not.toMatch(/10k|0 or more/);
    expect(creators.uploadsPerWeek).not.toContain('10k');
    const viral = await hintsOf('viral');
    expect(viral.viralityScore).toContain('From 0 to 1.');
    expect(viral.viralityScore).not.toMatch(/10k|0 or more/);
    expect((await hintsOf('list add')).userIds).toBe(
      'Creator ids (tiktok_123) or @handles, separated by spaces, commas or new lines.',
    );
    expect((await hintsOf('songs search')).q).toBe('Words of the title or artist.');
  });

  it('a bare command whose schema needs something opens its form, though no option is declared required', async () => {
    for (const [command, field] of [
      ['songs search', 'q'],
      ['remix image', 'urls'],
    ] as const) {
      const before = world.slack.calls.length;
      const url = world.slack.responseUrl(`bare-${field}`);
      await sendForm(adapter.port, slashCommandBody({ text: command, responseUrl: url }));
      const { view } = await opened(before);
      expect(view.title.text, command).toBe(command);
      expect(inputs(view)[0], command).toMatchObject({ block_id: field, optional: false });
      // The form is the answer: nothing was said at the response_url.
      expect(world.slack.responses.filter((r) => r.id === `bare-${field}`)).toEqual([]);
    }
  });

  it('the help of one command has a Form button, for commands that run bare too', async () => {
    for (const [line, id] of [
      ['help outreach messages', 'scout.form-of:outreach.messages'],
      ['help notify off', 'scout.form-of:notify.off'],
      ['help help show', 'scout.form-of:help.show'],
    ] as const) {
      const url = world.slack.responseUrl(line.replace(/ /g, '-'));
      await sendForm(adapter.port, slashCommandBody({ text: line, responseUrl: url }));
      const help = await responseTo(world.slack, line.replace(/ /g, '-'));
      expect(buttonIds((help.body.blocks ?? []) as Block[], 'Form'), line).toEqual([id]);
    }
    // A family's help, of many commands, has none.
    await sendForm(
      adapter.port,
      slashCommandBody({ text: 'help outreach', responseUrl: world.slack.responseUrl('help-family') }),
    );
    const family = await responseTo(world.slack, 'help-family');
    expect(buttonIds((family.body.blocks ?? []) as Block[], 'Form')).toEqual([]);
    const before = world.slack.calls.length;
    await sendPayload(
      adapter.port,
      blockActionPayload({
        actionId: 'scout.form-of:outreach.messages',
        responseUrl: world.slack.responseUrl('messages-form'),
      }),
    );
    const { view } = await opened(before);
    expect(view.title.text).toBe('outreach messages');
  });

  it('a person is picked in a form (a text input cannot carry a mention); everyone is ticked instead', async () => {
    // An admin Scout has not asked Slack about yet (what it says of a person is kept for a while).
    const admin = { userId: 'UFORMADMIN' };
    world.slack.admins.add(admin.userId);
    const capOf = (userId: string) =>
      world.app.store.settings.dailyCap({ platform: 'slack', workspaceId: 'T0001', userId });
    const open = async (line: string) => {
      const before = world.slack.calls.length;
      await sendForm(
        adapter.port,
        slashCommandBody({
          text: line,
          responseUrl: world.slack.responseUrl(line.replace(/ /g, '-')),
          ...admin,
        }),
      );
      return (await opened(before)).view;
    };
    const view = await open('credits cap');
    const blocks = inputs(view);
    expect(blocks.map((b) => [b.block_id, b.element.type])).toEqual([
      ['who', 'users_select'],
      ['who+also', 'checkboxes'],
      ['amount', 'plain_text_input'],
    ]);
    const picked = { type: 'users_select', selected_user: 'U0BOB' };
    const everyone = { type: 'checkboxes', selected_options: [{ value: 'everyone' }] };

    const both = await submit(view, { who: picked, 'who+also': everyone, amount: typed('100') }, admin);
    expect(both).toEqual({ response_action: 'errors', errors: { who: expect.stringContaining('not both') } });
    const nobody = await submit(view, { amount: typed('100') }, admin);
    expect(nobody?.errors).toEqual({ who: 'Who is required.' });

    expect(await submit(view, { who: picked, amount: typed('100') }, admin)).toBeNull();
    const set = await responseTo(world.slack, 'credits-cap');
    expect(String(set.body.text)).toContain('The daily cap of <@U0BOB> is now 100 credits.');
    expect(await capOf('U0BOB')).toBe(100);

    expect(await submit(view, { 'who+also': everyone, amount: typed('500') }, admin)).toBeNull();
    await world.slack.waitFor(() =>
      world.slack.responses.find(
        (r) => r.id === 'credits-cap' && String(r.body.text).includes('Everyone’s default daily cap'),
      ),
    );

    const admins = await open('admins add');
    expect(inputs(admins).map((b) => [b.block_id, b.element.type, b.optional])).toEqual([
      ['who', 'users_select', false],
    ]);
    expect(await submit(admins, { who: { type: 'users_select', selected_user: 'U0CAT' } }, admin)).toBeNull();
    const added = await responseTo(world.slack, 'admins-add');
    expect(String(added.body.text)).toContain('<@U0CAT> is now a Scout admin.');
  });

  it('a usage message carries a Form button that opens the command’s form', async () => {
    const url = world.slack.responseUrl('usage');
    await sendForm(adapter.port, slashCommandBody({ text: 'creators followers:lots', responseUrl: url }));
    const usage = await responseTo(world.slack, 'usage');
    expect(String(usage.body.text)).toContain('followers');
    const [form] = buttonIds((usage.body.blocks ?? []) as Block[], 'Form');
    expect(form).toBe('scout.form-of:creators.search');
    const before = world.slack.calls.length;
    await sendPayload(
      adapter.port,
      blockActionPayload({
        actionId: form as string,
        ephemeral: true,
        responseUrl: world.slack.responseUrl('f'),
      }),
    );
    const { view } = await opened(before);
    expect(view.callback_id).toBe(FORM_MODAL);
    expect(view.title.text).toBe('creators search');
  });

  it('a field’s text is sent as typed, quotes and apostrophes included', async () => {
    const queries: string[] = [];
    for (const [index, q] of [`Don't Stop Believin'`, 'say "hi" there'].entries()) {
      const before = world.slack.calls.length;
      const url = world.slack.responseUrl(`song-${index}`);
      await sendPayload(
        adapter.port,
        blockActionPayload({ actionId: 'scout.form-of:songs.search', responseUrl: url }),
      );
      const { view } = await opened(before);
      expect(await submit(view, { q: typed(q) })).toBeNull();
      await responseTo(world.slack, `song-${index}`);
      const searched = world.sandbox
        .requests()
        .filter((r) => r.path === '/api/v1/songs' && r.query?.action === 'search')
        .at(-1);
      queries.push(String(searched?.query?.q));
    }
    expect(queries).toEqual([`Don't Stop Believin'`, 'say "hi" there']);
  });

  it('the contact Edit button opens the contact form, not another message; its submission updates the contact', async () => {
    const list = (await world.app.service.crm.createList({ name: 'Form board' })).data;
    const [userId] = (await world.app.service.creators.search({ perPage: 1 })).data.items;
    await world.app.service.crm.addCreators({ listId: list.id, userIds: [userId as string] });
    await sendForm(
      adapter.port,
      slashCommandBody({ text: 'list "Form board"', responseUrl: world.slack.responseUrl('board') }),
    );
    const board = await responseTo(world.slack, 'board');
    // The table's menu opens the contact, with its buttons.
    const menu = ((board.body.blocks ?? []) as Block[])
      .filter((b) => b.type === 'actions')
      .flatMap(
        (b) => b.elements as Array<{ type: string; action_id: string; options?: Array<{ value: string }> }>,
      )
      .find((e) => e.type === 'static_select');
    await sendPayload(
      adapter.port,
      blockActionPayload({
        actionId: menu?.action_id as string,
        value: menu?.options?.[0]?.value as string,
        responseUrl: world.slack.responseUrl('board-contact'),
      }),
    );
    const chosenContact = await responseTo(world.slack, 'board-contact');
    const [edit] = buttonIds((chosenContact.body.blocks ?? []) as Block[], 'Edit');

    const before = world.slack.calls.length;
    const pressUrl = world.slack.responseUrl('edit');
    await sendPayload(adapter.port, blockActionPayload({ actionId: edit as string, responseUrl: pressUrl }));
    const { view } = await opened(before);
    expect(view.callback_id).toBe(FORM_MODAL);
    expect(view.title.text).toMatch(/^Edit /);
    const blocks = inputs(view);
    expect(blocks.map((b) => b.block_id)).toEqual([
      'status',
      'notes',
      'contactEmail',
      'proposedRate',
      'agreedRate',
      'contentDeliverables',
      'instagramHandle',
      'tiktokHandle',
    ]);
    const status = blocks[0]?.element;
    expect(status?.type).toBe('static_select');
    expect(status?.options?.map((o) => o.text.text)).toEqual([
      'To outreach',
      'Outreached',
      'Negotiating',
      'Working',
      'Done',
      'Cancelled',
    ]);
    // The press opened the form and said nothing else: no message with another Edit button.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(world.slack.responses.filter((r) => r.id === 'edit')).toEqual([]);

    const wrong = await submit(view, { status: chosen('NEGOTIATING'), contactEmail: typed('not an email') });
    expect(wrong?.response_action).toBe('errors');
    expect(Object.keys(wrong?.errors ?? {})).toEqual(['contactEmail']);
    // A wrong value alone is the one problem: the form is not also told it changes nothing.
    const alone = await submit(view, { proposedRate: typed('a lot') });
    expect(alone?.errors).toEqual({ proposedRate: expect.stringContaining('"a lot"') });
    expect((await world.app.service.crm.listCreators({ listId: list.id })).data.items[0]?.status).not.toBe(
      'NEGOTIATING',
    );

    expect(
      await submit(view, { status: chosen('NEGOTIATING'), notes: typed('Call "Monday", it\'s fine') }),
    ).toBeNull();
    const updated = await responseTo(world.slack, 'edit');
    expect(String(updated.body.text)).toContain('Updated');
    const [contact] = (await world.app.service.crm.listCreators({ listId: list.id })).data.items;
    expect(contact?.status).toBe('NEGOTIATING');
    expect(contact?.notes).toBe('Call "Monday", it\'s fine');
  });

  it('builds a form within Slack’s limits for every registered command with options', () => {
    const registry = createRegistry(FAMILIES);
    const where = {
      channelId: 'C0001',
      responseUrl: 'https://hooks.slack.com/commands/T0001/1/abcdefabcdef',
      responseUrlAt: Date.now(),
    };
    let built = 0;
    for (const def of registry.families.flatMap((family) => family.commands)) {
      const spec = formSpec(def);
      if (!hasForm(def)) continue;
      const what = `${def.family} ${def.name}`;
      if (spec === null) throw new Error(`${what} has no form`);
      const view = formModal({ id: 'scout.form-of:x.y', spec }, where) as View | null;
      if (view === null) throw new Error(`${what}: the form does not fit`);
      expect(view.blocks.length, what).toBeLessThanOrEqual(SLACK.VIEW_BLOCKS_MAX);
      expect(view.private_metadata.length, what).toBeLessThanOrEqual(SLACK.MODAL_PRIVATE_METADATA_MAX);
      for (const label of [view.title, view.submit, view.close]) {
        expect(label?.text.length, what).toBeLessThanOrEqual(SLACK.MODAL_TITLE_MAX);
      }
      const blocks = inputs(view);
      expect(new Set(blocks.map((b) => b.block_id)).size, what).toBe(blocks.length);
      for (const block of blocks) {
        expect(block.block_id.length, what).toBeLessThanOrEqual(INPUT_LIMITS.BLOCK_ID_MAX);
        expect(block.label.text.length, what).toBeLessThanOrEqual(INPUT_LIMITS.LABEL_MAX);
        expect(block.hint?.text.length ?? 0, what).toBeLessThanOrEqual(INPUT_LIMITS.HINT_MAX);
        expect(block.element.placeholder?.text.length ?? 0, what).toBeLessThanOrEqual(SLACK.PLACEHOLDER_MAX);
        const options = block.element.options ?? [];
        expect(options.length, what).toBeLessThanOrEqual(SLACK.SELECT_OPTIONS_MAX);
        for (const option of options) {
          expect(option.text.text.length, what).toBeLessThanOrEqual(SLACK.OPTION_TEXT_MAX);
          expect(option.value.length, what).toBeLessThanOrEqual(SLACK.OPTION_VALUE_MAX);
        }
      }
      // Every option but secrets has its field, or a "more" input takes it.
      const ids = new Set(blocks.map((b) => b.block_id));
      for (const field of spec.fields) expect(ids.has(field.name) || ids.has(FORM_MORE), what).toBe(true);
      built += 1;
    }
    expect(built).toBeGreaterThan(30);
  });
});

describe('a Slack form whose response_url can no longer answer', () => {
  const clock = createManualClock(Date.now());
  let late: World;
  let lateAdapter: SlackAdapter;

  beforeAll(async () => {
    late = await startWorld({}, 10_000, {}, clock);
    lateAdapter = await startBotAdapter(late.app, late.slack);
  });

  afterAll(async () => {
    await lateAdapter.stop();
    await late.stop();
  });

  /** Opens the songs search form from `/scout songs search` with the response_url named `id`. */
  const openSongs = async (id: string) => {
    const before = late.slack.calls.length;
    await sendForm(
      lateAdapter.port,
      slashCommandBody({ text: 'songs search', responseUrl: late.slack.responseUrl(id) }),
    );
    return (await opened(before, late.slack)).view;
  };

  /** The Web API post that carries an answer, after `before` calls. */
  const posted = (before: number) =>
    late.slack.waitFor(() =>
      late.slack.calls
        .slice(before)
        .find((c) => c.method === 'chat.postMessage' || c.method === 'chat.postEphemeral'),
    );

  it('submitted over 30 minutes after the command, it is answered through the Web API', async () => {
    const view = await openSongs('stale');
    clock.advance(31 * 60_000);
    const before = late.slack.calls.length;
    expect(await submit(view, { q: typed('midnight') }, {}, lateAdapter.port)).toBeNull();
    const post = await posted(before);
    expect(post.args.channel).toBe('C0001');
    expect(JSON.stringify(post.args.blocks)).toMatch(/midnight/i);
    // The stale URL was not tried: Slack would have refused it, and the answer would have been lost.
    expect(late.slack.responses.filter((r) => r.id === 'stale')).toEqual([]);
  });

  it('when the response_url refuses the answer, it goes through the Web API', async () => {
    const view = await openSongs('refused');
    late.slack.expireResponseUrl('refused');
    const before = late.slack.calls.length;
    expect(await submit(view, { q: typed('golden hour') }, {}, lateAdapter.port)).toBeNull();
    const post = await posted(before);
    expect(JSON.stringify(post.args.blocks)).toMatch(/golden hour/i);
  });
});
