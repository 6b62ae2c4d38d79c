import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AT_ONCE_KEPT, createAtOnce } from '../../../src/core/command/at-once.js';
import { createInterpreter } from '../../../src/core/command/interpret/index.js';
import type { CommandOutcome } from '../../../src/core/command/outcome.js';
import { createRegistry } from '../../../src/core/command/registry.js';
import { defineCommand, defineFamily } from '../../../src/core/command/types.js';
import { createLogger } from '../../../src/core/logger.js';
import { notice, reply, text } from '../../../src/core/ui/index.js';

let answers = 0;
const registry = createRegistry([
  defineFamily({
    name: 'help',
    description: 'Help.',
    defaultCommand: 'show',
    commands: [
      defineCommand({
        name: 'show',
        description: 'Help on a topic.',
        params: { topic: { kind: 'text', positional: true, description: 'A topic.' } },
        schema: z.object({ topic: z.string().max(20).optional() }),
        examples: ['help'],
        account: 'optional',
        answer: (input) => {
          answers += 1;
          return reply([text(`help on ${input.topic ?? 'everything'}`)]);
        },
        run: async () => reply([]),
      }),
    ],
  }),
  defineFamily({
    name: 'creators',
    description: 'Creators.',
    commands: [
      defineCommand({
        name: 'search',
        description: 'Find creators.',
        params: { limit: { kind: 'integer', description: 'How many.' } },
        schema: z.object({ limit: z.number().int().max(50).optional() }),
        examples: ['creators search'],
        cost: '1 credit',
        estimate: () => 1,
        working: 'Searching creators…',
        run: async () => reply([]),
      }),
      defineCommand({
        name: 'show',
        description: 'Show a creator.',
        params: {},
        schema: z.object({}),
        examples: ['creators show'],
        cost: '1 credit',
        estimate: () => 1,
        run: async () => reply([]),
      }),
    ],
  }),
]);

const start = () => {
  const counted: Array<[string, CommandOutcome]> = [];
  const metrics = {
    command: (family: string, outcome: CommandOutcome) => counted.push([family, outcome]),
    action: () => {},
  };
  const interpreter = createInterpreter(registry, { now: () => new Date() });
  const logger = createLogger({ level: 'silent' });
  return { counted, ...createAtOnce({ registry, logger, metrics, interpreter }) };
};
const said = (shown: unknown) => JSON.stringify(shown);

describe('answers at once', () => {
  it('answers a line that needs nothing but itself, keeping the answer and counting each time', () => {
    const { atOnce, counted } = start();
    answers = 0;
    const first = atOnce('help billing');
    expect(said(first)).toContain('help on billing');
    expect(atOnce('help billing')).toBe(first);
    expect(answers).toBe(1);
    expect(counted).toEqual([
      ['help', 'ok'],
      ['help', 'ok'],
    ]);
  });

  it('keeps a bounded number of answers', () => {
    const { atOnce } = start();
    const first = atOnce('help topic0');
    for (let i = 1; i < AT_ONCE_KEPT; i++) atOnce(`help topic${i}`);
    expect(atOnce('help topic0')).toBe(first);
    atOnce('help one-too-many');
    const again = atOnce('help topic0');
    expect(again).not.toBe(first);
    expect(again).toEqual(first);
  });

  it('answers a mistake in the line without keeping it, counted by the family the line names', () => {
    const { atOnce, counted } = start();
    const wrong = atOnce('creators search limit:500');
    expect(said(wrong)).toContain('limit');
    expect(said(wrong)).toContain('/scout creators search');
    expect(atOnce('creators search limit:500')).not.toBe(wrong);
    expect(said(atOnce('xyzzy'))).toContain('Unknown command \\"xyzzy');
    expect(said(atOnce('list "open'))).toContain('quote');
    expect(counted).toEqual([
      ['creators', 'input_error'],
      ['creators', 'input_error'],
      ['unknown', 'input_error'],
      ['unknown', 'input_error'],
    ]);
  });

  it('leaves a line that needs the dispatcher to it, uncounted', () => {
    const { atOnce, counted } = start();
    expect(atOnce('creators search limit:5')).toBeNull();
    expect(counted).toEqual([]);
  });

  it("gives the working message of a line that needs the dispatcher, the command's own or the common one", () => {
    const { working } = start();
    expect(working('/scout creators search limit:5')).toEqual(reply([notice('info', 'Searching creators…')]));
    expect(working('creators show')).toEqual(reply([notice('info', 'Working on it…')]));
    expect(working('help')).toBeNull();
    expect(working('nothing')).toBeNull();
  });
});
