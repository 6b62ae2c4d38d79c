/**
 * `npm run bench`: throughput and latency of Scout's hot paths on this machine, written to docs/benchmarks.md.
 * Loopback only (the sandbox on 127.0.0.1), bounded counts, stops by itself.
 */
import { writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { cpus } from 'node:os';
import { performance } from 'node:perf_hooks';
import { createSlackAdapter } from '../src/adapters/slack/index.js';
import { LOCAL_ACTOR } from '../src/adapters/terminal/shell.js';
import { createApp } from '../src/app.js';
import { FAMILIES } from '../src/commands/index.js';
import { renderSpendChart } from '../src/core/charts/render.js';
import { lastDays, spendByDay } from '../src/core/charts/spend.js';
import { bindTokens } from '../src/core/command/bind.js';
import { createInterpreter } from '../src/core/command/interpret/index.js';
import { createRegistry } from '../src/core/command/registry.js';
import { tokenize } from '../src/core/command/tokenize.js';
import { createLogger } from '../src/core/logger.js';
import { openDatabase } from '../src/core/store/database.js';
import { createLedger } from '../src/core/store/ledger.js';
import { createSandbox } from '../src/sandbox/index.js';
import { CASES, FOLLOW_UPS, NEGATIVE, NOW } from '../test/core/command/interpret/corpus.js';
import { startFakeSlack } from '../test/fakes/slack-api.js';
import { ackRows, compareAcks } from './ack.js';
import { writeLoad } from './load.js';
import { writeReplicas } from './replicas.js';
import { sizeRows } from './sizes.js';
import { writeSoak } from './soak.js';
import { measureStart } from './start.js';

interface Row {
  name: string;
  figure: string;
}

/** The interpreter's time per line over the corpus's sentences and follow-ups, against the working message's 500 ms. */
function interpreterRow(): Row {
  const interpreter = createInterpreter(createRegistry(FAMILIES), { now: () => NOW });
  const lines: Array<[string, { line: string } | undefined]> = [
    ...CASES.map(([sentence]): [string, undefined] => [sentence, undefined]),
    ...FOLLOW_UPS.map(([after, sentence]): [string, { line: string }] => [sentence, { line: after }]),
    ...NEGATIVE.map((sentence): [string, undefined] => [sentence, undefined]),
  ];
  for (const [sentence, after] of lines) interpreter.interpret(sentence, after);
  const times: number[] = [];
  for (let round = 0; round < 20; round++) {
    for (const [sentence, after] of lines) {
      const start = performance.now();
      interpreter.interpret(sentence, after);
      times.push(performance.now() - start);
    }
  }
  times.sort((a, b) => a - b);
  const ms = (v: number) => `${v.toFixed(2)} ms`;
  return {
    name: `read a plain-words line (the ${lines.length} corpus lines, 20 rounds; budget 500 ms)`,
    figure: `p50 ${ms(percentile(times, 50))}, p99 ${ms(percentile(times, 99))}, max ${ms(times.at(-1) ?? 0)}`,
  };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

function throughput(name: string, count: number, fn: (i: number) => void): Row {
  for (let i = 0; i < Math.min(1000, count); i++) fn(i);
  const start = performance.now();
  for (let i = 0; i < count; i++) fn(i);
  const seconds = (performance.now() - start) / 1000;
  return { name, figure: `${Math.round(count / seconds).toLocaleString('en-US')} ops/s (${count} ops)` };
}

/** As throughput, for work that completes asynchronously: one call at a time, each awaited. */
async function throughputAsync(
  name: string,
  count: number,
  fn: (i: number) => Promise<unknown>,
): Promise<Row> {
  for (let i = 0; i < Math.min(1000, count); i++) await fn(i);
  const start = performance.now();
  for (let i = 0; i < count; i++) await fn(i);
  const seconds = (performance.now() - start) / 1000;
  return { name, figure: `${Math.round(count / seconds).toLocaleString('en-US')} ops/s (${count} ops)` };
}

async function latency(name: string, count: number, fn: () => Promise<unknown>): Promise<Row> {
  for (let i = 0; i < 20; i++) await fn();
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const start = performance.now();
    await fn();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  const ms = (v: number) => `${v.toFixed(2)} ms`;
  return {
    name,
    figure: `p50 ${ms(percentile(times, 50))}, p95 ${ms(percentile(times, 95))}, p99 ${ms(percentile(times, 99))} (${count} runs)`,
  };
}

/** What a run of stalled uploads cost the Slack adapter, and how the server answered them. */
interface Siege {
  baselineRssMb: number;
  peakRssMb: number;
  /** From the first connection until the server had closed the last; null if some were still open at the deadline. */
  closedAfterMs: number | null;
  /** The server's answers, by status line (none for a connection closed without one). */
  answers: Map<string, number>;
}

const MB = 1024 * 1024;
/** How long the siege waits for the server to close every connection before it gives up and closes them itself. */
const SIEGE_DEADLINE_MS = 60_000;

/**
 * Opens `count` unsigned uploads to the Slack adapter's events endpoint on loopback, each announcing `announced`
 * bytes, sending `sent` of them and then stalling, and samples RSS until the server has closed every one.
 */
async function siege(port: number, count: number, announced: number, sent: number): Promise<Siege> {
  // With --expose-gc (npm run bench), the baseline is taken after a full collection.
  (globalThis as { gc?: () => void }).gc?.();
  const baseline = process.memoryUsage.rss();
  let peak = baseline;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 10);
  const answers = new Map<string, number>();
  const head = `POST /slack/events HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${announced}\r\n\r\n`;
  const filler = Buffer.alloc(sent, 'a');
  const started = performance.now();
  const sockets = Array.from({ length: count }, () => connect({ host: '127.0.0.1', port }));
  const closings = sockets.map(
    (socket) =>
      new Promise<number>((resolve) => {
        let reply = '';
        socket.on('data', (chunk: Buffer) => {
          if (reply.length < 64) reply += chunk.toString('latin1');
        });
        // The server closes a refused upload with part of it unread: a reset here is expected.
        socket.on('error', () => {});
        socket.once('connect', () => {
          socket.write(head);
          socket.write(filler);
        });
        socket.once('close', () => {
          const status = reply === '' ? 'closed, no answer' : (reply.split('\r\n')[0] ?? reply);
          answers.set(status, (answers.get(status) ?? 0) + 1);
          resolve(performance.now());
        });
      }),
  );
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), SIEGE_DEADLINE_MS);
  });
  const closedAt = await Promise.race([Promise.all(closings), deadline]);
  clearTimeout(timer);
  clearInterval(sampler);
  for (const socket of sockets) socket.destroy();
  peak = Math.max(peak, process.memoryUsage.rss());
  return {
    baselineRssMb: baseline / MB,
    peakRssMb: peak / MB,
    closedAfterMs: closedAt === null ? null : Math.max(...closedAt) - started,
    answers,
  };
}

