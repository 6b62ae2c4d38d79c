/**
 * A fake Discord for the real discord.js client: REST routes on node:http (gateway info, interaction callbacks,
 * webhook edits and follow-ups, command overwrites, channel messages and threads, leaving a server) and a `ws`
 * gateway (HELLO, IDENTIFY → READY and a GUILD_CREATE per server, heartbeat ACK, dispatches) on 127.0.0.1. It
 * records every request, builds INTERACTION_CREATE payloads (from any server, or a DM), adds the bot to servers
 * and removes it (GUILD_CREATE, GUILD_DELETE), and can expire the interactions sent so far as Discord does.
 * Multipart bodies (messages with files) are read too, their files kept as attachments it serves (discord-files.ts).
 * `POST /users/@me/channels` opens the bot's DM channel with a person (one per person), which takes messages.
 * People post messages (MESSAGE_CREATE, in a server's channel or a DM with the bot), edit and delete them
 * (MESSAGE_UPDATE, MESSAGE_DELETE); the bot edits and deletes its own (PATCH, DELETE on a message) and reads who is a
 * member of a server (`GET /guilds/{guild}/members/{user}`: the members added with `addMember`, else 404 Unknown
 * Member).
 * Like Discord, it refuses (400, Invalid Form Body) a command overwrite that breaks the application command limits,
 * the combined size among them (discordCommandSize), an autocomplete answer beyond its limits, and a message sent or
 * edited against the rules of its components (discord-checks.ts: Components V2 with content or embeds, more than 40
 * components, a flag taken away; rows, selects, embeds). A component interaction's original response is the message
 * its component is on, as on Discord. Once commands are
 * registered with it, it sends only the command interactions Discord's client could: `interact` throws for an
 * option that is not registered, or a required option left out.
 */
import { EventEmitter } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type WebSocket, WebSocketServer } from 'ws';
import { messageProblem } from './discord-checks.js';
import { createAttachmentStore, type FakeFile, readPayload } from './discord-files.js';

export type { FakeFile } from './discord-files.js';

/** A request the fake received. */
export interface FakeRequest {
  method: string;
  path: string;
  auth: string | null;
  /** The JSON body, or a multipart body's `payload_json`. */
  body: unknown;
  /** The files of a multipart body (https://discord.com/developers/docs/reference#uploading-files). */
  files: FakeFile[];
  /** Why the fake refused the request as Discord would (answered 400 Invalid Form Body), if it did. */
  refused?: string;
}

/** A message the fake stored (answers of webhook routes). */
export type FakeMessage = Record<string, unknown> & { id: string };

const EPOCH = 1_420_070_400_000n;
let sequence = 0n;

/** A real-looking snowflake (17-19 digits). */
export function snowflake(): string {
  sequence = (sequence + 1n) % 4096n;
  return ((BigInt(Date.now()) - EPOCH) * 4_194_304n + sequence).toString();
}

/** Options of the fake. */
export interface FakeDiscordOptions {
  applicationId: string;
  guildId: string;
  channelId: string;
  /** Other servers the bot is in when it connects, each with one text channel. */
  guilds?: readonly FakeGuild[];
}

/** A server and its one text channel. */
export interface FakeGuild {
  id: string;
  channelId: string;
}

/** Where an interaction comes from: another server (and channel), or a DM (`guildId: null`). */
export interface FakeOrigin {
  guildId?: string | null;
  channelId?: string;
}

/** A message a person (or a bot, or a webhook) posts: `say`. */
export interface FakePost {
  content: string;
  /** Who posts it (a default member otherwise); `bot` for a bot's message. */
  author?: FakeUser & { bot?: boolean };
  /** The server (the fake's own by default), or null for a DM with the bot. */
  guildId?: string | null;
  /** The channel in a server (the server's own by default); a DM is always the author's DM channel. */
  channelId?: string;
  /** Ids of the users the message mentions (the bot's is the application id). */
  mentions?: readonly string[];
  /** Whether it mentions @everyone. */
  mentionEveryone?: boolean;
  /** Posted by this webhook. */
  webhookId?: string;
  /** Its message type (0 default; 7 a member joined, a system message). */
  type?: number;
}

/** The member behind interactions, with or without admin permissions. */
export interface FakeUser {
  id: string;
  username: string;
  /** Permission bit set as Discord sends it (a decimal string). */
  permissions?: string;
}

