/**
 * The error renderer with a real logger: what the author sees is unchanged by codes, and what is logged carries
 * the error's code, so a reference quoted by a person leads to a classified failure.
 */
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { errorReply, inScoutTerms } from '../../../src/core/command/error-reply.js';
import { TokenizeError } from '../../../src/core/command/tokenize.js';
import { createLogger } from '../../../src/core/logger.js';
import { ServiceError, ServiceInputError } from '../../../src/core/service/errors.js';
import { SealError } from '../../../src/core/tenancy/seal.js';
import { type Reply, renderText } from '../../../src/core/ui/index.js';

const toText = (reply: Reply) => renderText(reply).text;

function logged() {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).trim().split('\n')) lines.push(JSON.parse(line));
      done();
    },
  });
  return { lines, logger: createLogger({ level: 'info', destination }) };
}

describe('errorReply', () => {
  it('logs an unexpected Scout error with its code and shows only the usual apology with the reference', () => {
    const { lines, logger } = logged();
    const shown = toText(errorReply(new SealError('Sealed value is too short.'), logger));
    expect(shown).toMatch(/Something went wrong\. Please try again\. \(ref: ([0-9a-f]{8})\)$/m);
    expect(shown).not.toContain('Sealed');
    const ref = /ref: ([0-9a-f]{8})/.exec(shown)?.[1];
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ ref, err: { type: 'SealError', code: 'SEAL_FAILED' } });
  });

  it('logs a service failure under its own code, and answers bad syntax without logging', () => {
    const { lines, logger } = logged();
    const failure = new ServiceError({
      code: 'SERVICE_UNAVAILABLE',
      operation: 'creators.search',
      status: 503,
      message: 'The service is unavailable (HTTP 503). Try again in a few minutes.',
    });
    expect(toText(errorReply(failure, logger))).toContain('The service is unavailable (HTTP 503).');
    expect(lines[0]).toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
      status: 503,
      operation: 'creators.search',
    });
    const syntax = toText(errorReply(new TokenizeError('A quote is not closed.'), logger, '/scout find'));
    expect(syntax).toContain('A quote is not closed.');
    expect(syntax).toContain('/scout find');
    expect(lines).toHaveLength(1);
  });

  it('names a command, never the service’s action, where the service points to one', () => {
    const { logger } = logged();
    const family = {
      name: 'songs',
      commands: [{ name: 'weeks' }, { name: 'history' }],
    } as unknown as Parameters<typeof inScoutTerms>[1];
    const rejected = new ServiceError({
      code: 'BAD_REQUEST',
      operation: 'songs.query',
      status: 400,
      message: 'The service rejected the request: No chart for week 2001-W05; see action=weeks.',
    });
    expect(toText(errorReply(rejected, logger, null, family))).toContain('see /scout songs weeks.');
    expect(inScoutTerms('see action=song-history', family)).toBe('see /scout help songs');
    expect(toText(errorReply(rejected, logger))).toContain('see /scout help.');
    expect(toText(errorReply(rejected, logger))).not.toContain('action=');
  });

  it('says each problem of an input the client refused in a sentence naming its field once', () => {
    const { logger } = logged();
    const refused = new ServiceInputError('crm.updateContact', [
      { field: 'perPage', message: 'must be a whole number from 1 to 100' },
      { field: 'status', message: 'must be one of: A, B', allowed: ['A', 'B'] },
      { field: '', message: 'needs something to change' },
    ]);
    expect(toText(errorReply(refused, logger)).split('\n').slice(0, 3)).toEqual([
      'Error: Not sent: perPage must be a whole number from 1 to 100.',
      'status must be one of: A, B (allowed: A, B).',
      'Needs something to change.',
    ]);
  });
});
