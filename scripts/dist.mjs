/**
 * Whether dist/ (the compiled bot) is up to date with what it is compiled from, and the build that brings it up to
 * date. Plain JavaScript that node runs as it is: `npm start` must work before anything is compiled, without tsx.
 */
import { spawnSync } from 'node:child_process';
import {
  closeSync,
  existsSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The project folder: the one holding package.json, src/ and dist/. */
export const PROJECT = fileURLToPath(new URL('..', import.meta.url));

/** What the compiled files are made from, besides everything under src/. */
const INPUTS = ['package.json', 'tsconfig.json', 'tsconfig.build.json'];

/**
 * The newest modification time (ms) under `path`, folders included: deleting or renaming a file changes only its
 * folder's time, and a file gone from src/ must not live on in dist/.
 */
function newest(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let time = stat.mtimeMs;
  for (const name of readdirSync(path)) time = Math.max(time, newest(join(path, name)));
  return time;
}

/**
 * 'missing' when dist/ has no main.js, 'stale' when something it is made from (src/, package.json, tsconfig*.json)
 * changed after dist/main.js was written, else 'fresh'.
 * @param {string} [root]
 * @returns {'missing' | 'stale' | 'fresh'}
 */
export function distState(root = PROJECT) {
  const main = join(root, 'dist', 'main.js');
  if (!existsSync(main)) return 'missing';
  const built = statSync(main).mtimeMs;
  let inputs = newest(join(root, 'src'));
  for (const file of INPUTS) {
    const path = join(root, file);
    if (existsSync(path)) inputs = Math.max(inputs, statSync(path).mtimeMs);
  }
  return inputs > built ? 'stale' : 'fresh';
}

/**
 * Compiles src/ into a folder of its own, then puts it in place of dist/ in one rename: a failed build leaves no
 * half-written dist/, and a bot already running from dist/ never loads a mix of two builds.
 * @param {string} [root]
 */
export function build(root = PROJECT) {
  let tsc;
  try {
    tsc = createRequire(join(root, 'package.json')).resolve('typescript/bin/tsc');
  } catch {
    throw new Error(
      'dist/ must be compiled and TypeScript is not installed: run `npm ci` (it installs TypeScript), or `npm run build` where it is.',
    );
  }
  // dist/main.js is stamped with the time the build began, so a file saved while tsc ran counts as newer.
  const began = new Date();
  const next = join(root, `.dist-${process.pid}`);
  rmSync(next, { recursive: true, force: true });
  // tsc reports on standard error: standard output belongs to the terminal shell's answers.
  const result = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json', '--outDir', next], {
    cwd: root,
    stdio: ['ignore', 2, 2],
  });
  if (result.status !== 0) {
    rmSync(next, { recursive: true, force: true });
    throw new Error(
      result.error === undefined
        ? `tsc -p tsconfig.build.json failed (exit ${result.status ?? result.signal}); see its errors above.`
        : `tsc could not run: ${result.error.message}`,
    );
  }
  utimesSync(join(next, 'main.js'), began, began);
  const dist = join(root, 'dist');
  rmSync(dist, { recursive: true, force: true });
  try {
    renameSync(next, dist);
  } catch (error) {
    // Another start compiled it at the same moment and put its dist/ in place first: that one serves.
    rmSync(next, { recursive: true, force: true });
    if (distState(root) !== 'fresh') throw error;
  }
}

/**
 * Builds dist/ when it is missing or stale, saying so through `report`; the state it found.
 * @param {string} [root]
 * @param {(line: string) => void} [report]
 * @returns {'missing' | 'stale' | 'fresh'}
 */
export function ensureBuilt(root = PROJECT, report = (line) => process.stderr.write(`${line}\n`)) {
  const state = distState(root);
  if (state === 'fresh') return state;
  // Starts at the same moment (replicas from one checkout after a pull) compile one at a time: the second finds
  // dist/ fresh once it holds the lock, instead of replacing the dist/ the first is loading.
  const release = takeLock(join(root, '.dist-lock'));
  try {
    if (distState(root) === 'fresh') return state;
    report(
      state === 'missing'
        ? 'Compiling src/ to dist/ (tsc -p tsconfig.build.json), once: later starts reuse it until src/ changes.'
        : 'src/ changed since dist/ was compiled: compiling it again.',
    );
    build(root);
    return state;
  } finally {
    release();
  }
}

/** Whether a process with this id is running (one of another user counts: it exists). */
function isRunning(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

/**
 * Takes the build lock `path` (a file holding the holder's pid), waiting while a running process holds it and taking
 * over one a dead process left; returns the function that releases it.
 * @param {string} path
 * @returns {() => void}
 */
function takeLock(path) {
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    try {
      const fd = openSync(path, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(path, { force: true });
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
    }
    let holder = Number.NaN;
    try {
      holder = Number(readFileSync(path, 'utf8'));
    } catch {
      // Released meanwhile: try again.
    }
    if (Number.isInteger(holder) && holder > 0 && !isRunning(holder)) rmSync(path, { force: true });
    // A synchronous pause: nothing else runs in the launcher before the bot is loaded.
    else Atomics.wait(pause, 0, 0, 200);
  }
}
