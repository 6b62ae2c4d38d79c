import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger, type LogPlaceFacts, logDestination, logPlace } from '../../src/core/logger.js';
import { SealError } from '../../src/core/tenancy/seal.js';

function capture() {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...String(chunk).trim().split('\n'));
      done();
    },
  });
  return { lines, destination };
}

describe('createLogger', () => {
  it('censors secret keys and masks secret values anywhere in a record', () => {
    const { lines, destination } = capture();
    const logger = createLogger({ level: 'info', secrets: ['sk-very-secret'], destination });
    logger.info(
      {
        apiKey: 'anything',
        headers: { 'x-ty-api-key': 'k', authorization: 'Bearer t' },
        url: '/x?k=sk-very-secret',
      },
      'called with sk-very-secret',
    );
    logger.error({ err: new Error('bad key sk-very-secret') }, 'failed');
    const output = lines.join('\n');
    expect(output).not.toContain('sk-very-secret');
    expect(output).not.toContain('Bearer t');
    const first = JSON.parse(lines[0] ?? '{}');
    expect(first.apiKey).toBe('[redacted]');
    expect(first.headers['x-ty-api-key']).toBe('[redacted]');
    expect(first.url).toBe('/x?k=[redacted]');
    expect(first.msg).toBe('called with [redacted]');
    expect(JSON.parse(lines[1] ?? '{}').err.message).toBe('bad key [redacted]');
  });

  it('logs the code of Scout’s own errors beside their type', () => {
    const { lines, destination } = capture();
    const logger = createLogger({ level: 'info', destination });
    logger.error({ err: new SealError('Sealed value is too short.') }, 'failed');
    expect(JSON.parse(lines[0] ?? '{}').err).toMatchObject({
      type: 'SealError',
      code: 'SEAL_FAILED',
      message: 'Sealed value is too short.',
    });
  });

  it('respects the level', () => {
    const { lines, destination } = capture();
    const logger = createLogger({ level: 'warn', destination });
    logger.info('quiet');
    logger.warn('loud');
    expect(lines.map((l) => JSON.parse(l).msg)).toEqual(['loud']);
  });
});

describe('logPlace', () => {
  const facts = (over: Partial<LogPlaceFacts>): LogPlaceFacts => ({
    chat: false,
    stdinIsTTY: false,
    stderrIsTTY: false,
    databasePath: '/srv/scout/scout.db',
    ...over,
  });

  it('writes to scout.log beside the database only for a person typing at a terminal that shows standard error', () => {
    expect(logPlace(facts({ stdinIsTTY: true, stderrIsTTY: true }))).toEqual({
      kind: 'file',
      path: join('/srv/scout', 'scout.log'),
    });
  });

  it('keeps the terminal shell’s logs on standard error when no one types, or standard error goes elsewhere', () => {
    // Piped input, a container without a terminal, a script; and `npm start 2>scout.err` at a terminal.
    expect(logPlace(facts({}))).toEqual({ kind: 'stderr' });
    expect(logPlace(facts({ stderrIsTTY: true }))).toEqual({ kind: 'stderr' });
    expect(logPlace(facts({ stdinIsTTY: true }))).toEqual({ kind: 'stderr' });
  });

  it('writes a server’s logs (Slack, Discord) to standard output, terminal or not', () => {
    expect(logPlace(facts({ chat: true }))).toEqual({ kind: 'stdout' });
    expect(logPlace(facts({ chat: true, stdinIsTTY: true, stderrIsTTY: true }))).toEqual({ kind: 'stdout' });
  });

  it('makes the log file’s folder and has each line in the file as soon as it is logged', () => {
    const dir = mkdtempSync(join(tmpdir(), 'scout-log-'));
    try {
      const path = join(dir, 'data', 'scout.log');
      const logger = createLogger({ level: 'info', destination: logDestination({ kind: 'file', path }) });
      logger.info('Scout stopped.');
      expect(JSON.parse(readFileSync(path, 'utf8')).msg).toBe('Scout stopped.');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
