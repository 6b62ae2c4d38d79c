import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/core/logger.js';
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