/** A running fake. */
export interface FakeDiscord {
  /** REST base to give discord.js (`rest.api`). */
  readonly apiUrl: string;
  readonly requests: FakeRequest[];
  /** Frames the client sent over the gateway. */
  readonly gatewayFrames: Array<{ op: number; d: unknown }>;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Sends an INTERACTION_CREATE dispatch and returns its id and token. */
  interact(
    type: number,
    data: unknown,
    options?: { message?: FakeMessage; user?: FakeUser } & FakeOrigin,
  ): { id: string; token: string };
  /** Adds the bot to a server, as its invite link does: a GUILD_CREATE dispatch. */
  join(guild: FakeGuild): void;
  /**
   * Sends GUILD_DELETE for a server: with `unavailable` an outage (the bot stays in it), otherwise the bot was
   * removed from it.
   */
  removeFromGuild(guildId: string, options?: { unavailable?: boolean }): void;
  /** The servers the bot is in now (it leaves one with `DELETE /users/@me/guilds/{id}`). */
  guilds(): string[];
  /** Resolves with the first request (past or future) that matches. */
  waitFor(match: (request: FakeRequest) => boolean, what?: string): Promise<FakeRequest>;
  /** A stored message (webhook answer or channel post), by id. */
  message(id: string): FakeMessage | undefined;
  /** The file behind an attachment of a stored message, by the attachment's id. */
  attachment(id: string): FakeFile | undefined;
  /** The original response of an interaction, by its token, as last edited. */
  original(token: string): FakeMessage | undefined;
  /** Ends every interaction sent so far: its callback answers 404 and its token 401, as after 15 minutes. */
  expireInteractions(): void;
  /** Forgets every enforced nonce, as Discord does a few minutes after a post. */
  forgetNonces(): void;
  /**
   * Takes Read Message History from everyone in the text channels (a permission overwrite, seen by clients that
   * connect afterwards); as on Discord, their history then reads as empty and one of their messages as 403.
   */
  denyHistory(): void;
  /** Posts `count` messages by another member in `channelId`, as a busy channel has. */
  chatter(channelId: string, count: number): void;
  /** Posts a message as a person (MESSAGE_CREATE) and returns it as stored. */
  say(post: FakePost): FakeMessage;
  /** A person edits a message of theirs (MESSAGE_UPDATE), its mentions read from the new content. */
  editMessage(id: string, content: string): void;
  /** A person deletes a message of theirs (MESSAGE_DELETE). */
  deleteMessage(id: string): void;
  /** Makes a person a member of a server, as `GET /guilds/{guild}/members/{user}` then says. */
  addMember(guildId: string, user: FakeUser): void;
  /** The id of the DM channel between the bot and a person (made on first use). */
  dmChannelOf(userId: string): string;
}

const UNKNOWN_INTERACTION = { message: 'Unknown interaction', code: 10062 };
const INVALID_TOKEN = { message: 'Invalid Webhook Token', code: 50027 };
const UNKNOWN_CHANNEL = { message: 'Unknown Channel', code: 10003 };
const UNKNOWN_MESSAGE = { message: 'Unknown Message', code: 10008 };
const MISSING_ACCESS = { message: 'Missing Access', code: 50001 };
const UNKNOWN_GUILD = { message: 'Unknown Guild', code: 10004 };
const UNKNOWN_MEMBER = { message: 'Unknown Member', code: 10007 };

/** Permission bits of the fake's @everyone role: what a bot invited with its invite link gets. */
const VIEW_CHANNEL = 1n << 10n;
const READ_MESSAGE_HISTORY = 1n << 16n;
const EVERYONE_PERMISSIONS =
  VIEW_CHANNEL | (1n << 11n) | (1n << 14n) | READ_MESSAGE_HISTORY | (1n << 35n) | (1n << 38n);

/** How long Discord remembers an enforced nonce (a few minutes). */
const NONCE_WINDOW_MS = 5 * 60_000;

const DEFAULT_USER: FakeUser = { id: '200000000000000001', username: 'ana', permissions: '0' };

/** Characters as Discord counts them: code points. */
const codePoints = (text: unknown) => (typeof text === 'string' ? [...text].length : 0);

/** A field's size: its default text or, when it has localizations, the longest of them all. */
const fieldSize = (text: unknown, localizations: unknown) =>
  Math.max(
    codePoints(text),
    ...Object.values((localizations ?? {}) as Record<string, unknown>).map(codePoints),
  );

type FakeCommandNode = Record<string, unknown> & { options?: FakeCommandNode[]; choices?: FakeCommandNode[] };

/**
 * The size Discord gives a chat input command, which may not pass 8,000: "combined name, description, and value
 * properties for each command, its options (including subcommands and groups), and choices. When localization
 * fields are present, only the longest localization for each field (including the default value) is counted"
 * (developers/interactions/application-commands.mdx).
 */
