/**
 * The memory soak of `npm run bench`: the real app over the embedded sandbox, rounds of mixed commands and button
 * presses through the dispatcher, with RSS and heap measured after each round (after a full collection when
 * `--expose-gc` is on). Memory that keeps climbing from round to round is something kept that should not be.
 */
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { LOCAL_ACTOR } from '../src/adapters/terminal/shell.js';
import { type App, createApp } from '../src/app.js';
import { FAMILIES } from '../src/commands/index.js';
import type { Actor } from '../src/core/actor.js';
import { createLogger } from '../src/core/logger.js';
import { sql } from '../src/core/store/sql.js';
import type { Reply } from '../src/core/ui/index.js';
import { createSandbox, type Sandbox } from '../src/sandbox/index.js';

/** Memory after one round. */
export interface SoakRound {
  round: number;
  commands: number;
  seconds: number;
  rssMb: number;
  heapUsedMb: number;
  /** Size of the database file: rows Scout keeps (buttons, claims, ledger), on disk as in production. */
  databaseMb: number;
}

/** Options of runSoak. */
export interface SoakOptions {
  rounds?: number;
  commandsPerRound?: number;
  /** Called after each round's measurement, with the app and sandbox still running (for deeper looks). */
  afterRound?: (round: SoakRound, app: App, sandbox: Sandbox) => Promise<void> | void;
}

/** The soak's figures and whether the last two rounds are within 10% of each other. */
export interface SoakResult {
  rounds: SoakRound[];
  /** Whether a full collection ran before each measurement. */
  collected: boolean;
  rssSteady: boolean;
  heapSteady: boolean;
}

const KEY = 'soak-key-0001';
const MB = 1024 * 1024;

/** A small deterministic generator (mulberry32), so every run sends the same mix. */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const CATEGORIES = ['Fitness', 'Food', 'Beauty', 'Gaming', 'Travel', 'Fashion', 'Pets', 'Music'];
const NICHES = ['yoga', 'skin care', 'vegan', 'running', 'street food', 'makeup', 'hiking', 'cats'];
const COUNTRIES = ['"United States"', 'Germany', 'Japan', 'France', 'Brazil', '"United Kingdom"'];
const FOLLOWERS = ['1k-10k', '10k-100k', '>1k', '100k-1m', '>50k', '5k-500k'];
const PLATFORMS = ['tiktok', 'instagram', 'youtube'];
const SONG_COUNTRIES = ['US', 'GB', 'FR', 'DE', 'JP'];
const SONG_WORDS = ['moon', 'midnight', 'golden', 'love', 'summer', 'night'];
const HELP = ['help', 'help creators', 'help lists', 'help viral', 'help songs', 'help credits show'];
const MALFORMED = [
  'creators search followers:lots',
  'creators search country:"Atlantis',
  'viral virality:high',
  'songs rankings week:soon',
  'nosuch command',
];

/** What a person may press next in a reply: its pager, and the Details and Open buttons of its rows. */
interface Pressable {
  next: string | null;
  prev: string | null;
  open: string[];
}

function pressableOf(reply: Reply): Pressable | null {
  const found: Pressable = { next: null, prev: null, open: [] };
  let any = false;
  for (const node of reply.nodes) {
    if (node.type === 'pager') {
      found.next = node.nextActionId;
      found.prev = node.prevActionId;
      any = true;
    }
    if (node.type === 'card') {
      for (const b of node.actions)
        if (b.label === 'Details' || b.label === 'Open') found.open.push(b.actionId);
      any = true;
    }
  }
  return any ? found : null;
}

