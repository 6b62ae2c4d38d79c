/**
 * The real process (`npm start`'s entry point) in Slack HTTP mode against the fake Web API: signed bodies Bolt would
 * fail on (left unanswered, or failing in the background) are answered 400 at once, nothing fails unhandled, and the
 * process goes on serving everyone else.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type FakeSlack, signedHeaders, slashCommandBody, startFakeSlack } from '../../fakes/slack-api.js';
import { SECRET, showAckAnswer } from './helpers.js';

let slack: FakeSlack;
let child: ChildProcess;
let output = '';
let port = 0;
const dir = mkdtempSync(join(tmpdir(), 'scout-process-'));

/** A port free right now on loopback. */
const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port: free } = probe.address() as { port: number };
      probe.close(() => resolve(free));
    });
  });

const until = async (check: () => boolean, what: string) => {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > 20_000)
      throw new Error(`Timed out waiting for ${what}: ${output.slice(-500)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

const post = async (body: string, contentType: string, timeoutMs = 5000) => {
  const res = await request(`http://127.0.0.1:${port}/slack/events`, {
    method: 'POST',
    headers: signedHeaders(SECRET, body, { contentType }),
    body,
    bodyTimeout: timeoutMs,
    headersTimeout: timeoutMs,
  });
  const text = await res.body.text();
  if (res.statusCode === 200) await showAckAnswer(body, text);
  return res.statusCode;
};

beforeAll(async () => {
  slack = await startFakeSlack();
  port = await freePort();
  child = spawn(join('node_modules', '.bin', 'tsx'), ['src/main.ts'], {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: dir,
      DATABASE_PATH: join(dir, 'scout.db'),
      SLACK_BOT_TOKEN: 'xoxb-test',
      SLACK_SIGNING_SECRET: SECRET,
      SLACK_API_URL: slack.apiUrl,
      PORT: String(port),
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
  });
  await until(() => {
    void request(`http://127.0.0.1:${port}/healthz`)
      .then(async (res) => {
        await res.body.text();
        if (res.statusCode === 200) output += '\nHEALTHY\n';
      })
      .catch(() => {});
    return output.includes('HEALTHY');
  }, 'Scout to start');
}, 30_000);

afterAll(async () => {
  if (child.exitCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
  await slack.stop();
  rmSync(dir, { recursive: true, force: true });
});

it('answers signed bodies of the wrong shape 400 and keeps answering', async () => {
  for (const [body, type] of [
    ['payload=null', 'application/x-www-form-urlencoded'],
    ['null', 'application/json'],
    ['[1,2]', 'application/json'],
    ['payload=42', 'application/x-www-form-urlencoded'],
    [JSON.stringify({ type: 'block_actions', actions: null }), 'application/json'],
    ['{"event":null}', 'application/json'],
  ] as const) {
    expect(await post(body, type, 5000)).toBe(400);
  }
  expect(child.exitCode).toBeNull();
  const ack = await post(
    new URLSearchParams(
      slashCommandBody({ text: 'help', responseUrl: slack.responseUrl('after') }),
    ).toString(),
    'application/x-www-form-urlencoded',
  );
  expect(ack).toBe(200);
  await slack.waitFor(() => slack.responses.find((r) => r.id === 'after') ?? null);
  expect(child.exitCode).toBeNull();
  // main.ts logs any failure nothing handled; none of these bodies may have caused one.
  expect(output).not.toContain('Scout keeps running');
}, 30_000);