export function discordCommandSize(command: unknown): number {
  const node = command as FakeCommandNode;
  const own =
    fieldSize(node.name, node.name_localizations) +
    fieldSize(node.description, node.description_localizations) +
    (node.value === undefined ? 0 : codePoints(String(node.value)));
  const children = [...(node.options ?? []), ...(node.choices ?? [])];
  return children.reduce((sum, child) => sum + discordCommandSize(child), own);
}

/** Discord's limits for one command of a bulk overwrite: the first one broken, or null. */
function commandProblem(command: FakeCommandNode): string | null {
  const size = discordCommandSize(command);
  if (size > 8000) return `command ${String(command.name)} is ${size} characters, over 8000`;
  const check = (node: FakeCommandNode, path: string): string | null => {
    if (!/^[-_'\p{Ll}\p{Lo}\p{N}]{1,32}$/u.test(String(node.name))) return `${path}: invalid name`;
    const description = codePoints(node.description);
    if (description < 1 || description > 100) return `${path}: description of ${description} characters`;
    const options = node.options ?? [];
    const choices = node.choices ?? [];
    if (options.length > 25) return `${path}: ${options.length} options`;
    if (choices.length > 25) return `${path}: ${choices.length} choices`;
    if (choices.length > 0 && node.autocomplete === true) return `${path}: autocomplete with choices`;
    for (const choice of choices) {
      const name = codePoints(choice.name);
      if (name < 1 || name > 100 || codePoints(choice.value) > 100)
        return `${path}: choice ${String(choice.name)}`;
    }
    const required = options.map((option) => option.required === true);
    if (required.some((r, i) => r && i > 0 && required[i - 1] === false))
      return `${path}: required after optional`;
    for (const option of options) {
      const problem = check(option, `${path} ${String(option.name)}`);
      if (problem !== null) return problem;
    }
    return null;
  };
  return check(command, String(command.name));
}

/**
 * Why Discord's client could not send a chat command interaction's `data` for the commands `registered`: a command,
 * subcommand or option not registered, or a required option left out (the client sends nothing until every one is
 * filled in). Null when it could.
 */
function unsendable(registered: readonly FakeCommandNode[], data: unknown): string | null {
  type Given = { name?: unknown; type?: unknown; options?: Given[] };
  const sent = data as Given;
  const command = registered.find((c) => c.name === sent.name);
  if (command === undefined) return `no command ${String(sent.name)} is registered`;
  const walk = (node: FakeCommandNode, given: readonly Given[], path: string): string | null => {
    const declared = node.options ?? [];
    for (const option of given) {
      const found = declared.find((d) => d.name === option.name);
      if (found === undefined) return `${path}: no option ${String(option.name)} is registered`;
      if (found.type !== option.type)
        return `${path} ${String(option.name)}: registered as type ${String(found.type)}`;
      // A subcommand or group holds the options given under it.
      if (option.type === 1 || option.type === 2)
        return walk(found, option.options ?? [], `${path} ${String(option.name)}`);
    }
    const missing = declared.find((d) => d.required === true && !given.some((o) => o.name === d.name));
    return missing === undefined ? null : `${path}: the required option ${String(missing.name)} is left out`;
  };
  return walk(command, sent.options ?? [], String(command.name));
}

/** Discord's limits for an autocomplete answer (type 8): up to 25 choices, names and string values 1-100. */
function autocompleteProblem(body: Record<string, unknown>): string | null {
  if (body.type !== 8) return null;
  const choices = ((body.data as { choices?: unknown[] } | undefined)?.choices ?? []) as FakeCommandNode[];
  if (choices.length > 25) return `${choices.length} autocomplete choices`;
  for (const choice of choices) {
    const name = codePoints(choice.name);
    const value = codePoints(choice.value);
    if (name < 1 || name > 100 || value < 1 || value > 100)
      return `autocomplete choice ${String(choice.value)}`;
  }
  return null;
}

/** Why Discord would refuse the message of an interaction callback (types 4 and 7 carry one), or null. */
function callbackMessageProblem(body: Record<string, unknown>): string | null {
  if (body.type !== 4 && body.type !== 7) return null;
  return messageProblem((body.data ?? {}) as Record<string, unknown>);
}

/** Creates the fake (call start()). */
export function createFakeDiscord(options: FakeDiscordOptions): FakeDiscord {
  const requests: FakeRequest[] = [];
  const gatewayFrames: Array<{ op: number; d: unknown }> = [];
  const messages = new Map<string, FakeMessage>();
  const originals = new Map<string, string>();
  const nonces = new Map<string, { id: string; at: number }>();
  let historyDenied = false;
  const channels = new Map<string, Record<string, unknown> & { id: string }>();
  // The DM channel of each person the bot wrote to privately, by user id.
  const dmChannels = new Map<string, string>();
  // Ids and tokens of every interaction sent, and those that are over.
  const sent: string[] = [];
  const expired = new Set<string>();
  // The commands of the last overwrite: once there are some, only what a client could send is sent.
  let registered: FakeCommandNode[] = [];
  // The servers the bot is in, in the order it joined them.
  const memberships = new Set<string>();
  // The people of each server (besides the bot), by server id then user id.
  const members = new Map<string, Map<string, FakeUser>>();
  const addGuild = (guild: FakeGuild) => {
    memberships.add(guild.id);
    channels.set(guild.channelId, {
      id: guild.channelId,
      type: 0,
      guild_id: guild.id,
      name: 'general',
      position: 0,
      permission_overwrites: [],
      parent_id: null,
    });
  };
  for (const guild of [{ id: options.guildId, channelId: options.channelId }, ...(options.guilds ?? [])])
    addGuild(guild);
  const events = new EventEmitter();
  const sockets = new Set<WebSocket>();
  let seq = 0;
  let server: Server | null = null;
  let gateway: WebSocketServer | null = null;
  let base = '';

  const gatewayPort = () => (server === null ? 0 : (server.address() as AddressInfo).port);

  const json = (res: ServerResponse, status: number, body: unknown) => {
    const text = JSON.stringify(body);
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
    res.end(text);
  };

  const storeMessage = (
    body: Record<string, unknown>,
    id = snowflake(),
    channelId = options.channelId,
  ): FakeMessage => {
    const message: FakeMessage = {
      id,
      channel_id: channelId,
      // A DM (channel type 1) is in no server.
      guild_id:
        channels.get(channelId)?.type === 1
          ? undefined
          : (channels.get(channelId)?.guild_id ?? options.guildId),
      type: 0,
      content: '',
      embeds: [],
      components: [],
      author: { id: options.applicationId, username: 'scout', discriminator: '0', avatar: null, bot: true },
      timestamp: new Date().toISOString(),
      edited_timestamp: null,
      tts: false,
      mention_everyone: false,
      mentions: [],
      mention_roles: [],
      attachments: [],
      pinned: false,
      flags: 0,
      ...(messages.get(id) ?? {}),
      ...body,
    };
    messages.set(id, message);
    return message;
  };

  const attachments = createAttachmentStore(() => base, snowflake);

  /** Answers 400 Invalid Form Body, as Discord does for a body beyond its limits, and notes why. */
  const refuse = (res: ServerResponse, record: FakeRequest, problem: string) => {
    record.refused = problem;
    return json(res, 400, {
      message: 'Invalid Form Body',
      code: 50035,
      errors: { _errors: [{ message: problem }] },
    });
  };

  const route = (req: IncomingMessage, res: ServerResponse, body: unknown, files: FakeFile[] = []) => {
    const url = new URL(req.url ?? '/', base);
    const path = decodeURIComponent(url.pathname).replace(/^\/api\/v10/, '');
    const record: FakeRequest = {
      method: req.method ?? 'GET',
      path,
      auth: req.headers.authorization ?? null,
      body,
      files,
    };
    requests.push(record);
    events.emit('request', record);
    const data = attachments.resolve((body ?? {}) as Record<string, unknown>, files);
    if (attachments.serve(record.method, path, res)) return;
    if (req.method === 'GET' && path === '/gateway/bot') {
      return json(res, 200, {
        url: `ws://127.0.0.1:${gatewayPort()}/gateway`,
        shards: 1,
        session_start_limit: { total: 1000, remaining: 1000, reset_after: 0, max_concurrency: 1 },
      });
    }
    const callback = /^\/interactions\/(\d+)\/[^/]+\/callback$/.exec(path);
    if (req.method === 'POST' && callback !== null) {
      if (expired.has(callback[1] as string)) return json(res, 404, UNKNOWN_INTERACTION);
      const problem = autocompleteProblem(data) ?? callbackMessageProblem(data);
      if (problem !== null) return refuse(res, record, problem);
      res.writeHead(204).end();
      return;
    }
    const webhook = /^\/webhooks\/\d+\/([^/]+)/.exec(path);
    if (webhook !== null && expired.has(webhook[1] as string)) return json(res, 401, INVALID_TOKEN);
    const original = /^\/webhooks\/\d+\/([^/]+)\/messages\/@original$/.exec(path);
    if (original !== null) {
      const token = original[1] as string;
      if (req.method === 'DELETE') {
        originals.delete(token);
        res.writeHead(204).end();
        return;
      }
      const known = originals.get(token);
      const problem = messageProblem(data, known === undefined ? undefined : messages.get(known));
      if (problem !== null) return refuse(res, record, problem);
      const message = storeMessage(data, known);
      originals.set(token, message.id);
      return json(res, 200, message);
    }
    if (req.method === 'POST' && /^\/webhooks\/\d+\/[^/]+$/.test(path)) {
      const problem = messageProblem(data);
      return problem === null ? json(res, 200, storeMessage(data)) : refuse(res, record, problem);
    }
    const leaving = /^\/users\/@me\/guilds\/(\d+)$/.exec(path);
    if (req.method === 'DELETE' && leaving !== null) {
      const guildId = leaving[1] as string;
      if (!memberships.has(guildId)) return json(res, 404, UNKNOWN_GUILD);
      res.writeHead(204).end();
      // As on Discord, the gateway then tells the client it is no longer in the server.
      fake.removeFromGuild(guildId);
      return;
    }
    if (req.method === 'POST' && path === '/users/@me/channels') return json(res, 200, dmChannel(data));
    const memberRoute = /^\/guilds\/(\d+)\/members\/(\d+)$/.exec(path);
    if (req.method === 'GET' && memberRoute !== null) {
      const [, guildId, userId] = memberRoute as unknown as [string, string, string];
      if (!memberships.has(guildId)) return json(res, 404, UNKNOWN_GUILD);
      const member = members.get(guildId)?.get(userId);
      return member === undefined ? json(res, 404, UNKNOWN_MEMBER) : json(res, 200, memberPayload(member));
    }
    const channelRoute = /^\/channels\/(\d+)(\/messages)?(?:\/(\d+))?(\/threads)?$/.exec(path);
    if (channelRoute !== null) {
      const [, , inMessages, messageId, threads] = channelRoute;
      const sending = inMessages !== undefined && threads === undefined;
      const edited = messageId === undefined ? undefined : messages.get(messageId);
      const problem =
        sending && (req.method === 'POST' || req.method === 'PATCH') ? messageProblem(data, edited) : null;
      if (problem !== null) return refuse(res, record, problem);
      return channelRequest(req.method ?? 'GET', channelRoute, data, url.searchParams, res);
    }
    if (req.method === 'PUT' && /\/commands$/.test(path)) {
      const list = Array.isArray(body) ? (body as FakeCommandNode[]) : [];
      for (const command of list) {
        const problem = commandProblem(command);
        if (problem !== null) return refuse(res, record, problem);
      }
      registered = list;
      return json(
        res,
        200,
        list.map((command) => ({
          ...(command as object),
          id: snowflake(),
          application_id: options.applicationId,
          version: snowflake(),
        })),
      );
    }
    return json(res, 404, { message: 'Unknown route', code: 0 });
  };

  /** A member as Discord sends one (GET /guilds/{guild}/members/{user}); roles none but @everyone. */
  const memberPayload = (user: FakeUser) => ({
    user: {
      id: user.id,
      username: user.username,
      discriminator: '0',
      avatar: null,
      global_name: user.username,
    },
    roles: [],
    joined_at: new Date().toISOString(),
    deaf: false,
    mute: false,
    flags: 0,
    nick: null,
  });

  /** The DM channel of the bot and `recipient_id` (POST /users/@me/channels): one per person, made once. */
  const dmChannel = (data: Record<string, unknown>) => {
    const recipient = String(data.recipient_id ?? '');
    const id = dmChannels.get(recipient) ?? snowflake();
    dmChannels.set(recipient, id);
    const user = { id: recipient, username: `user${recipient.slice(-4)}`, discriminator: '0', avatar: null };
    const channel = { id, type: 1, recipients: [user], last_message_id: null };
    channels.set(id, channel);
    return channel;
  };

  /** A channel's messages as GET returns them: newest first, `limit` (≤ 100) of them before or after an id. */
  const history = (channelId: string, query: URLSearchParams) => {
    const limit = Math.min(100, Math.max(1, Number(query.get('limit') ?? 50)));
    const before = query.get('before');
    const after = query.get('after');
    return [...messages.values()]
      .filter((m) => m.channel_id === channelId)
      .filter((m) => before === null || BigInt(m.id) < BigInt(before))
      .filter((m) => after === null || BigInt(m.id) > BigInt(after))
      .sort((a, b) => (BigInt(b.id) > BigInt(a.id) ? 1 : -1))
      .slice(0, limit)
      .map(({ nonce: _nonce, enforce_nonce: _enforce, allowed_mentions: _mentions, ...kept }) => kept);
  };

  /** GET a channel or its messages, POST a message to it, GET one of its messages, POST a thread on a message. */
  const channelRequest = (
    method: string,
    [, channelId, inMessages, messageId, threads]: RegExpExecArray,
    data: Record<string, unknown>,
    query: URLSearchParams,
    res: ServerResponse,
  ) => {
    const channel = channels.get(channelId as string);
    if (channel === undefined) return json(res, 404, UNKNOWN_CHANNEL);
    if (messageId === undefined) {
      if (method === 'GET' && inMessages === undefined) return json(res, 200, channel);
      if (method === 'GET') {
        // Without Read Message History Discord answers with no messages. It keeps no nonce with a message.
        return json(res, 200, historyDenied ? [] : history(channel.id, query));
      }
      if (method === 'POST' && inMessages !== undefined) {
        // An enforced nonce seen from the same author in the same channel lately returns the earlier message.
        const nonce = data.enforce_nonce === true && data.nonce !== undefined ? String(data.nonce) : null;
        const nonceKey = `${options.applicationId}:${channel.id}:${nonce}`;
        const earlier = nonce === null ? undefined : nonces.get(nonceKey);
        const repeat = earlier !== undefined && Date.now() - earlier.at < NONCE_WINDOW_MS;
        if (repeat) return json(res, 200, messages.get(earlier.id));
        const message = storeMessage(data, snowflake(), channel.id);
        if (nonce !== null) nonces.set(nonceKey, { id: message.id, at: Date.now() });
        return json(res, 200, message);
      }
      return json(res, 404, UNKNOWN_MESSAGE);
    }
    const message = messages.get(messageId);
    if (message === undefined || message.channel_id !== channel.id) return json(res, 404, UNKNOWN_MESSAGE);
    if (threads === undefined) {
      if (method === 'PATCH') return json(res, 200, storeMessage(data, message.id, channel.id));
      if (method === 'DELETE') {
        messages.delete(message.id);
        res.writeHead(204).end();
        return;
      }
      if (method !== 'GET') return json(res, 404, {});
      return historyDenied ? json(res, 403, MISSING_ACCESS) : json(res, 200, message);
    }
    if (method !== 'POST' || message.thread !== undefined) {
      return json(res, 400, { message: 'A thread has already been created for this message', code: 160004 });
    }
    // A thread started from a message takes the message's id, as on Discord.
    const thread = {
      id: message.id,
      type: 11,
      guild_id: channel.guild_id,
      parent_id: channel.id,
      owner_id: options.applicationId,
      name: String(data.name ?? 'thread'),
      last_message_id: null,
      rate_limit_per_user: 0,
      message_count: 0,
      member_count: 1,
      flags: 0,
      thread_metadata: {
        archived: false,
        auto_archive_duration: Number(data.auto_archive_duration ?? 1440),
        archive_timestamp: new Date().toISOString(),
        locked: false,
      },
    };
    channels.set(thread.id, thread);
    messages.set(message.id, { ...message, thread });
    return json(res, 201, thread);
  };

  const send = (socket: WebSocket, frame: unknown) => socket.send(JSON.stringify(frame));

  const dispatch = (t: string, d: unknown) => {
    for (const socket of sockets) send(socket, { op: 0, t, s: ++seq, d });
  };

  const guildPayload = (guildId: string) => ({
    id: guildId,
    name: `Scout test guild ${guildId.slice(-4)}`,
    icon: null,
    owner_id: '200000000000000099',
    unavailable: false,
    member_count: 2,
    large: false,
    joined_at: new Date().toISOString(),
    roles: [
      {
        id: guildId,
        name: '@everyone',
        permissions: EVERYONE_PERMISSIONS.toString(),
        position: 0,
        color: 0,
      },
    ],
    emojis: [],
    features: [],
    // GUILD_CREATE always carries the bot's own member.
    members: [
      {
        user: { id: options.applicationId, username: 'scout', discriminator: '0', avatar: null, bot: true },
        roles: [],
        joined_at: new Date().toISOString(),
        deaf: false,
        mute: false,
        flags: 0,
      },
    ],
    threads: [],
    channels: [...channels.values()].filter((c) => c.type === 0 && c.guild_id === guildId),
  });

  const onSocket = (socket: WebSocket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    send(socket, { op: 10, d: { heartbeat_interval: 45_000 }, s: null, t: null });
    socket.on('message', (raw) => {
      const frame = JSON.parse(String(raw)) as { op: number; d: unknown };
      gatewayFrames.push(frame);
      events.emit('frame', frame);
      if (frame.op === 1) send(socket, { op: 11 });
      if (frame.op === 2) {
        send(socket, {
          op: 0,
          t: 'READY',
          s: ++seq,
          d: {
            v: 10,
            user: {
              id: options.applicationId,
              username: 'scout',
              discriminator: '0',
              avatar: null,
              global_name: null,
              bot: true,
            },
            guilds: [...memberships].map((id) => ({ id, unavailable: true })),
            session_id: 'fake-session',
            resume_gateway_url: `ws://127.0.0.1:${gatewayPort()}/gateway`,
            shard: [0, 1],
            application: { id: options.applicationId, flags: 0 },
          },
        });
        for (const id of memberships)
          send(socket, { op: 0, t: 'GUILD_CREATE', s: ++seq, d: guildPayload(id) });
      }
    });
  };

  const fake: FakeDiscord = {
    get apiUrl() {
      return `${base}/api`;
    },
    requests,
    gatewayFrames,
    async start() {
      server = createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (chunk: Buffer) => chunks.push(chunk));
        req.on('end', () => {
          readPayload(Buffer.concat(chunks), req.headers['content-type']).then(
            ({ body, files }) => route(req, res, body, files),
            () => json(res, 400, { message: 'Cannot parse the body', code: 50109 }),
          );
        });
      });
      gateway = new WebSocketServer({ server, path: '/gateway' });
      gateway.on('connection', onSocket);
      await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    },
    async stop() {
      for (const socket of sockets) socket.terminate();
      await new Promise<void>((resolve) => gateway?.close(() => resolve()));
      server?.closeAllConnections();
      await new Promise<void>((resolve) => server?.close(() => resolve()));
      events.removeAllListeners();
    },
    interact(type, data, extra = {}) {
      const unsent = type === 2 && registered.length > 0 ? unsendable(registered, data) : null;
      if (unsent !== null) throw new Error(`Discord's client cannot send this: ${unsent}`);
      const id = snowflake();
      const token = `tok-${id}`;
      sent.push(id, token);
      // The original response of a component's interaction is the message the component is on, as it carries it.
      if (extra.message !== undefined) {
        messages.set(extra.message.id, { ...(messages.get(extra.message.id) ?? {}), ...extra.message });
        originals.set(token, extra.message.id);
      }
      const member = extra.user ?? DEFAULT_USER;
      const user = {
        id: member.id,
        username: member.username,
        discriminator: '0',
        avatar: null,
        global_name: member.username,
      };
      const guildId = extra.guildId === undefined ? options.guildId : extra.guildId;
      const channelId = extra.channelId ?? (guildId === null ? snowflake() : options.channelId);
      // A DM carries the user and a DM channel; an interaction in a server carries the member and its permissions.
      const origin =
        guildId === null
          ? { user, channel: { id: channelId, type: 1 }, context: 1 }
          : {
              guild_id: guildId,
              channel: { id: channelId, type: 0, guild_id: guildId, name: 'general' },
              member: {
                user,
                roles: [],
                permissions: member.permissions ?? '0',
                joined_at: new Date().toISOString(),
                deaf: false,
                mute: false,
                flags: 0,
                nick: null,
              },
              guild_locale: 'en-US',
              context: 0,
            };
      const payload = {
        id,
        application_id: options.applicationId,
        type,
        token,
        version: 1,
        channel_id: channelId,
        ...origin,
        app_permissions: '0',
        locale: 'en-US',
        entitlements: [],
        authorizing_integration_owners: {},
        data,
        ...(extra.message === undefined ? {} : { message: extra.message }),
      };
      dispatch('INTERACTION_CREATE', payload);
      return { id, token };
    },
    join(guild) {
      addGuild(guild);
      dispatch('GUILD_CREATE', guildPayload(guild.id));
    },
    removeFromGuild(guildId, { unavailable = false } = {}) {
      if (!unavailable) memberships.delete(guildId);
      dispatch('GUILD_DELETE', unavailable ? { id: guildId, unavailable: true } : { id: guildId });
    },
    guilds: () => [...memberships],
    waitFor(match, what = 'request') {
      const found = requests.find(match);
      if (found !== undefined) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          events.off('request', listener);
          reject(
            new Error(
              `Timed out waiting for ${what}; saw ${requests.map((r) => `${r.method} ${r.path}`).join(', ')}`,
            ),
          );
        }, 8000);
        timer.unref();
        const listener = (request: FakeRequest) => {
          if (!match(request)) return;
          clearTimeout(timer);
          events.off('request', listener);
          resolve(request);
        };
        events.on('request', listener);
      });
    },
    message: (id) => messages.get(id),
    attachment: (id) => attachments.file(id),
    original: (token) => {
      const id = originals.get(token);
      return id === undefined ? undefined : messages.get(id);
    },
    expireInteractions() {
      for (const key of sent) expired.add(key);
    },
    forgetNonces() {
      nonces.clear();
    },
    denyHistory() {
      historyDenied = true;
      for (const channel of channels.values()) {
        if (channel.type !== 0) continue;
        const deny = { id: channel.guild_id, type: 0, allow: '0', deny: READ_MESSAGE_HISTORY.toString() };
        channel.permission_overwrites = [deny];
      }
    },
    say(post) {
      const author = post.author ?? DEFAULT_USER;
      const guildId = post.guildId === undefined ? options.guildId : post.guildId;
      const channelId =
        guildId === null
          ? fake.dmChannelOf(author.id)
          : (post.channelId ??
            [...channels.values()].find((c) => c.type === 0 && c.guild_id === guildId)?.id ??
            options.channelId);
      const userOf = (user: FakeUser & { bot?: boolean }) => ({
        id: user.id,
        username: user.username,
        discriminator: '0',
        avatar: null,
        global_name: user.username,
        ...(user.bot === true ? { bot: true } : {}),
      });
      const mentioned = (post.mentions ?? []).map((id) =>
        id === options.applicationId
          ? { ...userOf({ id, username: 'scout' }), bot: true }
          : userOf({ id, username: `user${id.slice(-4)}` }),
      );
      const message: FakeMessage = {
        id: snowflake(),
        channel_id: channelId,
        // MESSAGE_CREATE carries the channel's type, by which discord.js builds a DM channel it has not seen yet.
        channel_type: guildId === null ? 1 : (channels.get(channelId)?.type ?? 0),
        ...(guildId === null ? {} : { guild_id: guildId }),
        author: userOf(author),
        // A message in a server carries its author's member (without the user), never in a DM.
        ...(guildId === null || post.webhookId !== undefined
          ? {}
          : { member: { ...memberPayload(author), user: undefined } }),
        content: post.content,
        timestamp: new Date().toISOString(),
        edited_timestamp: null,
        tts: false,
        mention_everyone: post.mentionEveryone === true,
        mentions: mentioned,
        mention_roles: [],
        attachments: [],
        embeds: [],
        components: [],
        pinned: false,
        type: post.type ?? 0,
        flags: 0,
        ...(post.webhookId === undefined ? {} : { webhook_id: post.webhookId }),
      };
      messages.set(message.id, message);
      dispatch('MESSAGE_CREATE', message);
      return message;
    },
    editMessage(id, content) {
      const message = messages.get(id);
      if (message === undefined) throw new Error(`No message ${id}`);
      // The mentions are read again from the new content, as Discord does.
      const mentions = [...content.matchAll(/<@!?(\d+)>/g)].map(([, id]) => ({
        id,
        username: id === options.applicationId ? 'scout' : `user${String(id).slice(-4)}`,
        discriminator: '0',
        avatar: null,
        ...(id === options.applicationId ? { bot: true } : {}),
      }));
      const edited = { ...message, content, mentions, edited_timestamp: new Date().toISOString() };
      messages.set(id, edited);
      dispatch('MESSAGE_UPDATE', edited);
    },
    deleteMessage(id) {
      const message = messages.get(id);
      if (message === undefined) throw new Error(`No message ${id}`);
      messages.delete(id);
      dispatch('MESSAGE_DELETE', {
        id,
        channel_id: message.channel_id,
        ...(message.guild_id === undefined ? {} : { guild_id: message.guild_id }),
      });
    },
    addMember(guildId, user) {
      const people = members.get(guildId) ?? new Map<string, FakeUser>();
      people.set(user.id, user);
      members.set(guildId, people);
    },
    dmChannelOf(userId) {
      return String(dmChannel({ recipient_id: userId }).id);
    },
    chatter(channelId, count) {
      for (let i = 0; i < count; i++) {
        storeMessage(
          {
            content: `chatter ${i}`,
            author: { id: '200000000000000077', username: 'ivy', discriminator: '0', avatar: null },
          },
          snowflake(),
          channelId,
        );
      }
    },
  };
  return fake;
}
