/**
 * The error renderer with a real logger: what the author sees is unchanged by codes, and what is logged carries
 * the error's code, so a reference quoted by a person leads to a classified failure.
 */
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { errorReply, inScoutTerms } from '../../../src/core/command/error-reply.js';
import type { ParamTable } from '../../../src/core/command/params.js';
import { TokenizeError } from '../../../src/core/command/tokenize.js';
import type { CommandFamily } from '../../../src/core/command/types.js';
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

  it('says each problem of an input the client refused in a sentence naming its field once, as people know it', () => {
    const { logger } = logged();
    const params: ParamTable = {
      perPage: { kind: 'integer', aliases: ['limit', 'count'], description: 'Contacts a page.' },
      contactEmail: { kind: 'text', aliases: ['email'], description: 'The email.' },
      status: { kind: 'choice', values: ['To outreach', 'Done'], description: 'The status.' },
    };
    const refused = new ServiceInputError('crm.updateContact', [
      { field: 'perPage', message: 'must be a whole number from 1 to 100' },
      { field: 'contactEmail', message: 'must be an email address' },
      { field: 'status', message: 'must be one of: TO_OUTREACH, DONE', allowed: ['TO_OUTREACH', 'DONE'] },
      { field: '', message: 'needs something to change' },
    ]);
    expect(
      toText(errorReply(refused, logger, null, undefined, params))
        .split('\n')
        .slice(0, 4),
    ).toEqual([
      'Error: Not sent: limit must be a whole number from 1 to 100.',
      'email must be an email address.',
      'status must be one of: to outreach, done (allowed: to outreach, done).',
      'Needs something to change.',
    ]);
    // An element's failure has no command: the options of its family name the fields.
    const family = { name: 'list', commands: [{ name: 'update', params }] } as unknown as CommandFamily;
    expect(toText(errorReply(refused, logger, null, family))).toContain('Not sent: limit must be');
  });

  it('names the fields the service’s own message mentions by the options people type', () => {
    const { logger } = logged();
    const params: ParamTable = {
      zoomFactor: { kind: 'number', aliases: ['zoom'], description: 'Zoom.' },
      hueShift: { kind: 'number', description: 'Hue shift.' },
    };
    const rejected = (said: string) =>
      new ServiceError({
        code: 'BAD_REQUEST',
        operation: 'media.remixImage',
        status: 400,
        message: `The service rejected the request: ${said}.`,
      });
    const shown = (said: string) => toText(errorReply(rejected(said), logger, null, undefined, params));
    expect(shown('images[0].zoomFactor must be a number between 0.1 and 5')).toContain(
      'rejected the request: image1.zoom must be a number between 0.1 and 5.',
    );
    expect(shown('parameters.hueShift must be a number between -180 and 180')).toContain(
      'rejected the request: hue-shift must be a number between -180 and 180.',
    );
    // Words that name no option stay the service's, as does what people type (`image2.zoom`).
    expect(shown('image2.zoom is odd; set SCOUT_API_KEY')).toContain(
      'image2.zoom is odd; set SCOUT_API_KEY.',
    );
  });
});
