/**
 * What a connection may cost Slack HTTP mode: bodies are read up to a limit, before the signature is checked (an
 * announced oversize body is refused unread, a chunked one is cut off), slow headers and bodies are disconnected,
 * and connections are capped. Real Bolt behind the adapter's server, driven over raw sockets.
 */
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BODY_LIMIT_BYTES } from '../../../src/adapters/slack/http-server.js';
import {
  createSlackAdapter,
  type SlackAdapter,
  type SlackHttpLimits,
} from '../../../src/adapters/slack/index.js';
import { createLogger } from '../../../src/core/logger.js';
import { slashCommandBody } from '../../fakes/slack-api.js';
import { botConfig, responseTo, sendForm, startWorld, type World } from './helpers.js';
import { eventHeaders, openRaw, pause } from './raw-socket.js';

let world: World;
const adapters: SlackAdapter[] = [];

/** A started single-team adapter with `http` limits over the production ones. */
async function adapterWith(http: Partial<SlackHttpLimits> = {}): Promise<SlackAdapter> {
  const adapter = createSlackAdapter({
    config: botConfig(world.slack),
    chat: world.app.chat,
    logger: createLogger({ level: 'silent' }),
    http,
  });
  await adapter.start();
  adapters.push(adapter);
  return adapter;
}

const health = async (port: number | null) => {
  const res = await request(`http://127.0.0.1:${port}/healthz`, { headersTimeout: 5000, bodyTimeout: 5000 });
  await res.body.text();
  return res.statusCode;
};

beforeAll(async () => {
  world = await startWorld();
});

afterAll(async () => {
  for (const adapter of adapters) await adapter.stop();
  await world.stop();
});

describe('request bodies (production limits)', () => {
  let adapter: SlackAdapter;
  beforeAll(async () => {
    adapter = await adapterWith();
  });

  it('refuses an upload announcing more than the limit with 413 and closes, reading none of it', async () => {
    const client = await openRaw(adapter.port);
    // Unsigned, and nothing of the body is sent: the answer cannot depend on reading it.
    await client.write(
      eventHeaders({
        'Content-Type': 'application/x-www-form-urlencoded',
        'Content-Length': String(3_900_000),
      }),
    );
    await client.closed;
    expect(client.received()).toMatch(/^HTTP\/1\.1 413 /);
    expect(await health(adapter.port)).toBe(200);
  });

  it('refuses an oversize upload that asks to continue, without inviting its body', async () => {
    const client = await openRaw(adapter.port);
    await client.write(
      eventHeaders({
        'Content-Type': 'application/json',
        'Content-Length': String(3_900_000),
        Expect: '100-continue',
      }),
    );
    await client.closed;
    expect(client.received()).toMatch(/^HTTP\/1\.1 413 /);
  });

  it('cuts off a chunked upload that grows past the limit: 413, then the connection is closed', async () => {
    const client = await openRaw(adapter.port);
    await client.write(eventHeaders({ 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' }));
    const chunk = Buffer.alloc(64 * 1024, 'a');
    let sent = 0;
    // Up to twice the limit, a chunk at a time, and never the final chunk: only the limit can end this request.
    while (sent < 2 * BODY_LIMIT_BYTES && client.received() === '' && !client.isClosed()) {
      const framed = Buffer.concat([
        Buffer.from(`${chunk.length.toString(16)}\r\n`),
        chunk,
        Buffer.from('\r\n'),
      ]);
      if (!(await client.write(framed))) break;
      sent += chunk.length;
      await pause(5);
    }
    await client.closed;
    expect(client.received()).toMatch(/^HTTP\/1\.1 413 /);
    expect(sent).toBeGreaterThan(BODY_LIMIT_BYTES);
    expect(await health(adapter.port)).toBe(200);
  });

  it('serves a signed request whose body is large but within the limit', async () => {
    const form = slashCommandBody({ text: 'help', responseUrl: world.slack.responseUrl('large') });
    // Slack adds fields as it pleases; one of 900 kB keeps the body under the limit.
    const { status } = await sendForm(adapter.port, { ...form, padding: 'x'.repeat(900 * 1024) });
    expect(status).toBe(200);
    await responseTo(world.slack, 'large');
  });
});

describe('slow clients (short timeouts; the idle timeout alone would not close them)', () => {
  let adapter: SlackAdapter;
  beforeAll(async () => {
    adapter = await adapterWith({
      headersTimeoutMs: 300,
      requestTimeoutMs: 300,
      checkIntervalMs: 50,
      idleTimeoutMs: 10 * 60_000,
    });
  });

  it('disconnects a client whose headers stall', async () => {
    const client = await openRaw(adapter.port);
    await client.write('POST /slack/events HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Ty');
    await client.closed;
    expect(client.isClosed()).toBe(true);
  });

  it('disconnects a client whose body stalls', async () => {
    const client = await openRaw(adapter.port);
    await client.write(
      eventHeaders({ 'Content-Type': 'application/x-www-form-urlencoded', 'Content-Length': '1000' }),
    );
    await client.write('command=/s');
    await client.closed;
    expect(client.isClosed()).toBe(true);
  });

  it('still serves everyone else', async () => {
    expect(await health(adapter.port)).toBe(200);
    const { status } = await sendForm(
      adapter.port,
      slashCommandBody({ text: 'help', responseUrl: world.slack.responseUrl('after-slow') }),
    );
    expect(status).toBe(200);
    await responseTo(world.slack, 'after-slow');
  });
});

describe('connections', () => {
  it('closes connections beyond the cap as they arrive, and serves again once others close', async () => {
    const adapter = await adapterWith({ maxConnections: 2 });
    const held = [await openRaw(adapter.port), await openRaw(adapter.port)];
    // A request answered on each proves the server holds both (they stay open: keep-alive).
    for (const client of held) {
      await client.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
      while (!client.received().includes('"ok":true')) await pause(10);
    }
    const extra = await openRaw(adapter.port);
    await extra.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    await extra.closed;
    expect(extra.received()).toBe('');
    for (const client of held) {
      client.socket.destroy();
      await client.closed;
    }
    // The server counts a connection gone once it has seen it close, which may take a turn of its loop.
    let status = 0;
    while (status !== 200) status = await health(adapter.port).catch(() => 0);
    expect(status).toBe(200);
  });
});