/** Runs the soak and returns its figures; stops the app and the sandbox it started. */
export async function runSoak(options: SoakOptions = {}): Promise<SoakResult> {
  const rounds = options.rounds ?? 4;
  const perRound = options.commandsPerRound ?? 1_500;
  const collect = (globalThis as { gc?: () => void }).gc;
  const sandbox = createSandbox({
    // High enough that the contract's 60 a minute never throttles the soak.
    rateLimitPerMinute: 100_000_000,
    keys: [{ key: KEY, teamId: 'team_soak', credits: 1e12 }],
  });
  await sandbox.start();
  // A database file, as in production: what Scout stores is on disk, so RSS shows what the process holds.
  const folder = mkdtempSync(join(tmpdir(), 'scout-soak-'));
  const app = await createApp({
    service: {
      apiKey: KEY,
      baseUrl: sandbox.url,
      mediaUrl: sandbox.mediaUrl,
      rateLimit: { perWindow: 100_000_000 },
    },
    databasePath: join(folder, 'scout.db'),
    logger: createLogger({ level: 'silent' }),
    families: FAMILIES,
  });
  const databaseMb = async () => {
    const pages = await app.store.db.one<{ page_count: number }>(sql`PRAGMA page_count`);
    const size = await app.store.db.one<{ page_size: number }>(sql`PRAGMA page_size`);
    return (Number(pages?.page_count) * Number(size?.page_size)) / MB;
  };
  const random = generator(20_260_101);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const people: Actor[] = ['me', 'ana', 'bo', 'cy', 'di'].map((userId) => ({ ...LOCAL_ACTOR, userId }));
  // What each person's latest result offers to press, as a person pages through or opens what they last saw.
  const pressable = new Map<string, Pressable>();

  const searchLine = (): string => {
    const parts = ['creators search'];
    if (random() < 0.7) parts.push(`category:${pick(CATEGORIES)}`);
    if (random() < 0.5) parts.push(`niche:"${pick(NICHES)}"`);
    if (random() < 0.6) parts.push(`followers:${pick(FOLLOWERS)}`);
    if (random() < 0.4) parts.push(`country:${pick(COUNTRIES)}`);
    if (random() < 0.3) parts.push(`platform:${pick(PLATFORMS)}`);
    if (random() < 0.3) parts.push(`er:>${1 + Math.floor(random() * 5)}`);
    if (random() < 0.2) parts.push('emailExists:yes');
    return parts.join(' ');
  };

  const step = async (i: number): Promise<void> => {
    const actor = people[i % people.length] as Actor;
    const invocation = { actor, channelId: `soak-${i % 3}` };
    const roll = random();
    const last = pressable.get(actor.userId);
    let reply: Reply;
    if (roll < 0.28) {
      reply = await app.dispatcher.text({ ...invocation, text: searchLine() });
    } else if (roll < 0.4 && last?.next) {
      reply = await app.dispatcher.action({ ...invocation, token: last.next });
    } else if (roll < 0.44 && last?.prev) {
      reply = await app.dispatcher.action({ ...invocation, token: last.prev });
    } else if (roll < 0.48 && last !== undefined && last.open.length > 0) {
      reply = await app.dispatcher.action({ ...invocation, token: pick(last.open) });
    } else if (roll < 0.58) {
      const categories = `categories:${pick(CATEGORIES)}`;
      reply = await app.dispatcher.text({
        ...invocation,
        text: random() < 0.5 ? `viral ${categories}` : `viral ${categories} since:7d`,
      });
    } else if (roll < 0.68) {
      const songs = [
        'songs countries',
        `songs rankings ${pick(SONG_COUNTRIES)}`,
        'songs global',
        `songs new-entries ${pick(SONG_COUNTRIES)}`,
        `songs search q:${pick(SONG_WORDS)}`,
      ];
      reply = await app.dispatcher.text({ ...invocation, text: pick(songs) });
    } else if (roll < 0.78) {
      reply = await app.dispatcher.text({ ...invocation, text: 'lists' });
    } else if (roll < 0.86) {
      reply = await app.dispatcher.text({ ...invocation, text: 'credits' });
    } else if (roll < 0.95) {
      reply = await app.dispatcher.text({ ...invocation, text: pick(HELP) });
    } else {
      reply = await app.dispatcher.text({ ...invocation, text: pick(MALFORMED) });
    }
    const found = pressableOf(reply);
    if (found !== null) pressable.set(actor.userId, found);
  };

  const result: SoakRound[] = [];
  let done = 0;
  try {
    for (let round = 1; round <= rounds; round++) {
      const started = performance.now();
      for (let i = 0; i < perRound; i++) await step(done + i);
      done += perRound;
      const seconds = (performance.now() - started) / 1000;
      // Twice: the first collection may leave finalizers whose objects the second one frees.
      collect?.();
      collect?.();
      const memory = process.memoryUsage();
      const measured: SoakRound = {
        round,
        commands: perRound,
        seconds,
        rssMb: memory.rss / MB,
        heapUsedMb: memory.heapUsed / MB,
        databaseMb: await databaseMb(),
      };
      result.push(measured);
      await options.afterRound?.(measured, app, sandbox);
    }
  } finally {
    await app.stop();
    await sandbox.stop();
    rmSync(folder, { recursive: true, force: true });
  }
  const within = (a: number, b: number) => Math.abs(b - a) <= 0.1 * a;
  const last = result.at(-1);
  const before = result.at(-2);
  return {
    rounds: result,
    collected: collect !== undefined,
    rssSteady: last !== undefined && before !== undefined && within(before.rssMb, last.rssMb),
    heapSteady: last !== undefined && before !== undefined && within(before.heapUsedMb, last.heapUsedMb),
  };
}

/** The soak as a section of docs/benchmarks.md. */
export function soakMarkdown(soak: SoakResult): string {
  const first = soak.rounds[0];
  const perRound = first?.commands ?? 0;
  const verdict = (ok: boolean) => (ok ? 'yes' : '**no**');
  return [
    '## Memory over time (soak)',
    '',
    `${soak.rounds.length} rounds of ${perRound.toLocaleString('en-US')} mixed commands and button presses through the dispatcher ` +
      '(creator searches with varied filters, paging, viral, songs, lists, credits, help, malformed input) by five ' +
      'people, against the embedded sandbox, with the database in a file as in production; measured after each round' +
      (soak.collected
        ? ', after a full garbage collection.'
        : ' (run without `--expose-gc`: no collection forced).'),
    '',
    '| round | seconds | RSS | heap used | database file |',
    '|---|---|---|---|---|',
    ...soak.rounds.map(
      (r) =>
        `| ${r.round} | ${r.seconds.toFixed(1)} | ${r.rssMb.toFixed(1)} MB | ${r.heapUsedMb.toFixed(1)} MB | ${r.databaseMb.toFixed(1)} MB |`,
    ),
    '',
    `Last two rounds within 10%: RSS ${verdict(soak.rssSteady)}, heap used ${verdict(soak.heapSteady)}.`,
    '',
  ].join('\n');
}

/** Runs the soak and appends its section to the benchmarks page at `page` (and to stdout). */
export async function writeSoak(page: URL): Promise<SoakResult> {
  const soak = await runSoak();
  const section = soakMarkdown(soak);
  appendFileSync(page, `\n${section}`);
  process.stdout.write(`\n${section}`);
  return soak;
}
