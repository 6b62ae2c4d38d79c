/**
 * Signed bodies of every wrong shape, against real Bolt in HTTP mode: each is answered 400 at once (never 500, never
 * left unanswered), nothing is left failing in the background, and afterwards the same server still serves. Bodies
 * Slack does send, even ones Scout has no listener for, still reach Bolt and are acknowledged as Bolt does.
 */
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SlackAdapter } from '../../../src/adapters/slack/index.js';
import { FORM_MODAL } from '../../../src/adapters/slack/modals.js';
import {
  blockActionPayload,
  signedHeaders,
  slashCommandBody,
  viewSubmissionPayload,
} from '../../fakes/slack-api.js';
import { responseTo, SECRET, showAckAnswer, startBotAdapter, startWorld, type World } from './helpers.js';
import { openRaw } from './raw-socket.js';

let world: World;
let adapter: SlackAdapter;
let port: number | null = null;
const unhandled: unknown[] = [];
const recordUnhandled = (reason: unknown) => unhandled.push(reason);

beforeAll(async () => {
  process.on('unhandledRejection', recordUnhandled);
  world = await startWorld();
  adapter = await startBotAdapter(world.app, world.slack);
  port = adapter.port;
});

afterAll(async () => {
  process.off('unhandledRejection', recordUnhandled);
  await adapter.stop();
  await world.stop();
});

const FORM = 'application/x-www-form-urlencoded';
const JSON_TYPE = 'application/json';

/** Posts a signed body; a request left unanswered fails here instead of hanging the test. */
async function post(body: string, contentType: string): Promise<{ status: number; text: string }> {
  const res = await request(`http://127.0.0.1:${port}/slack/events`, {
    method: 'POST',
    headers: signedHeaders(SECRET, body, { contentType }),
    body,
    headersTimeout: 5000,
    bodyTimeout: 5000,
  });
  const text = await res.body.text();
  if (res.statusCode === 200) await showAckAnswer(body, text);
  return { status: res.statusCode, text };
}

/** `base` without `key`, or with `key` set to `value`. */
function change(base: Record<string, unknown>, key: string, value?: unknown): Record<string, unknown> {
  const { [key]: _dropped, ...rest } = base;
  return value === undefined ? rest : { ...rest, [key]: value };
}

/** A copy of `base` with the value at `path` replaced (or removed, for undefined). */
function at(
  base: Record<string, unknown>,
  path: readonly string[],
  value?: unknown,
): Record<string, unknown> {
  const [head, ...tail] = path;
  if (head === undefined) return base;
  if (tail.length === 0) return change(base, head, value);
  const inner = base[head];
  const child = Array.isArray(inner) ? { ...inner } : (inner as Record<string, unknown>);
  const replaced = at(child, tail, value);
  return { ...base, [head]: Array.isArray(inner) ? Object.values(replaced) : replaced };
}

const MISSING = undefined;
/** Values of the wrong type for a field that holds a string. */
const NOT_STRINGS = [MISSING, null, 5, true, ['a'], { a: 1 }];
/** Values of the wrong type for a field that holds an object. */
const NOT_OBJECTS = [MISSING, null, 5, 'x', [], [{ id: 'U1' }]];

type Case = readonly [name: string, body: string, contentType: string];

const json = (name: string, value: unknown): Case => [name, JSON.stringify(value), JSON_TYPE];
const payload = (name: string, value: unknown): Case => [
  name,
  new URLSearchParams({ payload: JSON.stringify(value) }).toString(),
  FORM,
];

function slashCommandCases(): Case[] {
  const command = slashCommandBody({ text: 'help', responseUrl: 'https://hooks.slack.com/commands/1/2' });
  const fields = ['command', 'text', 'user_id', 'team_id', 'channel_id', 'response_url', 'trigger_id'];
  const cases: Case[] = [];
  for (const field of fields) {
    // A form carries strings only: a missing field, or a repeated one (which arrives as an array).
    const missing = new URLSearchParams(change(command, field) as Record<string, string>);
    cases.push([`slash command without ${field}`, missing.toString(), FORM]);
    const repeated = new URLSearchParams(command);
    repeated.append(field, 'again');
    cases.push([`slash command with ${field} twice`, repeated.toString(), FORM]);
    // The same command as JSON, where any type can be sent.
    for (const wrong of NOT_STRINGS.slice(1)) {
      cases.push(
        json(`slash command (JSON) with ${field} = ${JSON.stringify(wrong)}`, change(command, field, wrong)),
      );
    }
  }
  cases.push([
    'slash command with a response_url that is not a URL',
    new URLSearchParams({ ...command, response_url: 'not a url' }).toString(),
    FORM,
  ]);
  return cases;
}