/**
 * Rows for stalled unsigned uploads against the Slack adapter in HTTP mode, with its production limits. It runs
 * first, on an app of its own, so its RSS figures are not those the other measurements leave behind.
 */
async function slackSieges(): Promise<Row[]> {
  const slack = await startFakeSlack();
  // Unsigned uploads never reach the service: nothing listens at this address.
  const app = await createApp({
    service: { apiKey: 'bench-key-0002', baseUrl: 'http://127.0.0.1:9', mediaUrl: 'http://127.0.0.1:9' },
    databasePath: ':memory:',
    logger: createLogger({ level: 'silent' }),
    families: FAMILIES,
  });
  const adapter = createSlackAdapter({
    config: {
      botToken: 'xoxb-bench',
      oauth: null,
      signingSecret: 'bench-signing-secret-0001',
      appToken: null,
      apiUrl: slack.apiUrl,
      port: 0,
    },
    chat: app.chat,
    logger: createLogger({ level: 'silent' }),
  });
  await adapter.start();
  const out: Row[] = [];
  try {
    const port = adapter.port ?? 0;
    const runs = [
      { what: 'announcing 3.9 MB (over the body limit)', announced: 3_900_000, sent: 64 * 1024 },
      { what: 'announcing 900 kB (within the body limit)', announced: 900 * 1024, sent: 64 * 1024 },
    ];
    for (const run of runs) {
      const result = await siege(port, 100, run.announced, run.sent);
      const closed =
        result.closedAfterMs === null
          ? `not all closed within ${SIEGE_DEADLINE_MS / 1000} s`
          : `all closed by the server after ${(result.closedAfterMs / 1000).toFixed(2)} s`;
      const answers = [...result.answers].map(([status, n]) => `${n} × ${status}`).join(', ');
      out.push({
        name: `Slack HTTP mode: 100 unsigned uploads ${run.what}, 64 kB sent, then stalled`,
        figure: `peak RSS ${result.peakRssMb.toFixed(0)} MB (${result.baselineRssMb.toFixed(0)} MB before); ${closed}; ${answers} (targets: under 250 MB, closed within 15 s)`,
      });
    }
  } finally {
    await adapter.stop();
    await app.stop();
    await slack.stop();
  }
  return out;
}

// Compiles dist/ when stale: the processes measured below run as production runs them.
const starts = await measureStart();
const sieges = await slackSieges();

