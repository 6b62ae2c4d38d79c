/**
 * Start-up failures end the process: a supervisor restarts only what exits. Scout's entry point (src/main.ts, which
 * `npm start` and the image run compiled, see build.test.ts) runs in a child process with the embedded sandbox (which
 * would otherwise keep it alive) and a database that cannot be used.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const dir = mkdtempSync(join(tmpdir(), 'scout-startup-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs Scout's entry point with `env`; resolves with its exit code and standard error, or null if it hung. */
function runScout(env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(join('node_modules', '.bin', 'tsx'), ['src/main.ts'], {
      env: { PATH: process.env.PATH ?? '', HOME: dir, LOG_LEVEL: 'silent', ...env },
      stdio: ['pipe', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    const hung = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.on('exit', (code) => {
      clearTimeout(hung);
      resolve({ code, stderr });
    });
  });
}

describe('start-up failures', () => {
  const folder = join(dir, 'a-folder');
  mkdirSync(folder);
  const garbage = join(dir, 'garbage.db');
  writeFileSync(garbage, 'this is not a database, just text that goes on '.repeat(200));

  it.each([
    ['a folder', folder],
    ['a file that is not SQLite', garbage],
  ])(
    'exit non-zero with a message naming DATABASE_PATH when it is %s',
    async (_what, path) => {
      const { code, stderr } = await runScout({ DATABASE_PATH: path });
      expect(code).toBe(1);
      expect(stderr).toContain(`DATABASE_PATH (${path})`);
    },
    30_000,
  );

  it('exit non-zero on a bad setting, naming it', async () => {
    const { code, stderr } = await runScout({ SCOUT_MULTI_TENANT: 'true' });
    expect(code).toBe(1);
    expect(stderr).toContain('SCOUT_ENCRYPTION_KEY is invalid');
  }, 30_000);
});
