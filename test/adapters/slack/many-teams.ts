/**
 * A many-team Scout for the OAuth tests: two service teams in the sandbox (each its own key, data and balance),
 * the app in many-team mode on a file database, the fake Slack, the Slack adapter in HTTP mode with Bolt's OAuth,
 * and a logger at trace level whose every line is kept; plus the browser and Slack steps the tests take.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { request } from 'undici';
import { expect } from 'vitest';
import {
  createSlackAdapter,
  INSTALL_PATH,
  REDIRECT_PATH,
  type SlackAdapter,
} from '../../../src/adapters/slack/index.js';
import { SECRET_MODAL } from '../../../src/adapters/slack/modals.js';
import { type App, createApp } from '../../../src/app.js';
import { FAMILIES } from '../../../src/commands/index.js';
import { createLogger } from '../../../src/core/logger.js';
import { createSandbox, type Sandbox } from '../../../src/sandbox/index.js';
import {
  type FakeSlack,
  OAUTH_CLIENT,
  type ResponsePost,
  slashCommandBody,
  startFakeSlack,
  viewSubmissionPayload,
} from '../../fakes/slack-api.js';
import { SECRET, sendForm, sendPayload } from './helpers.js';

/** SCOUT_ENCRYPTION_KEY of the tests. */
export const ENCRYPTION_KEY = 'oauth-test-encryption-key-0123456789abcdef';
const STATE_SECRET = 'oauth-test-state-secret-0001';

/** Two teams of the service, each with its own key, data and balance, and a Slack workspace admin. */
export const TEAMS = {
  T1: {
    key: 'oauth-team-one-key-0001',
    serviceTeam: 'team_one',
    credits: 70_000,
    admin: 'U1ADMIN',
    list: 'Alpha launch',
  },
  T2: {
    key: 'oauth-team-two-key-0002',
    serviceTeam: 'team_two',
    credits: 30_000,
    admin: 'U2ADMIN',
    list: 'Beta launch',
  },
} as const;

/** A workspace of TEAMS. */
export type TeamId = keyof typeof TEAMS;

/** The running many-team world. */
export interface ManyTeams {
  sandbox: Sandbox;
  app: App;
  slack: FakeSlack;
  adapter: SlackAdapter;
  /** Every log line so far. */
  logged: string[];
  /** GET /slack/install: the redirect to Slack's consent page, its state, and the state cookie. */
  startInstall(): Promise<{ location: URL; state: string; cookie: string }>;
  /** Slack sending the admin back to /slack/oauth_redirect (with the state cookie, unless null). */
  redirectBack(code: string, state: string, cookie: string | null): Promise<{ status: number }>;
  /**
   * Installs Scout in `team` the whole way (with `org`, `team` is an Enterprise Grid org installing it org-wide);
   * resolves with the bot token Slack issued.
   */
  install(team: string, options?: { rotate?: boolean; org?: boolean }): Promise<string>;
  responseTo(id: string): Promise<ResponsePost>;
  /** `/scout <text>` in `team` (by its admin unless `userId`): the first answer at the response_url. */
  slash(team: string, text: string, options?: { userId?: string; channelId?: string }): Promise<ResponsePost>;
  /**
   * `/scout connect key` sent with `fields` (by a person of `teamId`): the view of the key form Scout opens, and the
   * id core keeps it under.
   */
  openKeyForm(fields: Omit<Parameters<typeof slashCommandBody>[0], 'text'>): Promise<KeyForm>;
  /** `/scout connect key` by the team's admin, the key typed in the form Scout opens: the private answer. */
  connectThroughForm(team: TeamId): Promise<ResponsePost>;
  /** What the database holds on disk, WAL included. */
  onDisk(): string;
  stop(): Promise<void>;
}

/** A key form as Slack was asked to open it. */
export interface KeyForm {
  view: { callback_id: string; private_metadata: string };
  /** The form's id in its metadata. */
  id: string;
}

/** The text and blocks of an answer, as one string to search. */
export const textOf = (post: ResponsePost) =>
  `${String(post.body.text)} ${JSON.stringify(post.body.blocks ?? [])}`;

