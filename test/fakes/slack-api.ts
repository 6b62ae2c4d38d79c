/**
 * A fake Slack on 127.0.0.1: the Web API (form posts with JSON-string fields, Bearer token), response_url
 * endpoints, and a Socket Mode server (apps.connections.open, hello, envelopes, acks). It records every call and
 * keeps channel posts with their metadata for conversations.history and conversations.replies; conversations.open
 * gives a person's DM channel (`D` and their id without its `U`). For OAuth it hands out one-time codes (`grant`)
 * that `oauth.v2.access` exchanges for a bot token of that workspace, the way
 * https://docs.slack.dev/reference/methods/oauth.v2.access answers (for an org-wide install too); auth.test
 * then names the token's team or org. Files go through files.uploadV2's three steps and are kept (`uploads`, see
 * slack-files.ts). users.info describes the people of Enterprise Grid orgs the way Slack does,
 * with `enterprise_user` (their org, and whether they are its admin or owner); anyone else has none.
 * https://docs.slack.dev/reference/methods/users.info
 * Like Slack, it refuses a message whose blocks break Block Kit's rules (slack-blocks.ts): chat.postMessage,
 * chat.postEphemeral and chat.update answer `invalid_blocks`, a response_url 400 `invalid_blocks`, and a slash
 * command's ack carrying such blocks is not shown; each refusal is kept in `refusals`.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type WebSocket, WebSocketServer } from 'ws';
import { blocksProblem } from './slack-blocks.js';
import { createFakeUploads, type FakeUpload } from './slack-files.js';

// The request builders live beside the Slack tests; they are exported here too, where the fake's users look.
export {
  blockActionPayload,
  signedHeaders,
  slashCommandBody,
  viewSubmissionPayload,
} from '../adapters/slack/payloads.js';
export type { FakeUpload } from './slack-files.js';

/** A Web API call the fake received. */
export interface ApiCall {
  method: string;
  args: Record<string, unknown>;
  token: string | null;
  /** When the fake received it (ms since the epoch). */
  at: number;
}

/** A post to a response_url. */
export interface ResponsePost {
  id: string;
  body: Record<string, unknown>;
  /** When the fake received it (ms since the epoch). */
  at?: number;
}

/** A person of an Enterprise Grid org, as users.info's `enterprise_user` describes them. */
export interface OrgMember {
  enterpriseId: string;
  /** Their own workspace in the org; the token's workspace when not given. */
  teamId?: string;
  /** An admin or owner of the org (not necessarily of any workspace). */
  isAdmin?: boolean;
  isOwner?: boolean;
}

/** The id of a response_url of the fake (`/response/<id>`), or null for another URL. */
export function responseIdOf(url: string): string | null {
  const at = url.indexOf('/response/');
  return at < 0 ? null : url.slice(at + '/response/'.length);
}

/** A message the fake refused as Slack would, and why. */
export interface Refusal {
  /** The Web API method, or `response_url`. */
  method: string;
  error: string;
  problem: string;
}

/** The running fake. */
export interface FakeSlack {
  /** Web API base, with the trailing slash. */
  readonly apiUrl: string;
  readonly calls: ApiCall[];
  readonly responses: ResponsePost[];
  /** Messages refused for their blocks, as Slack refuses them. */
  readonly refusals: Refusal[];
  /** Files uploaded so far, in the order their upload URLs were asked for. */
  readonly uploads: FakeUpload[];
  /** A response_url of this fake. */
  responseUrl(id?: string): string;
  /**
   * Ends a response_url, as Slack does 30 minutes after issuing it: posts to it are refused (404 `expired_url`)
   * and not kept among the responses.
   */
  expireResponseUrl(id: string): void;
  /** Users the fake reports as workspace admins. */
  readonly admins: Set<string>;
  /** People of Enterprise Grid orgs by user id; users.info gives nobody else an `enterprise_user`. */
  readonly orgMembers: Map<string, OrgMember>;
  /** The next call of `method` answers `{ ok: false, error }`, as Slack does when a call fails. */
  failNext(method: string, error?: string): void;
  /** Resolves when `find` returns a value for the recorded traffic; rejects after `ms`. */
  waitFor<T>(find: () => T | undefined | null | false, ms?: number): Promise<T>;
  /** Pushes a Socket Mode envelope and resolves with the client's ack payload. */
  sendEnvelope(type: string, payload: unknown): Promise<Record<string, unknown>>;
  /** Socket Mode connections currently open. */
  readonly sockets: number;
  /** Adds `count` messages by a person to `channel`, in the thread of `threadTs` when given. */
  chatter(channel: string, count: number, threadTs?: string): void;
  /**
   * A one-time OAuth code for installing the app in `team` (with expiring, refreshable tokens when `rotate`);
   * with `org`, `team.id` is an Enterprise Grid org installing the app org-wide.
   */
  grant(team: { id: string; name?: string; rotate?: boolean; org?: boolean }): string;
  /** The bot tokens issued through OAuth, by workspace (or org); the latest last. */
  readonly issued: ReadonlyMap<string, string[]>;
  /** Makes `token` invalid from now on (auth.test and every call answer invalid_auth). */
  revoke(token: string): void;
  stop(): Promise<void>;
}

