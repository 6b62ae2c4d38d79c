/** Starts the sandbox, the app graph and a fake Slack for the Slack adapter's end-to-end tests. */
import { request } from 'undici';
import { createSlackAdapter, type SlackAdapter } from '../../../src/adapters/slack/index.js';
import { type App, createApp } from '../../../src/app.js';
import { FAMILIES } from '../../../src/commands/index.js';
import type { SlackConfig } from '../../../src/config.js';
import type { Clock } from '../../../src/core/clock.js';
import type { CommandSettings } from '../../../src/core/command/types.js';
import { createLogger } from '../../../src/core/logger.js';
import { createSandbox, type Sandbox } from '../../../src/sandbox/index.js';
import { type FakeSlack, type ResponsePost, signedHeaders, startFakeSlack } from '../../fakes/slack-api.js';

/** The signing secret of the tests. */
export const SECRET = 'test-signing-secret-0001';
const KEY = 'slack-test-key-0001';

/** A running world: the service sandbox, the app and the fake Slack. */
export interface World {
  sandbox: Sandbox;
  app: App;
  slack: FakeSlack;
  stop(): Promise<void>;
}

/**
 * Starts the world; `slack` configures the fake (an Enterprise Grid org's bot token, for one), `allowance` the
 * service's requests per minute (10,000 by default: nobody waits), `settings` the commands' settings, `clock` the
 * app's time (the system's by default).
 */
export async function startWorld(
  slackOptions: Parameters<typeof startFakeSlack>[0] = {},
  allowance = 10_000,
  settings: Partial<CommandSettings> = {},
  clock?: Clock,
): Promise<World> {
  const sandbox = createSandbox({
    replyIntervalMs: 0,
    remixDelayMs: 0,
    rateLimitPerMinute: allowance,
    keys: [{ key: KEY, teamId: 'team_slack', credits: 100_000 }],
  });
  await sandbox.start();
  const app = await createApp({
    service: {
      apiKey: KEY,
      baseUrl: sandbox.url,
      mediaUrl: sandbox.mediaUrl,
      retry: { maxAttempts: 2, baseDelayMs: 5, maxDelayMs: 20 },
      rateLimit: { perWindow: allowance },
    },
    databasePath: ':memory:',
    logger: createLogger({ level: process.env.SCOUT_TEST_LOG ?? 'silent', destination: process.stderr }),
    families: FAMILIES,
    settings,
    ...(clock === undefined ? {} : { clock }),
  });
  const slack = await startFakeSlack(slackOptions);
  return {
    sandbox,
    app,
    slack,
    async stop() {
      await slack.stop();
      await app.stop();
      await sandbox.stop();
    },
  };
}

/** Every block of a message body of the fake's records. */
export type Block = { type: string; [key: string]: unknown };

type Element = { type: string; action_id: string; text?: { text: string } };

/** The elements of actions blocks and the buttons of carousel cards, in order. */
export function elementsOf(blocks: readonly Block[]): Element[] {
  return blocks.flatMap((block) => {
    if (block.type === 'actions') return block.elements as Element[];
    if (block.type === 'carousel')
      return (block.elements as Array<{ actions?: Element[] }>).flatMap((card) => card.actions ?? []);
    return [];
  });
}

/** The action ids of buttons whose text starts with `label`, in order: in actions blocks and on carousel cards. */
export function buttonIds(blocks: readonly Block[], label: string): string[] {
  return elementsOf(blocks)
    .filter((element) => element.type === 'button' && element.text?.text.startsWith(label) === true)
    .map((element) => element.action_id);
}

/** The titles of the cards of a message: carousel cards' titles, or card sections' first lines (with a picture). */
export function cardTitles(blocks: readonly Block[]): string[] {
  return blocks.flatMap((block) => {
    if (block.type === 'carousel')
      return (block.elements as Array<{ title?: { text: string } }>).map((card) => card.title?.text ?? '');
    if (block.type === 'section' && block.accessory !== undefined)
      return [String((block.text as { text?: string } | undefined)?.text ?? '').split('\n')[0] ?? ''];
    return [];
  });
}