/** Starts the many-team world. */
export async function startManyTeams(): Promise<ManyTeams> {
  const dir = mkdtempSync(join(tmpdir(), 'scout-oauth-'));
  const sandbox = createSandbox({
    replyIntervalMs: 0,
    remixDelayMs: 0,
    rateLimitPerMinute: 100_000,
    keys: Object.values(TEAMS).map((t) => ({ key: t.key, teamId: t.serviceTeam, credits: t.credits })),
  });
  await sandbox.start();
  // As main does: the configured secrets are masked from the start; keys and tokens join once Scout first uses them.
  const secrets = new Set([OAUTH_CLIENT.clientSecret, STATE_SECRET, ENCRYPTION_KEY, SECRET]);
  const logged: string[] = [];
  const logger = createLogger({
    level: 'trace',
    secrets,
    destination: new Writable({
      write(chunk, _encoding, done) {
        logged.push(String(chunk));
        done();
      },
    }),
  });
  const app = await createApp({
    service: {
      baseUrl: sandbox.url,
      mediaUrl: sandbox.mediaUrl,
      retry: { maxAttempts: 2, baseDelayMs: 5, maxDelayMs: 20 },
      rateLimit: { perWindow: 100_000 },
    },
    tenancy: { kind: 'multi', encryptionKey: ENCRYPTION_KEY },
    secrets,
    databasePath: join(dir, 'scout.db'),
    logger,
    families: FAMILIES,
  });
  const slack = await startFakeSlack();
  for (const team of Object.values(TEAMS)) slack.admins.add(team.admin);
  const adapter = createSlackAdapter({
    config: {
      botToken: null,
      oauth: { ...OAUTH_CLIENT, stateSecret: STATE_SECRET },
      signingSecret: SECRET,
      appToken: null,
      apiUrl: slack.apiUrl,
      port: 0,
    },
    chat: app.chat,
    logger,
    postIntervalMs: 10,
  });
  await adapter.start();

  const base = () => `http://127.0.0.1:${adapter.port}`;
  const responseTo = (id: string) => slack.waitFor(() => slack.responses.find((r) => r.id === id));
  let sequence = 0;

  const world: ManyTeams = {
    sandbox,
    app,
    slack,
    adapter,
    logged,
    async startInstall() {
      const res = await request(`${base()}${INSTALL_PATH}`);
      await res.body.text();
      expect(res.statusCode).toBe(302);
      const location = new URL(String(res.headers.location));
      const setCookie = [res.headers['set-cookie'] ?? []].flat()[0] ?? '';
      const state = location.searchParams.get('state') ?? '';
      return { location, state, cookie: setCookie.split(';')[0] ?? '' };
    },
    async redirectBack(code, state, cookie) {
      const query = new URLSearchParams({ code, state }).toString();
      const res = await request(`${base()}${REDIRECT_PATH}?${query}`, {
        headers: cookie === null ? {} : { cookie },
      });
      await res.body.text();
      return { status: res.statusCode };
    },
    async install(team, options = {}) {
      const { state, cookie } = await world.startInstall();
      const code = slack.grant({
        id: team,
        name: `Workspace ${team}`,
        rotate: options.rotate === true,
        org: options.org === true,
      });
      expect((await world.redirectBack(code, state, cookie)).status).toBe(200);
      const token = slack.issued.get(team)?.at(-1);
      expect(token).toBeDefined();
      return token as string;
    },
    responseTo,
    async slash(team, text, options = {}) {
      sequence += 1;
      const id = `${team}-${sequence}`;
      const form = slashCommandBody({
        text,
        responseUrl: slack.responseUrl(id),
        teamId: team,
        userId: options.userId ?? (team in TEAMS ? TEAMS[team as TeamId].admin : 'U0MEMBER'),
        channelId: options.channelId ?? `C${team}GENERAL`,
      });
      expect((await sendForm(adapter.port, form)).status).toBe(200);
      return responseTo(id);
    },
    async openKeyForm(fields) {
      const before = slack.calls.length;
      await sendForm(adapter.port, slashCommandBody({ text: 'connect key', ...fields }));
      const open = await slack.waitFor(() =>
        slack.calls.slice(before).find((c) => c.method === 'views.open'),
      );
      expect(open.token).toBe(slack.issued.get(fields.enterpriseId ?? fields.teamId ?? '')?.at(-1));
      const view = open.args.view as KeyForm['view'];
      expect(view.callback_id).toBe(SECRET_MODAL);
      return { view, id: String(JSON.parse(view.private_metadata).id) };
    },
    async connectThroughForm(team) {
      const id = `${team}-connect`;
      const admin = TEAMS[team].admin;
      const responseUrl = slack.responseUrl(id);
      const { view } = await world.openKeyForm({ responseUrl, teamId: team, userId: admin });
      const submission = viewSubmissionPayload({
        callbackId: SECRET_MODAL,
        privateMetadata: view.private_metadata,
        values: { 'secret.key': { value: { type: 'plain_text_input', value: TEAMS[team].key } } },
        teamId: team,
        userId: admin,
      });
      // The submission is acknowledged at once, with nothing in the answer.
      expect(await sendPayload(adapter.port, submission)).toEqual({ status: 200, text: '' });
      return responseTo(id);
    },
    onDisk: () =>
      ['scout.db', 'scout.db-wal']
        .map((name) => join(dir, name))
        .filter((path) => existsSync(path))
        .map((path) => readFileSync(path).toString('latin1'))
        .join(''),
    async stop() {
      await adapter.stop();
      await slack.stop();
      await app.stop();
      await sandbox.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return world;
}