/** A workspace, or an org installing org-wide, that OAuth codes and tokens are issued to. */
interface Grantee {
  id: string;
  name: string;
  rotate: boolean;
  org: boolean;
}

/** The Web API methods that post or change a message, whose blocks Slack checks. */
const MESSAGE_METHODS = new Set(['chat.postMessage', 'chat.postEphemeral', 'chat.update']);

/** The OAuth client credentials the fake accepts. */
export const OAUTH_CLIENT = { clientId: '1111.2222', clientSecret: 'fake-client-secret-0001' };

const parseForm = (raw: string): Record<string, unknown> => {
  const args: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(raw)) {
    try {
      args[key] = value.startsWith('{') || value.startsWith('[') ? JSON.parse(value) : value;
    } catch {
      args[key] = value;
    }
  }
  return args;
};

const readBody = (req: IncomingMessage) =>
  new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });

/** The scopes of an app installed from the current manifest. */
export const INSTALLED_SCOPES = [
  'commands',
  'chat:write',
  'chat:write.public',
  'channels:history',
  'groups:history',
  'users:read',
  'files:write',
  'im:write',
  'im:history',
  'app_mentions:read',
  'assistant:write',
  'links:read',
  'links:write',
];

/** Starts the fake; every Web API answer lists the token's `scopes` in `x-oauth-scopes`, as Slack's do. */
export async function startFakeSlack(
  options: {
    teamId?: string;
    scopes?: readonly string[];
    /** The Enterprise Grid org of the bot token; an org-wide install when `enterpriseInstall`. */
    enterpriseId?: string;
    enterpriseInstall?: boolean;
  } = {},
): Promise<FakeSlack> {
  const teamId = options.teamId ?? 'T0001';
  const scopes = (options.scopes ?? INSTALLED_SCOPES).join(',');
  // OAuth: codes not yet exchanged, the team (or org) of each issued token and refresh token, revoked tokens.
  const codes = new Map<string, Grantee>();
  const tokenTeams = new Map<string, Grantee>();
  const refreshTeams = new Map<string, Grantee>();
  const issued = new Map<string, string[]>();
  const revoked = new Set<string>();
  const calls: ApiCall[] = [];
  const responses: ResponsePost[] = [];
  const refusals: Refusal[] = [];
  const expiredUrls = new Set<string>();
  const files = createFakeUploads(() => base);
  const admins = new Set<string>();
  const orgMembers = new Map<string, OrgMember>();
  const failures = new Map<string, string[]>();
  const pendingAcks = new Map<string, (payload: Record<string, unknown>) => void>();
  /** Slash command envelopes waiting for their ack, with their response_url. */
  const ackedCommands = new Map<string, string>();
  /** Keeps an ack's message as a response to `responseUrl`, when it carries one and the URL is this fake's. */
  const recordAckAnswer = (responseUrl: string, ack: Record<string, unknown>) => {
    const id = responseIdOf(responseUrl);
    const problem = blocksProblem(ack.blocks);
    if (problem !== null) refusals.push({ method: 'ack', error: 'invalid_blocks', problem });
    else if (id !== null && (ack.text !== undefined || ack.blocks !== undefined))
      responses.push({ id, body: ack, at: Date.now() });
  };
  let ts = 1_700_000_000;
  let base = '';
  // Channel messages posted so far, oldest first, as conversations.history and conversations.replies show them.
  const posted: Array<{ channel: string; message: Record<string, unknown> }> = [];

  const shown = (message: Record<string, unknown>, withMetadata: boolean) => {
    const { metadata, ...rest } = message;
    return withMetadata && metadata !== undefined ? { ...rest, metadata } : rest;
  };

  const listed = (args: Record<string, unknown>, inThread: boolean) => {
    const limit = Math.min(Number(args.limit ?? 100) || 100, 1000);
    const withMetadata = String(args.include_all_metadata) === 'true';
    const found = posted
      .filter((p) => p.channel === args.channel)
      .map((p) => p.message)
      .filter((m) =>
        inThread
          ? m.ts === args.ts || m.thread_ts === args.ts
          : m.thread_ts === undefined || m.thread_ts === m.ts,
      );
    // History is newest first; a thread is oldest first, its parent leading. Pages follow a cursor.
    const ordered = inThread ? found : found.reverse();
    const from = Number(args.cursor ?? 0) || 0;
    const page = ordered.slice(from, from + limit);
    const more = from + limit < ordered.length;
    return {
      ok: true,
      messages: page.map((m) => shown(m, withMetadata)),
      has_more: more,
      response_metadata: { next_cursor: more ? String(from + limit) : '' },
    };
  };

  /** A new bot token of `team`; a rotating one expires within the hour, so Bolt refreshes it at its next use. */
  const issue = (team: Grantee) => {
    const token = `xoxb-${team.id}-${randomUUID()}`;
    tokenTeams.set(token, team);
    issued.set(team.id, [...(issued.get(team.id) ?? []), token]);
    if (!team.rotate) return { access_token: token };
    const refresh = `xoxe-1-${randomUUID()}`;
    refreshTeams.set(refresh, team);
    return { access_token: token, refresh_token: refresh, expires_in: 3600 };
  };

  const oauthAccess = (args: Record<string, unknown>): Record<string, unknown> => {
    if (args.client_id !== OAUTH_CLIENT.clientId || args.client_secret !== OAUTH_CLIENT.clientSecret) {
      return { ok: false, error: 'invalid_client_id' };
    }
    if (args.grant_type === 'refresh_token') {
      const team = refreshTeams.get(String(args.refresh_token));
      if (team === undefined) return { ok: false, error: 'invalid_refresh_token' };
      refreshTeams.delete(String(args.refresh_token));
      return { ok: true, token_type: 'bot', ...issue(team) };
    }
    const team = codes.get(String(args.code));
    if (team === undefined) return { ok: false, error: 'invalid_code' };
    codes.delete(String(args.code));
    return {
      ok: true,
      token_type: 'bot',
      scope: options.scopes === undefined ? INSTALLED_SCOPES.join(',') : scopes,
      bot_user_id: 'UBOT',
      app_id: 'A0001',
      // An org-wide install names the org and no workspace.
      team: team.org ? null : { id: team.id, name: team.name },
      enterprise: team.org ? { id: team.id, name: team.name } : null,
      is_enterprise_install: team.org,
      authed_user: { id: 'U0ADMIN' },
      ...issue(team),
    };
  };

  /** The person users.info describes: workspace flags, and `enterprise_user` for people of an org. */
  const userInfo = (user: string, token: string | null) => {
    const grantee = token === null ? undefined : tokenTeams.get(token);
    const member = orgMembers.get(user);
    const team = member?.teamId ?? (grantee?.org === false ? grantee.id : teamId);
    const org =
      member === undefined
        ? {}
        : {
            enterprise_user: {
              id: user,
              enterprise_id: member.enterpriseId,
              enterprise_name: `Org ${member.enterpriseId}`,
              is_admin: member.isAdmin === true,
              is_owner: member.isOwner === true,
              teams: [team],
            },
          };
    return { id: user, team_id: team, is_admin: admins.has(user), is_owner: false, ...org };
  };

  /** What auth.test says of a token: its team, and its org for an org-wide install. */
  const authTest = (token: string | null) => {
    const grantee = token === null ? undefined : tokenTeams.get(token);
    const install =
      grantee === undefined
        ? options.enterpriseId === undefined
          ? { team_id: teamId, is_enterprise_install: false }
          : {
              team_id: teamId,
              enterprise_id: options.enterpriseId,
              is_enterprise_install: options.enterpriseInstall === true,
            }
        : grantee.org
          ? { team_id: grantee.id, enterprise_id: grantee.id, is_enterprise_install: true }
          : { team_id: grantee.id, is_enterprise_install: false };
    return {
      ok: true,
      url: 'https://acme.slack.com/',
      user_id: 'UBOT',
      bot_id: 'BBOT',
      user: 'scout',
      ...install,
    };
  };

  const imagesKnown = (view: unknown) => {
    const blocks = (view as { blocks?: Array<{ type?: string; slack_file?: { id?: string } }> } | undefined)
      ?.blocks;
    return (blocks ?? [])
      .filter((block) => block.type === 'image' && block.slack_file !== undefined)
      .every((block) => files.uploads.some((u) => u.id === block.slack_file?.id && u.bytes !== null));
  };

  const answer = (method: string, args: Record<string, unknown>, token: string | null) => {
    if (token !== null && revoked.has(token)) return { ok: false, error: 'invalid_auth' };
    const failure = failures.get(method)?.shift();
    if (failure !== undefined) return { ok: false, error: failure };
    if (MESSAGE_METHODS.has(method)) {
      const problem = blocksProblem(args.blocks);
      if (problem !== null) {
        refusals.push({ method, error: 'invalid_blocks', problem });
        return { ok: false, error: 'invalid_blocks', errors: [problem] };
      }
    }
    switch (method) {
      case 'oauth.v2.access':
        return oauthAccess(args);
      case 'auth.test':
        return authTest(token);
      case 'users.info':
        return { ok: true, user: userInfo(String(args.user ?? ''), token) };
      case 'chat.postMessage': {
        ts += 1;
        const message: Record<string, unknown> = {
          type: 'message',
          user: 'UBOT',
          bot_id: 'BBOT',
          ts: `${ts}.000100`,
          text: args.text,
          ...(args.blocks === undefined ? {} : { blocks: args.blocks }),
          ...(args.thread_ts === undefined ? {} : { thread_ts: args.thread_ts }),
          ...(args.metadata === undefined ? {} : { metadata: args.metadata }),
        };
        posted.push({ channel: String(args.channel), message });
        return { ok: true, channel: args.channel, ts: message.ts, message: shown(message, true) };
      }
      case 'conversations.open':
        // A person's DM channel with the bot: the same one each time.
        return { ok: true, channel: { id: `D${String(args.users ?? '').replace(/^U/, '')}` } };
      case 'conversations.history':
        return listed(args, false);
      case 'conversations.replies':
        return listed(args, true);
      case 'chat.postEphemeral':
        ts += 1;
        return { ok: true, message_ts: `${ts}.000200` };
      case 'chat.unfurl':
        // Slack wants the message (channel and ts) or the composer's link (unfurl_id and source), and a map of URLs.
        if (!((args.channel && args.ts) || (args.unfurl_id && args.source))) {
          return { ok: false, error: 'invalid_arguments' };
        }
        if (typeof args.unfurls !== 'object' || args.unfurls === null)
          return { ok: false, error: 'invalid_unfurls' };
        return { ok: true };
      case 'chat.update':
        return { ok: true, channel: args.channel, ts: args.ts };
      case 'views.open': {
        // Slack opens a modal only for the trigger_id of an interaction, with a title of at most 24 characters.
        const view = args.view as { title?: { text?: string } } | undefined;
        if (typeof args.trigger_id !== 'string' || !args.trigger_id.startsWith('trigger.')) {
          return { ok: false, error: 'invalid_trigger_id' };
        }
        if ((view?.title?.text ?? '').length > 24) return { ok: false, error: 'invalid_arguments' };
        return { ok: true, view: { id: `V${calls.length}`, ...(args.view as object) } };
      }
      case 'views.publish':
        // An image block may show an uploaded file by reference only when the file exists and its bytes arrived.
        if (!imagesKnown(args.view)) return { ok: false, error: 'invalid_blocks' };
        return { ok: true, view: { id: `V${calls.length}`, ...(args.view as object) } };
      case 'apps.connections.open':
        return { ok: true, url: `${base.replace('http', 'ws')}/link?ticket=${randomUUID()}` };
      case 'files.getUploadURLExternal':
        return files.uploadUrl(args);
      case 'files.completeUploadExternal':
        return files.complete(args);
      default:
        return { ok: true };
    }
  };

  const server: Server = createServer(async (req, res) => {
    const raw = await readBody(req);
    const body = raw.toString('utf8');
    const url = new URL(req.url ?? '/', base);
    if (url.pathname.startsWith('/api/')) {
      const method = url.pathname.slice('/api/'.length);
      const args = req.headers['content-type']?.includes('json') ? JSON.parse(body || '{}') : parseForm(body);
      const auth = req.headers.authorization;
      const token = auth?.startsWith('Bearer ') ? auth.slice(7) : null;
      calls.push({ method, args, token, at: Date.now() });
      res.writeHead(200, { 'Content-Type': 'application/json', 'X-OAuth-Scopes': scopes });
      res.end(JSON.stringify(answer(method, args, token)));
      return;
    }
    if (await files.receive(url.pathname, req, raw, res)) return;
    if (url.pathname.startsWith('/response/') && expiredUrls.has(url.pathname.slice('/response/'.length))) {
      res.writeHead(404, { 'Content-Type': 'text/plain' });
      res.end('expired_url');
      return;
    }
    const problem = url.pathname.startsWith('/response/')
      ? blocksProblem(JSON.parse(body || '{}').blocks)
      : null;
    if (problem !== null) {
      refusals.push({ method: 'response_url', error: 'invalid_blocks', problem });
      res.writeHead(400, { 'Content-Type': 'text/plain' });
      res.end('invalid_blocks');
      return;
    }
    if (url.pathname.startsWith('/response/')) {
      responses.push({
        id: url.pathname.slice('/response/'.length),
        body: JSON.parse(body || '{}'),
        at: Date.now(),
      });
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      res.end('ok');
      return;
    }
    res.writeHead(404).end();
  });
  const wss = new WebSocketServer({ server, path: '/link' });
  const sockets = new Set<WebSocket>();
  wss.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('message', (data) => {
      const frame = JSON.parse(String(data)) as { envelope_id?: string; payload?: Record<string, unknown> };
      if (frame.envelope_id === undefined) return;
      const payload = frame.payload ?? {};
      // A slash command's ack that carries a message is shown like one sent to its response_url.
      const responseUrl = ackedCommands.get(frame.envelope_id);
      ackedCommands.delete(frame.envelope_id);
      if (responseUrl !== undefined) recordAckAnswer(responseUrl, payload);
      pendingAcks.get(frame.envelope_id)?.(payload);
      pendingAcks.delete(frame.envelope_id);
    });
    socket.send(JSON.stringify({ type: 'hello', num_connections: 1, connection_info: { app_id: 'A0001' } }));
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const timers = new Set<NodeJS.Timeout>();

  return {
    apiUrl: `${base}/api/`,
    calls,
    responses,
    refusals,
    uploads: files.uploads,
    admins,
    orgMembers,
    failNext(method, error = 'internal_error') {
      failures.set(method, [...(failures.get(method) ?? []), error]);
    },
    get sockets() {
      return sockets.size;
    },
    chatter(channel, count, threadTs) {
      for (let i = 0; i < count; i++) {
        ts += 1;
        const message = {
          type: 'message',
          user: 'UPERSON',
          ts: `${ts}.000100`,
          text: `chatter ${i}`,
          ...(threadTs === undefined ? {} : { thread_ts: threadTs }),
        };
        posted.push({ channel, message });
      }
    },
    grant(team) {
      const code = `code-${randomUUID()}`;
      codes.set(code, {
        id: team.id,
        name: team.name ?? `Team ${team.id}`,
        rotate: team.rotate === true,
        org: team.org === true,
      });
      return code;
    },
    issued,
    revoke(token) {
      revoked.add(token);
    },
    responseUrl: (id = randomUUID()) => `${base}/response/${id}`,
    expireResponseUrl(id) {
      expiredUrls.add(id);
    },
    waitFor(find, ms = 5000) {
      return new Promise((resolve, reject) => {
        const started = Date.now();
        const poll = () => {
          const found = find();
          if (found !== undefined && found !== null && found !== false) return resolve(found);
          if (Date.now() - started > ms) return reject(new Error('waitFor: nothing matched in time'));
          const timer = setTimeout(() => {
            timers.delete(timer);
            poll();
          }, 10);
          timers.add(timer);
        };
        poll();
      });
    },
    sendEnvelope(type, payload) {
      const [socket] = sockets;
      if (socket === undefined) return Promise.reject(new Error('no Socket Mode connection'));
      const id = randomUUID();
      return new Promise((resolve) => {
        pendingAcks.set(id, resolve);
        const responseUrl = (payload as { response_url?: unknown } | null)?.response_url;
        if (type === 'slash_commands' && typeof responseUrl === 'string') ackedCommands.set(id, responseUrl);
        socket.send(
          JSON.stringify({ envelope_id: id, type, payload, accepts_response_payload: type !== 'events_api' }),
        );
      });
    },
    async stop() {
      for (const timer of timers) clearTimeout(timer);
      for (const socket of sockets) socket.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