const rows: Row[] = [];
const spec = FAMILIES.find((f) => f.name === 'creators')?.commands.find((c) => c.name === 'search');
const line =
  'followers:10k-100k niche:"skin care" country:"united states" er:>3 platform:tiktok emailExists:yes';
if (spec !== undefined) {
  rows.push(
    throughput('parse a creators search line (tokenize + bind)', 50_000, () =>
      bindTokens(spec.params, tokenize(line)),
    ),
  );
}

rows.push(interpreterRow());

const db = await openDatabase({ path: ':memory:' });
const ledger = createLedger(db);
const at = new Date();
rows.push(
  await throughputAsync('record a ledger row (SQLite, WAL, in memory)', 50_000, (i) =>
    ledger.record({
      at,
      platform: 'slack',
      workspaceId: 'T1',
      userId: `U${i % 50}`,
      operation: 'creators.get',
      command: 'creators search',
      units: 5,
      credits: 5,
      balance: null,
      idempotencyKey: `bench-${i}-${Math.random()}`,
    }),
  ),
);
rows.push(
  await throughputAsync('sum a person’s spend today (ledger of 50k rows)', 20_000, () =>
    ledger.spent(
      { platform: 'slack', workspaceId: 'T1', userId: 'U7' },
      { from: new Date(0), to: new Date(8.64e15) },
    ),
  ),
);
rows.push(
  await throughputAsync('team spend per day and person, 30 days (ledger of 50k rows)', 2_000, () =>
    ledger.daily({ platform: 'slack', workspaceId: 'T1' }, { from: new Date(0), to: new Date(8.64e15) }),
  ),
);
await db.close();

const chartDays = lastDays(new Date(), 30);
const chartRows = chartDays.flatMap((day, d) =>
  Array.from({ length: 8 }, (_, p) => ({ day, userId: `U${p}`, credits: ((d * 7 + p * 13) % 40) + 1 })),
);
let chartRun = 0;
rows.push(
  // A new title each run, so every run draws (the same spend is otherwise drawn once and kept).
  await latency('draw the 30-day spend chart as PNG (8 people, not cached)', 100, () =>
    renderSpendChart(spendByDay(chartRows, chartDays), { title: `Team spend ${chartRun++}` }),
  ),
);

const sandbox = createSandbox({
  rateLimitPerMinute: 1_000_000,
  keys: [{ key: 'bench-key-0001', teamId: 't', credits: 1e9 }],
});
await sandbox.start();
const app = await createApp({
  service: {
    apiKey: 'bench-key-0001',
    baseUrl: sandbox.url,
    mediaUrl: sandbox.mediaUrl,
    rateLimit: { perWindow: 1_000_000 },
  },
  databasePath: ':memory:',
  logger: createLogger({ level: 'silent' }),
  families: FAMILIES,
});
const invocation = { actor: LOCAL_ACTOR, channelId: 'bench' };
rows.push(
  await latency('dispatch `/scout help` (no service call)', 500, () =>
    app.dispatcher.text({ ...invocation, text: 'help' }),
  ),
);
rows.push(
  await latency('service client: creator search against the loopback sandbox', 300, () =>
    app.service.creators.search({ mainCategory: 'Fitness', perPage: 100 }),
  ),
);
rows.push(
  await latency('dispatch a malformed command (answered, nothing sent)', 500, () =>
    app.dispatcher.text({ ...invocation, text: 'creators search followers:lots country:"Atlantis' }),
  ),
);
rows.push(
  await latency('dispatch a paid request in plain words (shown first with Run, nothing sent)', 500, () =>
    app.dispatcher.text({ ...invocation, text: 'find fitness creators in France with over 10k followers' }),
  ),
);
rows.push(...(await sizeRows(app, LOCAL_ACTOR)));
rows.push(...sieges);
await app.stop();
await sandbox.stop();
rows.push(...starts);
rows.push(...ackRows(await compareAcks()));

const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, Node ${process.version}`;
const report = [
  '# Benchmarks',
  '',
  'Written by `npm run bench` (bench/run.ts). Loopback only; figures vary with the machine.',
  '',
  `Machine: ${machine}. Run: ${new Date().toISOString().slice(0, 10)}.`,
  '',
  '| what | figure |',
  '|---|---|',
  ...rows.map((r) => `| ${r.name} | ${r.figure} |`),
  '',
].join('\n');
writeFileSync(new URL('../docs/benchmarks.md', import.meta.url), report);
process.stdout.write(`${report}\n`);
await writeLoad(new URL('../docs/benchmarks.md', import.meta.url));
await writeSoak(new URL('../docs/benchmarks.md', import.meta.url));
await writeReplicas(new URL('../docs/benchmarks.md', import.meta.url));
