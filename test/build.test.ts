/**
 * The production path: `tsc -p tsconfig.build.json` compiles src/ to JavaScript that plain node runs (no tsx, no
 * TypeScript). A copy of the project (package.json, tsconfig*.json, scripts/, src/, node_modules) is started the way
 * `npm start` starts it, through scripts/start.mjs, which compiles dist/ because it is missing, then again, which
 * reuses it. The compiled bot, on the embedded sandbox, answers in the terminal, serves the Dockerfile's
 * HEALTHCHECK, stops on end of input and on SIGTERM, and writes no file anywhere it was not told to: importing the
 * Slack manifest module, compiled or through tsx, never regenerates manifest.yml (only its own entry point does).
 */
import { type ChildProcessWithoutNullStreams, execFile, spawn } from 'node:child_process';
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build, distState, ensureBuilt } from '../scripts/dist.mjs';

const run = promisify(execFile);
const project = fileURLToPath(new URL('..', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'scout-build-'));
/**
 * The project as `npm ci` leaves it: package.json (its "type": "module" makes dist/ ES modules), the tsconfig files,
 * scripts/, src/ and node_modules; dist/ appears when it is started.
 */
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

/** What `npm start` runs, and what `npm run start:prod` (and the Docker image) runs. */
const LAUNCHER = ['scripts', 'start.mjs'];
const COMPILED = ['dist', 'main.js'];

/**
 * Starts the bot through `entry` (dist/main.js by default) with nothing of the test's environment but PATH: no tsx
 * loader, no .env, no key.
 */