function blockActionCases(): Case[] {
  const press = blockActionPayload({
    actionId: 'nav.next',
    responseUrl: 'https://hooks.slack.com/actions/1/2',
  });
  const cases: Case[] = [];
  const wrong = (field: string, path: readonly string[], values: readonly unknown[]) => {
    for (const value of values) {
      cases.push(
        payload(
          `block_actions with ${field} = ${JSON.stringify(value) ?? 'missing'}`,
          at(press, path, value),
        ),
      );
    }
  };
  wrong('type', ['type'], [MISSING, null, 5, ['block_actions'], { a: 1 }]);
  wrong('user', ['user'], NOT_OBJECTS);
  wrong('user.id', ['user', 'id'], NOT_STRINGS);
  wrong('team', ['team'], [5, 'T0001', [], { domain: 'acme' }, { id: 5 }]);
  wrong('actions', ['actions'], [MISSING, null, 5, 'x', [], [null], [5], ['x'], { action_id: 'a' }]);
  wrong('actions[0].action_id', ['actions', '0', 'action_id'], NOT_STRINGS);
  wrong('actions[0].value', ['actions', '0', 'value'], [null, 5, true, ['a'], { a: 1 }]);
  wrong('container', ['container'], NOT_OBJECTS);
  wrong('response_url', ['response_url'], [null, 5, 'not a url', ['https://x'], { a: 1 }]);
  wrong('channel', ['channel'], [null, 5, 'C0001', { name: 'general' }]);
  return cases;
}

function viewSubmissionCases(): Case[] {
  const submit = viewSubmissionPayload({
    callbackId: FORM_MODAL,
    privateMetadata: JSON.stringify({ family: 'creators', command: 'search', fixed: {}, channelId: 'C0001' }),
    values: { followersMin: { value: { type: 'plain_text_input', value: '1k' } } },
  });
  const cases: Case[] = [];
  const wrong = (field: string, path: readonly string[], values: readonly unknown[]) => {
    for (const value of values) {
      cases.push(
        payload(
          `view_submission with ${field} = ${JSON.stringify(value) ?? 'missing'}`,
          at(submit, path, value),
        ),
      );
    }
  };
  wrong('view', ['view'], NOT_OBJECTS);
  wrong('view.callback_id', ['view', 'callback_id'], NOT_STRINGS);
  wrong('view.private_metadata', ['view', 'private_metadata'], NOT_STRINGS);
  wrong('view.state', ['view', 'state'], [MISSING, null, 5, 'x', []]);
  wrong(
    'view.state.values',
    ['view', 'state', 'values'],
    [
      MISSING,
      null,
      5,
      'x',
      [],
      { followersMin: 5 },
      { followersMin: null },
      { followersMin: { value: 5 } },
      { followersMin: { value: { value: 5 } } },
      { followersMin: { value: { selected_option: 'Fitness' } } },
      { followersMin: { value: { selected_options: 'Fitness' } } },
      { followersMin: { value: { selected_options: [5] } } },
    ],
  );
  wrong('user', ['user'], NOT_OBJECTS);
  wrong('user.id', ['user', 'id'], NOT_STRINGS);
  wrong('team', ['team'], [5, 'T0001', [], { id: null }]);
  return cases;
}

function eventCases(): Case[] {
  const callback = {
    type: 'event_callback',
    team_id: 'T0001',
    api_app_id: 'A0001',
    event: { type: 'app_home_opened', user: 'U0001', channel: 'D1', tab: 'home', event_ts: '1' },
    event_id: 'Ev1',
    event_time: 1,
    authorizations: [{ team_id: 'T0001', user_id: 'UBOT', is_bot: true }],
  };
  const cases: Case[] = [];
  const wrong = (field: string, path: readonly string[], values: readonly unknown[]) => {
    for (const value of values) {
      cases.push(
        json(
          `event callback with ${field} = ${JSON.stringify(value) ?? 'missing'}`,
          at(callback, path, value),
        ),
      );
    }
  };
  wrong('event', ['event'], [MISSING, null, 5, 'x', []]);
  wrong('event.type', ['event', 'type'], NOT_STRINGS);
  wrong('event.user', ['event', 'user'], [MISSING, null, 5, {}]);
  wrong('event.channel', ['event', 'channel'], [null, 5]);
  wrong('authorizations', ['authorizations'], [null, 5, 'x', [null], [5]]);
  cases.push(
    json('reaction_added with an item of 5', at(callback, ['event'], { type: 'reaction_added', item: 5 })),
  );
  cases.push(
    json(
      'tokens_revoked with tokens of null',
      at(callback, ['event'], { type: 'tokens_revoked', tokens: null }),
    ),
  );
  return cases;
}