/** Sends a signed request to the adapter's events endpoint; resolves with the status and the answer's text. */
export async function signedPost(
  port: number | null,
  body: string,
  options: { contentType?: string; secret?: string; timestamp?: number } = {},
): Promise<{ status: number; text: string }> {
  const res = await request(`http://127.0.0.1:${port}/slack/events`, {
    method: 'POST',
    headers: signedHeaders(options.secret ?? SECRET, body, options),
    body,
  });
  const text = await res.body.text();
  if (res.statusCode === 200) await showAckAnswer(body, text);
  return { status: res.statusCode, text };
}

/**
 * Slack shows a slash command's ack that carries a message as the command's answer, like one sent to its
 * response_url: it is sent there, so tests find every answer in one place (the fake's `responses`).
 * https://docs.slack.dev/interactivity/implementing-slash-commands
 */
export async function showAckAnswer(body: string, answer: string): Promise<void> {
  const form = new URLSearchParams(body);
  const responseUrl = form.get('response_url');
  if (form.get('command') === null || responseUrl === null || !answer.startsWith('{')) return;
  const parsed = JSON.parse(answer) as Record<string, unknown>;
  if (parsed.text === undefined && parsed.blocks === undefined) return;
  const res = await request(responseUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: answer,
  });
  await res.body.text();
}

/** A slash command or an interaction payload, form-encoded and signed. */
export const sendForm = (port: number | null, form: Record<string, string>) =>
  signedPost(port, new URLSearchParams(form).toString());

/** An interaction payload (block_actions, view_submission), signed. */
export const sendPayload = (port: number | null, payload: Record<string, unknown>) =>
  sendForm(port, { payload: JSON.stringify(payload) });

/** Where an Events API callback comes from, and when its event happened. */
export interface EventOrigin {
  /** Slack's `event_time`, in seconds; now by default. */
  eventTime?: number;
  /** The Enterprise Grid org of the workspace. */
  enterpriseId?: string;
  /** The event came through an org-wide install of `enterpriseId`. */
  orgWide?: boolean;
}

/** An Events API callback for `event`, in `teamId`, signed. */
export const sendEvent = (
  port: number | null,
  teamId: string,
  event: Record<string, unknown>,
  origin: EventOrigin = {},
) =>
  signedPost(
    port,
    JSON.stringify({
      type: 'event_callback',
      team_id: teamId,
      ...(origin.enterpriseId === undefined ? {} : { enterprise_id: origin.enterpriseId }),
      api_app_id: 'A0001',
      event: { event_ts: '1', ...event },
      event_id: `Ev${Math.random().toString(36).slice(2)}`,
      event_time: origin.eventTime ?? Math.floor(Date.now() / 1000),
      authorizations: [
        {
          team_id: origin.orgWide === true ? null : teamId,
          enterprise_id: origin.enterpriseId ?? null,
          user_id: 'UBOT',
          is_bot: true,
          is_enterprise_install: origin.orgWide === true,
        },
      ],
    }),
    { contentType: 'application/json' },
  );

/** Settings of a single-team app in HTTP mode on a free port, against `slack`. */
export const botConfig = (slack: FakeSlack, botToken = 'xoxb-test'): SlackConfig => ({
  botToken,
  oauth: null,
  signingSecret: SECRET,
  appToken: null,
  apiUrl: slack.apiUrl,
  port: 0,
});

/** A started single-team Slack adapter of `app` against `slack`. */
export async function startBotAdapter(app: App, slack: FakeSlack, botToken?: string): Promise<SlackAdapter> {
  const adapter = createSlackAdapter({
    config: botConfig(slack, botToken),
    chat: app.chat,
    logger: createLogger({ level: 'silent' }),
  });
  await adapter.start();
  return adapter;
}

/**
 * Polls `check` every 10 ms until it holds, as the fake's `waitFor` does, for checks that read the store (which
 * answers asynchronously); rejects after `ms`.
 */
export async function waitUntil(check: () => Promise<boolean> | boolean, ms = 5000): Promise<void> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > ms) throw new Error('waitFor: nothing matched in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** The answer posted to the response_url of id `id`. */
export const responseTo = (slack: FakeSlack, id: string): Promise<ResponsePost> =>
  slack.waitFor(() => slack.responses.find((r) => r.id === id));