function startCompiled(
  env: Record<string, string>,
  entry: string[] = COMPILED,
  nodeArgs: string[] = [],
): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, [...nodeArgs, join(app, ...entry)], {
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

/** The first start of the copy, which finds no dist/ and compiles it. */
let first: { code: number | null; stdout: string; stderr: string };

beforeAll(async () => {
  mkdirSync(app);
  mkdirSync(cwd);
  for (const file of ['package.json', 'tsconfig.json', 'tsconfig.build.json'])
    copyFileSync(join(project, file), join(app, file));
  cpSync(join(project, 'scripts'), join(app, 'scripts'), { recursive: true });
  cpSync(join(project, 'src'), join(app, 'src'), { recursive: true });
  symlinkSync(join(project, 'node_modules'), join(app, 'node_modules'), 'junction');
  const child = startCompiled({ LOG_LEVEL: 'info' }, LAUNCHER);
  const stdout = collect(child.stdout);
  const stderr = collect(child.stderr);
  const code = exited(child, BUILD_TIMEOUT_MS);
  child.stdin.end('help\n');
  first = { code: await code, stdout: stdout.text, stderr: stderr.text };
}, BUILD_TIMEOUT_MS);

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('the compiled bot (npm start, npm run build, npm run start:prod)', () => {
  it('is what the npm scripts build and start', () => {
    // exec: the shell npm runs a script in becomes node, so a supervisor's SIGTERM to npm reaches the bot.
    expect(script('start')).toBe('exec node scripts/start.mjs');
    expect(script('build')).toContain('tsc -p tsconfig.build.json');
    expect(script('start:prod')).toBe('exec node dist/main.js');
  });

  it('is compiled by the first npm start, which then answers on piped input and exits 0 when it ends', () => {
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toContain('Compiling src/ to dist/');
    // tsc and the launcher say nothing on standard output: it is the shell's.
    expect(first.stdout.startsWith('Scout — creator discovery and outreach. Say what you want')).toBe(true);
    expect(first.stdout).toContain('/scout creators:');
    expect(distState(app)).toBe('fresh');
  });

  it(
    'is not compiled again by the next npm start while dist/ is newer than what it is made from',
    async () => {
      const built = statSync(join(dist, 'main.js')).mtimeMs;
      const child = startCompiled({}, LAUNCHER);
      const stdout = collect(child.stdout);
      const stderr = collect(child.stderr);
      const code = exited(child);
      child.stdin.end('help\n');
      expect(await code, stderr.text).toBe(0);
      expect(stderr.text).not.toContain('Compiling');
      expect(stdout.text).toContain('/scout creators:');
      expect(statSync(join(dist, 'main.js')).mtimeMs).toBe(built);
    },
    RUN_TIMEOUT_MS,
  );

  it(
    "passes the bot's exit code through: a database that cannot be used ends npm start with 1",
    async () => {
      const folder = join(root, 'a-folder');
      mkdirSync(folder);
      const child = startCompiled({ DATABASE_PATH: folder }, LAUNCHER);
      const stderr = collect(child.stderr);
      const code = exited(child);
      child.stdin.end();
      expect(await code).toBe(1);
      expect(stderr.text).toContain(`DATABASE_PATH (${folder})`);
    },
    RUN_TIMEOUT_MS,
  );

  it('compiles every entry point of the npm scripts to JavaScript', () => {
    const pkg = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    const entries = Object.values(pkg.scripts).flatMap((line) =>
      [...line.matchAll(/\btsx src\/(\S+)\.ts\b/g)].map((m) => `${m[1]}.js`),
    );
    expect(entries).toEqual(
      expect.arrayContaining(['sandbox/main.js', 'tools/discord-register.js', 'tools/slack-manifest.js']),
    );
    for (const entry of ['main.js', ...entries]) expect(existsSync(join(dist, entry)), entry).toBe(true);
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
      expect(stdout.text).toContain('Scout — creator discovery and outreach. Say what you want');
      expect(stdout.text).toContain('/scout creators:');
      expect(stdout.text).toContain('/scout help creators');
      expect(stderr.text).toContain('running against the embedded sandbox');
      expect(existsSync(databasePath)).toBe(true);
    },
    RUN_TIMEOUT_MS,
  );

  it(
    'loads no platform SDK, nor PostgreSQL, Redis or chart code, when only the terminal is configured',
    async () => {
      // Written at exit by a module loaded before the bot: every CommonJS file loaded (the SDKs are CommonJS).
      const probe = join(root, 'loaded.mjs');
      writeFileSync(
        probe,
        [
          "import { writeSync } from 'node:fs';",
          "import { createRequire } from 'node:module';",
          'const cache = createRequire(import.meta.url).cache;',
          "process.on('exit', () => writeSync(2, '\\nLOADED ' + JSON.stringify(Object.keys(cache)) + '\\n'));",
        ].join('\n'),
      );
      const child = startCompiled({}, COMPILED, ['--import', pathToFileURL(probe).href]);
      const stderr = collect(child.stderr);
      const code = exited(child);
      child.stdin.end('help\n');
      expect(await code, stderr.text).toBe(0);
      const line = stderr.text.split('\n').find((l) => l.startsWith('LOADED '));
      const loaded = JSON.parse(line?.slice('LOADED '.length) ?? '[]') as string[];
      const packages = new Set(loaded.map((file) => /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file)?.[1]));
      // The check sees CommonJS packages: the SQLite driver is one.
      expect(packages.has('better-sqlite3')).toBe(true);
      for (const unwanted of [
        'discord.js',
        '@discordjs/ws',
        '@slack/bolt',
        '@slack/web-api',
        'pg',
        'ioredis',
      ])
        expect(packages.has(unwanted), unwanted).toBe(false);
      for (const unwanted of ['@napi-rs/canvas', 'chart.js'])
        expect(packages.has(unwanted), unwanted).toBe(false);
    },
    RUN_TIMEOUT_MS,
  );

  it.each([
    ['node dist/main.js', COMPILED],
    ['npm start', LAUNCHER],
  ])(
    "serves /healthz to the Dockerfile's HEALTHCHECK, and stops cleanly on SIGTERM (%s)",
    async (_how, entry) => {
      const child = startCompiled({ LOG_LEVEL: 'info', PORT: '0' }, entry);
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

  it(
    'writes nothing when the modules behind the scripts are imported, compiled or through tsx',
    async () => {
      const modules = ['adapters/slack/manifest', 'adapters/discord/registration'];
      const importAll = (files: string[]) =>
        files.map((file) => `await import(${JSON.stringify(pathToFileURL(file).href)});`).join('\n');
      const env = { PATH: process.env.PATH ?? '', HOME: root };
      await run(
        process.execPath,
        ['--input-type=module', '-e', importAll(modules.map((m) => join(dist, `${m}.js`)))],
        { cwd, env },
      );
      // tsx resolves from the project, where it is installed; a firing check would write app/manifest.yml.
      await run(
        process.execPath,
        [
          '--import',
          'tsx',
          '--input-type=module',
          '-e',
          importAll(modules.map((m) => join(app, 'src', `${m}.ts`))),
        ],
        { cwd: app, env },
      );
    },
    RUN_TIMEOUT_MS,
  );

  it('wrote no file: no manifest.yml beside dist/ or in the project, nothing in its working folder', () => {
    // No half-built folder was left behind either.
    expect(readdirSync(app).sort()).toEqual([
      'dist',
      'node_modules',
      'package.json',
      'scripts',
      'src',
      'tsconfig.build.json',
      'tsconfig.json',
    ]);
    expect(readdirSync(cwd)).toEqual([]);
    expect(statSync(manifest).mtimeMs).toBe(manifestBefore.mtimeMs);
    expect(readFileSync(manifest, 'utf8')).toBe(manifestBefore.text);
  });

  it(
    'regenerates manifest.yml beside dist/ only when its own compiled entry point is run',
    async () => {
      await run(process.execPath, [join(dist, 'tools', 'slack-manifest.js')], {
        cwd,
        env: { PATH: process.env.PATH ?? '' },
      });
      // The place checked above is where an import that wrote would have written.
      const written = readFileSync(join(app, 'manifest.yml'), 'utf8');
      expect(written.startsWith('# Slack app manifest for Scout')).toBe(true);
      expect(written).toContain('- command: /scout');
      expect(readdirSync(cwd)).toEqual([]);
    },
    RUN_TIMEOUT_MS,
  );
});

describe("npm start's check of dist/ (scripts/dist.mjs)", () => {
  /** A small project of its own: what dist/ is made from, with known times. */
  const small = join(root, 'small');
  const past = new Date(Date.now() - 3_600_000);
  const built = new Date(Date.now() - 1_800_000);
  const files = ['package.json', 'tsconfig.json', 'tsconfig.build.json', 'src/main.ts', 'src/core/a.ts'];

  /** Writes the project with every input at `past` and dist/main.js at `built`, after them. */
  const layOut = () => {
    rmSync(small, { recursive: true, force: true });
    mkdirSync(join(small, 'src', 'core'), { recursive: true });
    mkdirSync(join(small, 'dist'));
    writeFileSync(join(small, 'package.json'), '{ "type": "module" }\n');
    writeFileSync(
      join(small, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { target: 'ES2022', module: 'NodeNext', strict: true, types: [], noEmit: true },
        include: ['src'],
      }),
    );
    writeFileSync(
      join(small, 'tsconfig.build.json'),
      JSON.stringify({
        extends: './tsconfig.json',
        compilerOptions: { noEmit: false, noEmitOnError: true, rootDir: 'src', outDir: 'dist' },
      }),
    );
    writeFileSync(join(small, 'src', 'main.ts'), "import { a } from './core/a.js';\nconsole.log(a);\n");
    writeFileSync(join(small, 'src', 'core', 'a.ts'), 'export const a: number = 1;\n');
    writeFileSync(join(small, 'src', 'core', 'old.ts'), 'export {};\n');
    writeFileSync(join(small, 'dist', 'main.js'), '');
    for (const file of [...files, 'src/core/old.ts', 'src/core', 'src'])
      utimesSync(join(small, file), past, past);
    utimesSync(join(small, 'dist', 'main.js'), built, built);
    // TypeScript is found from the project, as in a real one.
    symlinkSync(join(project, 'node_modules'), join(small, 'node_modules'), 'junction');
  };

  it('finds dist/ missing without dist/main.js, and fresh when it is newer than every input', () => {
    layOut();
    expect(distState(small)).toBe('fresh');
    rmSync(join(small, 'dist'), { recursive: true });
    expect(distState(small)).toBe('missing');
  });

  it.each(files)('finds dist/ stale once %s changed after it', (file) => {
    layOut();
    const later = new Date(built.getTime() + 1000);
    utimesSync(join(small, file), later, later);
    expect(distState(small)).toBe('stale');
  });

  it('finds dist/ stale once a file of src/ is removed (its folder changed)', () => {
    layOut();
    unlinkSync(join(small, 'src', 'core', 'old.ts'));
    expect(distState(small)).toBe('stale');
  });

  it('says what to do when dist/ must be compiled and TypeScript is not installed (npm ci --omit=dev)', () => {
    const bare = join(root, 'bare');
    mkdirSync(join(bare, 'src'), { recursive: true });
    writeFileSync(join(bare, 'package.json'), '{ "type": "module" }\n');
    writeFileSync(join(bare, 'src', 'main.ts'), 'export {};\n');
    expect(() => ensureBuilt(bare, () => undefined)).toThrow(/TypeScript is not installed: run `npm ci`/);
    expect(existsSync(join(bare, 'dist'))).toBe(false);
  });

  it(
    'compiles once when two starts find dist/ stale at the same moment, the second using what the first built',
    async () => {
      layOut();
      writeFileSync(join(small, 'src', 'core', 'a.ts'), 'export const a: number = 3;\n');
      const launcher = pathToFileURL(join(project, 'scripts', 'dist.mjs')).href;
      const start = () =>
        run(process.execPath, [
          '--input-type=module',
          '-e',
          `import { ensureBuilt } from ${JSON.stringify(launcher)}; ensureBuilt(${JSON.stringify(small)}, (line) => console.log(line));`,
        ]);
      const [one, two] = await Promise.all([start(), start()]);
      const said = `${one.stdout}${two.stdout}`;
      expect(said.match(/compiling it again/g)).toHaveLength(1);
      expect(distState(small)).toBe('fresh');
      expect(readFileSync(join(small, 'dist', 'core', 'a.js'), 'utf8')).toContain('3');
      expect(readdirSync(small).filter((name) => name.startsWith('.dist-'))).toEqual([]);
    },
    BUILD_TIMEOUT_MS,
  );

  it(
    'leaves dist/ as it was when the build fails, and replaces it when the build succeeds',
    () => {
      layOut();
      writeFileSync(join(small, 'src', 'core', 'a.ts'), "export const a: number = 'not a number';\n");
      const said: string[] = [];
      expect(() => ensureBuilt(small, (line) => said.push(line))).toThrow(
        /tsc -p tsconfig.build.json failed/,
      );
      expect(said.join('\n')).toContain('src/ changed since dist/ was compiled');
      expect(readFileSync(join(small, 'dist', 'main.js'), 'utf8')).toBe('');
      expect(readdirSync(small).filter((name) => name.startsWith('.dist-'))).toEqual([]);

      writeFileSync(join(small, 'src', 'core', 'a.ts'), 'export const a: number = 2;\n');
      const began = Date.now();
      build(small);
      expect(readFileSync(join(small, 'dist', 'main.js'), 'utf8')).toContain("from './core/a.js'");
      expect(existsSync(join(small, 'dist', 'core', 'old.js'))).toBe(true);
      // Stamped with the moment the build began: a file saved while tsc ran is newer, and compiled next time.
      expect(statSync(join(small, 'dist', 'main.js')).mtimeMs).toBeLessThanOrEqual(Date.now());
      expect(statSync(join(small, 'dist', 'main.js')).mtimeMs).toBeGreaterThanOrEqual(began - 1000);
      expect(distState(small)).toBe('fresh');
      expect(ensureBuilt(small, () => undefined)).toBe('fresh');
    },
    BUILD_TIMEOUT_MS,
  );
});
