/**
 * Scout's entry point in the terminal (no chat platform configured), with piped input, as a script or a container
 * runs it: logs are JSON lines on standard error, never on standard output (the shell's) and in no file (scout.log
 * beside the database is for a person typing at a terminal: test/core/logger.test.ts); with the embedded sandbox the
 * greeting says its data is demo data reset on every start, while Scout's own ledger is kept.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createSandbox } from '../../../src/sandbox/index.js';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** What Scout printed on each stream and how it ended, with its database and log file. */
interface Run {
  stdout: string;
  stderr: string;
  code: number | null;
  database: string;
  log: string;
}

/** Starts Scout in the terminal with `env`, `input` piped in and ended, at LOG_LEVEL info. */
function runScout(env: Record<string, string>, input: string): Promise<Run> {
  const dir = mkdtempSync(join(tmpdir(), 'scout-start-'));
  dirs.push(dir);
  const database = join(dir, 'scout.db');
  const child = spawn(join('node_modules', '.bin', 'tsx'), ['src/main.ts'], {
    env: { PATH: process.env.PATH ?? '', HOME: dir, DATABASE_PATH: database, LOG_LEVEL: 'info', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  child.stdin.end(input);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => resolve({ stdout, stderr, code, database, log: join(dir, 'scout.log') }));
  });
}

const JSON_LINE = /^\{"level"/m;

describe('Scout in the terminal', () => {
  it('logs JSON lines on standard error, and says the sandbox’s data is reset while its ledger is kept', {
    timeout: 30_000,
  }, async () => {
    const run = await runScout({}, 'help\n');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      `Demo data: the sandbox's creators, lists and credits reset on every start; Scout's ledger (${run.database}) is kept.`,
    );
    expect(run.stdout).toContain('/scout creators');
    expect(run.stdout).not.toMatch(JSON_LINE);
    expect(run.stdout).not.toContain('Logs are written to');
    expect(run.stderr).toMatch(/"msg":"No SCOUT_API_KEY set: running against the embedded sandbox/);
    expect(run.stderr).toContain('"msg":"Scout stopped."');
    expect(existsSync(run.log)).toBe(false);
  });

  it('says nothing of demo data with a service key', { timeout: 30_000 }, async () => {
    const key = 'terminal-start-0001';
    const sandbox = createSandbox({ keys: [{ key, teamId: 'team_start', credits: 1_000 }] });
    await sandbox.start();
    try {
      const run = await runScout({ SCOUT_API_KEY: key, SCOUT_API_URL: sandbox.url }, 'exit\n');
      expect(run.code).toBe(0);
      expect(run.stdout).not.toContain('Demo data');
      expect(run.stderr).toContain('"msg":"Running against the service."');
    } finally {
      await sandbox.stop();
    }
  });
});
