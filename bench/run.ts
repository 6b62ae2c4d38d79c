/**
 * `npm run bench`: throughput and latency of Scout's hot paths on this machine, written to docs/benchmarks.md.
 * Loopback only (the sandbox on 127.0.0.1), bounded counts, stops by itself.
 */
import { writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { performance } from 'node:perf_hooks';
import { LOCAL_ACTOR } from '../src/adapters/terminal/shell.js';
import { createApp } from '../src/app.js';
import { FAMILIES } from '../src/commands/index.js';
import { bindTokens } from '../src/core/command/bind.js';
import { tokenize } from '../src/core/command/tokenize.js';
import { createLogger } from '../src/core/logger.js';
import { openDatabase } from '../src/core/store/database.js';
import { createLedger } from '../src/core/store/ledger.js';
import { createSandbox } from '../src/sandbox/index.js';

interface Row {
  name: string;
  figure: string;
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

const db = openDatabase({ path: ':memory:' });
const ledger = createLedger(db);
const at = new Date();
rows.push(
  throughput('record a ledger row (SQLite, WAL, in memory)', 50_000, (i) =>
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
  throughput('sum a person’s spend today (ledger of 50k rows)', 20_000, () =>
    ledger.spent(
      { platform: 'slack', workspaceId: 'T1', userId: 'U7' },
      { from: new Date(0), to: new Date(8.64e15) },
    ),
  ),
);
db.close();

const sandbox = createSandbox({
  rateLimitPerMinute: 1_000_000,
  keys: [{ key: 'bench-key-0001', teamId: 't', credits: 1e9 }],
});
await sandbox.start();
const app = createApp({
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
await app.stop();
await sandbox.stop();

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
