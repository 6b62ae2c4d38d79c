/** createSandbox: the local emulator of the service, its lifecycle and its test-facing controls. */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { InternalError, SetupError } from '../core/errors.js';
import { createAccounts } from './accounts.js';
import { createAdmin, parseFault } from './admin.js';
import { addReply } from './data/replies.js';
import { createWorld } from './data/world.js';
import { agentOperations } from './ops/agent.js';
import { creatorOperations } from './ops/creators.js';
import { crmOperations } from './ops/crm.js';
import { mediaOperations } from './ops/media.js';
import { SONG_REQUEST_CREDITS, songOperations } from './ops/songs.js';
import { videoOperations } from './ops/videos.js';
import { viralOperations } from './ops/viral.js';
import { createRequestHandler, type PlainAnswer } from './server/handler.js';
import { errorBody } from './server/http.js';
import { createRouter, type MediaOutput } from './server/router.js';
import type { Sandbox, SandboxAgentMessage, SandboxKey, SandboxOptions, SandboxRequestLog } from './types.js';

/** The key the sandbox accepts by default. */
export const DEMO_KEY = 'sandbox-demo-key';
/** Team of the demo key. */
export const DEMO_TEAM_ID = 'team_demo';
/** Balance of the demo key. */
export const DEMO_CREDITS = 100_000;
/** A second demo team's key, with its own CRM, agent projects and balance: for trying many teams locally. */
export const DEMO_KEY_2 = 'sandbox-demo-key-2';
/** Team of the second demo key. */
export const DEMO_TEAM_ID_2 = 'team_demo_2';
/** Balance of the second demo key. */
export const DEMO_CREDITS_2 = 50_000;
/** Seed used when none is given. */
export const DEFAULT_SEED = 20_260_101;
/** Requests kept in the log; older ones are dropped so a long-running sandbox stays small. */
const LOG_LIMIT = 10_000;

// The smallest valid PNG (1x1 transparent) and MP4 header, served as the processed files.
const PNG_BYTES = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const MP4_BYTES = Buffer.from('000000186674797069736f6d0000020069736f6d69736f32', 'hex');

/** Creates a sandbox; call start() to listen. */
export function createSandbox(options: SandboxOptions = {}): Sandbox {
  const now = options.now ?? Date.now;
  const host = options.host ?? '127.0.0.1';
  const world = createWorld(options.seed ?? DEFAULT_SEED, now());
  const demo: SandboxKey = {
    key: DEMO_KEY,
    teamId: DEMO_TEAM_ID,
    credits: DEMO_CREDITS,
    ownerName: 'Demo Owner',
  };
  const second: SandboxKey = {
    key: DEMO_KEY_2,
    teamId: DEMO_TEAM_ID_2,
    credits: DEMO_CREDITS_2,
    ownerName: 'Second Demo Owner',
  };
  const songCredits = options.songRequestCredits ?? SONG_REQUEST_CREDITS;
  if (!Number.isInteger(songCredits) || songCredits < 0)
    throw new SetupError('songRequestCredits must be a whole number of credits, 0 or more');
  const accounts = createAccounts(options.keys ?? [demo, second], options.rateLimitPerMinute ?? 60);
  const log: SandboxRequestLog[] = [];
  const held = new Set<ServerResponse>();
  const timers = new Set<NodeJS.Timeout>();
  const outputs = new Map<string, 'image' | 'video'>();
  let server: Server | undefined;
  let base: string | undefined;
  let replyTimer: NodeJS.Timeout | undefined;

  const baseUrl = (): string => {
    if (base === undefined) throw new InternalError('The sandbox is not started: call start() first');
    return base;
  };
  const media: MediaOutput = {
    delayMs: options.remixDelayMs ?? 0,
    publish: (kind, name) => {
      const path = `/output/${kind}s/${name}`;
      outputs.set(path, kind);
      return `${baseUrl()}${path}`;
    },
  };
  const output = (path: string): PlainAnswer => {
    const kind = outputs.get(path);
    if (!kind) return { status: 404, body: errorBody('C', 404, `No processed file at ${path}`) };
    return kind === 'image'
      ? { status: 200, body: null, bytes: PNG_BYTES, headers: { 'content-type': 'image/png' } }
      : { status: 200, body: null, bytes: MP4_BYTES, headers: { 'content-type': 'video/mp4' } };
  };

  const addInboundReply = (teamId: string, replyOptions = {}): SandboxAgentMessage => {
    const account = accounts.all().find((a) => a.teamId === teamId);
    return addReply(world.team(teamId, account?.ownerName), now(), replyOptions);
  };
  const injectFaults: Sandbox['injectFaults'] = (key, fault, count = 1) => {
    const account = accounts.require(key);
    const valid = parseFault(fault);
    for (let i = 0; i < count; i++) account.faults.push(valid);
  };
  const urls = () => ({ url: baseUrl(), mediaUrl: `${baseUrl()}/media`, outputUrl: `${baseUrl()}/output` });

  const handler = createRequestHandler({
    world,
    accounts,
    now,
    route: createRouter([
      ...creatorOperations(),
      ...crmOperations(),
      ...viralOperations(),
      ...songOperations(songCredits),
      ...agentOperations(),
      ...videoOperations(),
      ...mediaOperations(),
    ]),
    media,
    admin: createAdmin({ urls, injectFaults, addInboundReply }),
    output,
    log: (entry) => {
      log.push(entry);
      if (log.length > LOG_LIMIT) log.splice(0, log.length - LOG_LIMIT);
    },
    held,
    timers,
  });

  const tickReplies = (): void => {
    const teams = new Set([...accounts.all().map((a) => a.teamId), ...world.teams().map((t) => t.teamId)]);
    for (const teamId of teams) {
      try {
        addInboundReply(teamId);
      } catch {
        // A team without any conversation simply gets no reply.
      }
    }
  };

  return {
    get url() {
      return urls().url;
    },
    get mediaUrl() {
      return urls().mediaUrl;
    },
    get outputUrl() {
      return urls().outputUrl;
    },
    start: async () => {
      if (server) return;
      const created = createServer(handler);
      await new Promise<void>((resolve, reject) => {
        created.once('error', reject);
        created.listen(options.port ?? 0, host, () => {
          created.off('error', reject);
          resolve();
        });
      });
      server = created;
      const { port } = created.address() as AddressInfo;
      base = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
      const interval = options.replyIntervalMs ?? 0;
      if (interval > 0) {
        replyTimer = setInterval(tickReplies, interval);
        replyTimer.unref();
      }
    },
    stop: async () => {
      if (replyTimer) clearInterval(replyTimer);
      replyTimer = undefined;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      for (const res of held) res.destroy();
      held.clear();
      const closing = server;
      server = undefined;
      if (!closing) return;
      await new Promise<void>((resolve) => {
        closing.close(() => resolve());
        closing.closeAllConnections();
      });
    },
    addKey: (key) => {
      accounts.add(key);
    },
    credits: (key) => accounts.require(key).credits,
    setCredits: (key, credits) => {
      accounts.require(key).credits = credits;
    },
    injectFaults,
    requests: (key) => (key === undefined ? [...log] : log.filter((entry) => entry.key === key)),
    addInboundReply,
  };
}
