import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CommandInputError } from '../../../src/core/command/errors.js';
import { commandFormId } from '../../../src/core/command/forms/index.js';
import { ParamError } from '../../../src/core/command/params.js';
import { createRegistry } from '../../../src/core/command/registry.js';
import {
  isInputError,
  mistake,
  optionsInput,
  secretsOf,
  tokensInput,
  validInput,
  withoutSecrets,
} from '../../../src/core/command/resolve-options.js';
import { tokenize } from '../../../src/core/command/tokenize.js';
import {
  type CommandDeclaration,
  type CommandDef,
  defineCommand,
  defineFamily,
} from '../../../src/core/command/types.js';
import { createLogger } from '../../../src/core/logger.js';
import { renderText, reply } from '../../../src/core/ui/index.js';

const searchDeclaration = defineCommand({
  name: 'search',
  description: 'Find creators.',
  params: {
    followers: {
      kind: 'range',
      min: 'followersMin',
      max: 'followersMax',
      integer: true,
      description: 'Followers.',
    },
    niche: { kind: 'text', aliases: ['topic'], description: 'A niche.' },
    limit: { kind: 'integer', description: 'How many.' },
  },
  schema: z.object({
    followersMin: z.number().optional(),
    followersMax: z.number().optional(),
    niche: z.string().optional(),
    limit: z.number().int().min(1).max(50).default(10),
  }),
  examples: ['creators search followers:10k-100k'],
  run: async () => reply([]),
});

const connectDeclaration = defineCommand({
  name: 'connect',
  description: 'Connect a key.',
  params: {
    key: { kind: 'text', secret: true, positional: true, description: 'The service key.' },
    label: { kind: 'text', description: 'A label.' },
  },
  schema: z.object({ key: z.string(), label: z.string().optional() }),
  examples: ['service connect'],
  permission: 'admin',
  account: 'optional',
  run: async () => reply([]),
});

// Two secrets: a line may give one and lack the other.
const pairDeclaration = {
  ...connectDeclaration,
  name: 'pair',
  description: 'Connect a key pair.',
  params: {
    id: { kind: 'text', secret: true, description: 'The key id.' },
    secret: { kind: 'text', secret: true, description: 'The key secret.' },
    label: { kind: 'text', description: 'A label.' },
  },
  schema: z.object({ id: z.string(), secret: z.string(), label: z.string().optional() }),
} as CommandDeclaration<unknown>;

const registry = createRegistry([
  defineFamily({ name: 'creators', description: 'Creators.', commands: [searchDeclaration] }),
  defineFamily({ name: 'service', description: 'Service.', commands: [connectDeclaration, pairDeclaration] }),
]);
const search = registry.command('creators', 'search') as CommandDef<unknown>;
const connect = registry.command('service', 'connect') as CommandDef<unknown>;
const logger = createLogger({ level: 'silent' });

describe('resolving options', () => {
  it('coerces typed options like their text, by name or alias, and writes the line they read as', () => {
    expect(optionsInput(search, { followers: '10k-100k', topic: 'skin care', limit: '5' })).toEqual({
      raw: { followersMin: 10_000, followersMax: 100_000, niche: 'skin care', limit: 5 },
      text: 'creators search followers:10k-100k topic:"skin care" limit:5',
    });
    expect(() => optionsInput(search, { colour: 'red' })).toThrow(CommandInputError);
    expect(() => optionsInput(search, { colour: 'red' })).toThrow('Unknown option "colour".');
    expect(() => optionsInput(search, { limit: 'many' })).toThrow(ParamError);
  });

  it("binds a form's tokens as the typed line would be", () => {
    expect(tokensInput(search, tokenize('followers:>=1m niche:"day trips"'))).toEqual({
      raw: { followersMin: 1_000_000, niche: 'day trips' },
      text: 'creators search followers:>=1m niche:"day trips"',
    });
  });

  it("validates the input with the command's schema, naming each problem with the usage line", () => {
    expect(validInput(search, { limit: 3 })).toEqual({ limit: 3 });
    expect(validInput(search, {})).toEqual({ limit: 10 });
    try {
      validInput(search, { limit: 99, niche: 7 });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(CommandInputError);
      // Each problem is one sentence naming the option.
      expect((error as Error).message.split('\n')).toEqual([
        expect.stringMatching(/^niche .*\.$/),
        expect.stringMatching(/^limit .*50.*\.$/),
      ]);
      expect((error as CommandInputError).usage).toContain('/scout creators search');
    }
  });

  it('hides a secret value wherever it stands in the kept line', () => {
    const line = 'service connect sk_live_123 label:sk_live_123';
    expect(withoutSecrets(connect, { key: 'sk_live_123', label: 'x' }, line)).toBe(
      'service connect [secret] label:[secret]',
    );
    expect(withoutSecrets(search, { niche: 'sk_live_123' }, line)).toBe(line);
  });

  it('names the secrets a line leaves out, with the options it gives', () => {
    expect(secretsOf(registry, '/scout service connect label:"Main key"')).toEqual({
      family: 'service',
      command: 'connect',
      line: '/scout service connect',
      given: { label: 'Main key' },
      fields: [{ name: 'key', label: 'The service key.' }],
    });
    expect(secretsOf(registry, 'service connect sk_live_1')).toBeNull();
    expect(secretsOf(registry, 'creators search')).toBeNull();
    expect(secretsOf(registry, 'nothing')).toBeNull();
  });

  it('keeps no secret of a line that gives one secret and lacks another: the form asks for both', () => {
    expect(secretsOf(registry, 'service pair id:kid_1 label:Main')).toEqual({
      family: 'service',
      command: 'pair',
      line: '/scout service pair',
      given: { label: 'Main' },
      fields: [
        { name: 'id', label: 'The key id.' },
        { name: 'secret', label: 'The key secret.' },
      ],
    });
    expect(secretsOf(registry, 'service pair id:kid_1 secret:s_2')).toBeNull();
  });

  it("answers a mistake with the usage line, offering the command's form only for a mistake in its options", () => {
    const wrong = new CommandInputError('limit: too big');
    const withForm = mistake(wrong, search, true, logger);
    expect(JSON.stringify(withForm.nodes)).toContain(commandFormId(search));
    expect(renderText(withForm).text).toContain('Usage:');
    expect(JSON.stringify(mistake(wrong, search, undefined, logger).nodes)).not.toContain(
      commandFormId(search),
    );
    // A secret's command has no form; a crash is not the person's mistake.
    expect(JSON.stringify(mistake(wrong, connect, true, logger).nodes)).not.toContain('scout.form-of:');
    const crash = mistake(new Error('disk on fire'), search, true, logger);
    expect(JSON.stringify(crash.nodes)).not.toContain(commandFormId(search));
    expect(renderText(crash).text).not.toContain('disk on fire');
    expect([wrong, new ParamError('x', 'y')].every(isInputError)).toBe(true);
    expect(isInputError(new Error('x'))).toBe(false);
  });
});