const ANY_SHAPE: Case[] = [
  ['payload=null', 'payload=null', FORM],
  ['JSON null', 'null', JSON_TYPE],
  ['JSON []', '[]', JSON_TYPE],
  ['JSON array of a payload', JSON.stringify([{ type: 'block_actions' }]), JSON_TYPE],
  ['JSON number', '42', JSON_TYPE],
  ['JSON string', '"help"', JSON_TYPE],
  ['JSON true', 'true', JSON_TYPE],
  ['JSON {}', '{}', JSON_TYPE],
  ['JSON with a type of 5', '{"type":5}', JSON_TYPE],
  ['payload=[]', 'payload=[]', FORM],
  ['payload=[1,2]', 'payload=[1,2]', FORM],
  ['payload=42', 'payload=42', FORM],
  ['payload="x"', 'payload="x"', FORM],
  ['payload={}', 'payload={}', FORM],
  ['a form with no command', 'text=help&user_id=U0001', FORM],
  ['an empty form', '', FORM],
];

describe('Slack HTTP mode, signed bodies of the wrong shape', () => {
  const cases = [
    ...ANY_SHAPE,
    ...slashCommandCases(),
    ...blockActionCases(),
    ...viewSubmissionCases(),
    ...eventCases(),
  ];

  it(`answers each of ${cases.length} malformed bodies 400, then serves /scout help on the same server`, async () => {
    const answers: string[] = [];
    for (const [name, body, contentType] of cases) {
      const { status } = await post(body, contentType);
      if (status !== 400) answers.push(`${name}: ${status}`);
    }
    expect(answers).toEqual([]);

    expect(adapter.port).toBe(port);
    const { status } = await post(
      new URLSearchParams(
        slashCommandBody({ text: 'help', responseUrl: world.slack.responseUrl('help') }),
      ).toString(),
      FORM,
    );
    expect(status).toBe(200);
    const help = await responseTo(world.slack, 'help');
    expect(JSON.stringify(help.body)).toContain('creators');
    expect(unhandled).toEqual([]);
  });

  it('answers a request target Bolt cannot read 400 and goes on serving', async () => {
    const client = await openRaw(port);
    await client.write('GET // HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
    await client.closed;
    expect(client.received()).toMatch(/^HTTP\/1\.1 400 /);
    const res = await request(`http://127.0.0.1:${port}/healthz`);
    expect(res.statusCode).toBe(200);
    await res.body.text();
  });
});

describe('Slack HTTP mode, well-shaped bodies Scout has no listener for', () => {
  it('acknowledges an event Scout does not listen to, as Bolt does', async () => {
    const { status } = await post(
      JSON.stringify({
        type: 'event_callback',
        team_id: 'T0001',
        api_app_id: 'A0001',
        event: {
          type: 'reaction_added',
          user: 'U0001',
          reaction: 'eyes',
          item: { type: 'message', channel: 'C0001', ts: '1.2' },
          event_ts: '1',
        },
        event_id: 'Ev2',
        event_time: 1,
        authorizations: [{ team_id: 'T0001', user_id: 'UBOT', is_bot: true }],
      }),
      JSON_TYPE,
    );
    expect(status).toBe(200);
  });

  it('acknowledges events named like properties every object has, as any event Scout does not listen to', async () => {
    for (const type of ['constructor', 'toString', '__proto__']) {
      const { status } = await post(
        JSON.stringify({
          type: 'event_callback',
          team_id: 'T0001',
          api_app_id: 'A0001',
          event: { type, user: 'U0001', event_ts: '1' },
          event_id: `Ev-${type}`,
          event_time: 1,
          authorizations: [{ team_id: 'T0001', user_id: 'UBOT', is_bot: true }],
        }),
        JSON_TYPE,
      );
      expect({ type, status }).toEqual({ type, status: 200 });
    }
  });

  it('acknowledges a press of a button Scout does not know', async () => {
    const url = world.slack.responseUrl('unknown-press');
    const { status } = await post(
      new URLSearchParams({
        payload: JSON.stringify(blockActionPayload({ actionId: 'zz.unknown', responseUrl: url })),
      }).toString(),
      FORM,
    );
    expect(status).toBe(200);
    await responseTo(world.slack, 'unknown-press');
  });

  it('lets Bolt answer an ssl_check (unsigned) and a url_verification', async () => {
    const ssl = await request(`http://127.0.0.1:${port}/slack/events`, {
      method: 'POST',
      headers: { 'Content-Type': FORM },
      body: 'ssl_check=1&token=legacy',
    });
    await ssl.body.text();
    expect(ssl.statusCode).toBe(200);
    const challenge = await post(
      JSON.stringify({ type: 'url_verification', challenge: 'c-1', token: 'legacy' }),
      JSON_TYPE,
    );
    expect(challenge.status).toBe(200);
    expect(JSON.parse(challenge.text)).toEqual({ challenge: 'c-1' });
  });

  it('still rejects unsigned bodies, malformed or not, with 401', async () => {
    for (const body of ['null', '{"type":"block_actions"}']) {
      const res = await request(`http://127.0.0.1:${port}/slack/events`, {
        method: 'POST',
        headers: { 'Content-Type': JSON_TYPE },
        body,
      });
      await res.body.text();
      expect(res.statusCode).toBe(401);
    }
  });
});
