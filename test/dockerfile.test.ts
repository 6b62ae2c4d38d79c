/**
 * The Dockerfile does what README's "Run it in production" says it does: a multi-stage build (`npm ci --omit=dev` for
 * the runtime dependencies, `npm ci` and `npm run build` for dist/), a node:20-slim runtime as a non-root user with the
 * database on the volume /data, the port config.ts defaults to, and the command `npm run start:prod` runs. A
 * consistency check of the text: the image itself is built by Docker, not here.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { envSchema } from '../src/config.js';

const project = fileURLToPath(new URL('..', import.meta.url));
const read = (file: string) => readFileSync(join(project, file), 'utf8');

/** One Dockerfile instruction: its keyword and the rest of the line. */
interface Instruction {
  keyword: string;
  args: string;
}

/** The Dockerfile's instructions (continuation lines joined, comments dropped), split into its stages. */
function stages(): Instruction[][] {
  const lines = read('Dockerfile')
    .split('\n')
    .filter((line) => !line.trimStart().startsWith('#'))
    .join('\n')
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
  const result: Instruction[][] = [];
  for (const line of lines) {
    const space = line.indexOf(' ');
    const instruction = {
      keyword: line.slice(0, space).toUpperCase(),
      args: line.slice(space + 1).replace(/\s+/g, ' '),
    };
    if (instruction.keyword === 'FROM') result.push([]);
    result.at(-1)?.push(instruction);
  }
  return result;
}

const all = stages();
const runtime = all.at(-1) ?? [];
const args = (stage: Instruction[], keyword: string) =>
  stage.filter((i) => i.keyword === keyword).map((i) => i.args);

/** README's "Run it in production" section. */
function productionSection(): string {
  const readme = read('README.md');
  const start = readme.indexOf('## Run it in production');
  expect(start).toBeGreaterThanOrEqual(0);
  const end = readme.indexOf('\n## ', start + 1);
  return readme.slice(start, end === -1 ? undefined : end);
}

describe('Dockerfile', () => {
  it('builds in stages: runtime dependencies with npm ci --omit=dev, dist/ with npm ci and npm run build', () => {
    expect(all.length).toBeGreaterThanOrEqual(2);
    const runs = all.map((stage) => args(stage, 'RUN').join('\n'));
    expect(runs.some((r) => r.includes('npm ci --omit=dev'))).toBe(true);
    expect(runs.some((r) => /npm ci(?! --omit)/.test(r) && r.includes('npm run build'))).toBe(true);
    // The final image installs nothing: it only copies what the other stages made.
    expect(args(runtime, 'RUN').join('\n')).not.toMatch(/npm (ci|install)|apt-get/);
    expect(args(runtime, 'COPY').join('\n')).toMatch(/--from=\S+ \/app\/node_modules/);
    expect(args(runtime, 'COPY').join('\n')).toMatch(/--from=\S+ \/app\/dist/);
  });

  it('runs on node:20-slim, matching the Node version package.json asks for', () => {
    expect(args(runtime, 'FROM')[0]).toBe('node:20-slim');
    const pkg = JSON.parse(read('package.json')) as { engines: { node: string } };
    expect(pkg.engines.node).toMatch(/^>=20\./);
  });

  it('runs as a non-root user', () => {
    const users = args(runtime, 'USER');
    expect(users.length).toBeGreaterThan(0);
    expect(users.at(-1)).not.toMatch(/^(root|0)(:|$)/);
  });

  it('keeps the database on the volume /data', () => {
    expect(args(runtime, 'VOLUME')).toContain('/data');
    expect(args(runtime, 'ENV').join(' ')).toMatch(/\bDATABASE_PATH=\/data\/scout\.db\b/);
  });

  it('exposes the PORT config.ts defaults to, and sets it so the operator endpoints are served', () => {
    const port = envSchema.parse({}).PORT;
    expect(args(runtime, 'EXPOSE')).toEqual([String(port)]);
    expect(args(runtime, 'ENV').join(' ')).toMatch(new RegExp(`\\bPORT=${port}\\b`));
  });

  it('starts with the command npm run start:prod runs, and checks /healthz', () => {
    const pkg = JSON.parse(read('package.json')) as { scripts: Record<string, string> };
    expect(args(runtime, 'CMD')).toHaveLength(1);
    // npm's script execs node so signals reach it; the image runs node itself.
    const command = pkg.scripts['start:prod']?.replace(/^exec /, '').split(' ');
    expect(JSON.parse(args(runtime, 'CMD')[0] ?? '')).toEqual(command);
    expect(args(runtime, 'HEALTHCHECK').join('\n')).toContain('/healthz');
  });

  it('copies from the build context only files that exist and that .dockerignore lets in', () => {
    const ignored = read('.dockerignore')
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '' && !line.startsWith('#'));
    for (const pattern of ['.env', 'node_modules', 'dist', '.git']) expect(ignored).toContain(pattern);
    const sources = all
      .flatMap((stage) => args(stage, 'COPY'))
      .filter((copy) => !copy.startsWith('--from='))
      .flatMap((copy) => copy.split(' ').slice(0, -1));
    expect(sources.length).toBeGreaterThan(0);
    for (const source of sources) {
      expect(existsSync(join(project, source)), source).toBe(true);
      expect(ignored, source).not.toContain(source);
    }
  });
});

describe('README: Run it in production', () => {
  it('names the commands, the Dockerfile and what the image promises', () => {
    const section = productionSection();
    for (const promise of [
      'npm ci',
      'npm run build',
      'npm prune --omit=dev',
      'npm run start:prod',
      'node dist/main.js',
      'npm ci --omit=dev',
      'docker build',
      'node:20-slim',
      '`node` user',
      'DATABASE_PATH=/data/scout.db',
      'volume `/data`',
      ':/data',
      'PORT=3000',
      'HEALTHCHECK',
      '/healthz',
    ]) {
      expect(section, promise).toContain(promise);
    }
  });

  it('agrees with the Dockerfile on the user, the volume and the port', () => {
    const section = productionSection();
    expect(section).toContain(`\`${args(runtime, 'USER').at(-1)}\` user`);
    for (const volume of args(runtime, 'VOLUME')) expect(section).toContain(`volume \`${volume}\``);
    for (const port of args(runtime, 'EXPOSE')) expect(section).toContain(`${port}:${port}`);
  });
});
