/**
 * The production path: `tsc -p tsconfig.build.json` compiles src/ to JavaScript that plain node runs (no tsx, no
 * TypeScript), laid out as a deployment is (package.json, node_modules, dist/). The compiled bot, on the embedded
 * sandbox, answers in the terminal, serves the Dockerfile's HEALTHCHECK, stops on end of input and on SIGTERM, and
 * writes no file anywhere it was not told to: importing the Slack manifest module never regenerates manifest.yml.
 */
import { type ChildProcessWithoutNullStreams, execFile, spawn } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const project = fileURLToPath(new URL('..', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'scout-build-'));
/** The deployment: package.json (its "type": "module" makes dist/ ES modules), node_modules and dist/. */
const app = join(root, 'app');
const dist = join(app, 'dist');
/** The compiled bot's working folder: nothing may appear in it. */
const cwd = join(root, 'cwd');
const databasePath = join(root, 'db', 'scout.db');
const manifest = join(project, 'manifest.yml');
const manifestBefore = { mtimeMs: statSync(manifest).mtimeMs, text: readFileSync(manifest, 'utf8') };

/** Compiling the whole project takes a while, more on a busy machine. */
const BUILD_TIMEOUT_MS = 240_000;
const RUN_TIMEOUT_MS = 30_000;

/** The package.json script `name`. */
function script(name: string): string | undefined {
  const pkg = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8')) as {
    scripts?: Record<string, string>;
  };
  return pkg.scripts?.[name];
}

/** Starts the compiled bot with nothing of the test's environment but PATH: no tsx loader, no .env, no key. */
function startCompiled(env: Record<string, string>): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, [join(dist, 'main.js')], {
    cwd,
    env: { PATH: process.env.PATH ?? '', HOME: root, DATABASE_PATH: databasePath, ...env },
    stdio: 'pipe',
  });
}

/** Resolves with the child's exit code (null when killed by a signal), killing it if it outlives `ms`. */
function exited(child: ChildProcessWithoutNullStreams, ms = RUN_TIMEOUT_MS): Promise<number | null> {
  return new Promise((resolve) => {
    const hung = setTimeout(() => child.kill('SIGKILL'), ms);
    child.on('exit', (code) => {
      clearTimeout(hung);
      resolve(code);
    });
  });
}

/** Everything the stream has written so far, kept up to date. */
function collect(stream: NodeJS.ReadableStream): { text: string } {
  const sink = { text: '' };
  stream.on('data', (chunk: Buffer) => {
    sink.text += chunk.toString('utf8');
  });
  return sink;
}

/** The Dockerfile's HEALTHCHECK command (exec form), as argv. */
function healthcheck(): string[] {
  const dockerfile = readFileSync(join(project, 'Dockerfile'), 'utf8').replace(/\\\n/g, ' ');
  const match = /^HEALTHCHECK .*?\bCMD (\[.*\])\s*$/m.exec(dockerfile);
  if (match?.[1] === undefined) throw new Error('the Dockerfile has no HEALTHCHECK in exec form');
  return JSON.parse(match[1]) as string[];
}

/** Runs the HEALTHCHECK command against `port`; resolves with its exit code. */
async function probe(port: number): Promise<number> {
  const [command, ...args] = healthcheck();
  expect(command).toBe('node');
  try {
    await run(process.execPath, args, { env: { PATH: process.env.PATH ?? '', PORT: String(port) } });
    return 0;
  } catch (error) {
    return typeof (error as { code?: unknown }).code === 'number' ? (error as { code: number }).code : -1;
  }
}

beforeAll(async () => {
  mkdirSync(app);
  mkdirSync(cwd);
  const tsc = join(project, 'node_modules', 'typescript', 'bin', 'tsc');
  await run(process.execPath, [tsc, '-p', 'tsconfig.build.json', '--outDir', dist], {
    cwd: project,
    maxBuffer: 16 * 1024 * 1024,
  });
  copyFileSync(join(project, 'package.json'), join(app, 'package.json'));
  symlinkSync(join(project, 'node_modules'), join(app, 'node_modules'), 'junction');
}, BUILD_TIMEOUT_MS);

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('the compiled bot (npm run build, npm run start:prod)', () => {
  it('is what the npm scripts build and start', () => {
    expect(script('build')).toContain('tsc -p tsconfig.build.json');
    expect(script('start:prod')).toBe('node dist/main.js');
  });

  it('compiles every entry point of the npm scripts to JavaScript', () => {
    for (const entry of [
      'main.js',
      'sandbox/main.js',
      'adapters/discord/register.js',
      'adapters/slack/manifest.js',
    ])
      expect(existsSync(join(dist, entry)), entry).toBe(true);
  });

  it(
    'answers help on piped input against the embedded sandbox, then exits 0 when its input ends',
    async () => {
      const child = startCompiled({ LOG_LEVEL: 'info' });
      const stdout = collect(child.stdout);
      const stderr = collect(child.stderr);
      const code = exited(child);
      child.stdin.end('help\n');
      expect(await code, stderr.text).toBe(0);
      expect(stdout.text).toContain('Scout — creator discovery and outreach from one command.');
      expect(stdout.text).toContain('/scout creators:');
      expect(stdout.text).toContain('/scout help creators');
      expect(stderr.text).toContain('running against the embedded sandbox');
      expect(existsSync(databasePath)).toBe(true);
    },
    RUN_TIMEOUT_MS,
  );

  it(
    "serves /healthz to the Dockerfile's HEALTHCHECK, and stops cleanly on SIGTERM",
    async () => {
      const child = startCompiled({ LOG_LEVEL: 'info', PORT: '0' });
      const stderr = collect(child.stderr);
      const code = exited(child);
      // stdin stays open: only the signal ends this run.
      const port = await new Promise<number>((resolve, reject) => {
        const timer = setInterval(() => {
          for (const line of stderr.text.split('\n')) {
            if (!line.includes('Operator endpoints listening')) continue;
            clearInterval(timer);
            resolve((JSON.parse(line) as { port: number }).port);
          }
        }, 50);
        child.on('exit', () => {
          clearInterval(timer);
          reject(new Error(`exited before listening: ${stderr.text}`));
        });
      });
      expect(await probe(port)).toBe(0);
      child.kill('SIGTERM');
      expect(await code, stderr.text).toBe(0);
      expect(stderr.text).toContain('Scout stopped.');
      // Nothing listens now: the same check reports the container unhealthy.
      expect(await probe(port)).not.toBe(0);
    },
    RUN_TIMEOUT_MS,
  );

  it('wrote no file: no manifest.yml beside dist/ or in the project, nothing in its working folder', () => {
    expect(readdirSync(app).sort()).toEqual(['dist', 'node_modules', 'package.json']);
    expect(readdirSync(cwd)).toEqual([]);
    expect(statSync(manifest).mtimeMs).toBe(manifestBefore.mtimeMs);
    expect(readFileSync(manifest, 'utf8')).toBe(manifestBefore.text);
  });

  it(
    'regenerates manifest.yml beside dist/ only when the compiled manifest module is run itself',
    async () => {
      await run(process.execPath, [join(dist, 'adapters', 'slack', 'manifest.js')], {
        cwd,
        env: { PATH: process.env.PATH ?? '' },
      });
      // The place checked above is where a firing entry-point check writes.
      const written = readFileSync(join(app, 'manifest.yml'), 'utf8');
      expect(written.startsWith('# Slack app manifest for Scout')).toBe(true);
      expect(written).toContain('- command: /scout');
      expect(readdirSync(cwd)).toEqual([]);
    },
    RUN_TIMEOUT_MS,
  );
});
