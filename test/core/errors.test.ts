/**
 * Every error class in src derives from ScoutError and carries a code of the one table, each code raised by one
 * class (or by a class and its subclass). Classes are found by reading the sources, so a new one cannot be missed;
 * each exported one needs a sample below, built as the code builds it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SlackStartError } from '../../src/adapters/slack/index.js';
import { NotInstalledError } from '../../src/adapters/slack/installations.js';
import { ConfigError } from '../../src/config.js';
import { CommandInputError, NotConnectedError } from '../../src/core/command/errors.js';
import { ParamError, StrayWordsError } from '../../src/core/command/params.js';
import { TokenizeError } from '../../src/core/command/tokenize.js';
import { CreditCapError, StorageFullError, UnconfirmedChargeError } from '../../src/core/credit-errors.js';
import {
  CancelledError,
  InternalError,
  isScoutError,
  ListenError,
  PlatformError,
  SCOUT_ERROR_CODES,
  ScoutError,
  type ScoutErrorCode,
  SetupError,
} from '../../src/core/errors.js';
import {
  SERVICE_ERROR_CODES,
  ServiceError,
  ServiceInputError,
  SharedWindowUnavailableError,
} from '../../src/core/service/errors.js';
import { DatabaseError } from '../../src/core/store/database.js';
import { PermissionError } from '../../src/core/tenancy/roles.js';
import { SealError } from '../../src/core/tenancy/seal.js';
import { SandboxHttpError } from '../../src/sandbox/server/http.js';
import { CopyError, UsageError } from '../../src/tools/db-copy.js';

const src = new URL('../../src/', import.meta.url);
const files = (readdirSync(src, { recursive: true }) as string[])
  .filter((f) => f.endsWith('.ts'))
  .map((f) => f.split('\\').join('/'));

const BUILT_IN_ERRORS = new Set([
  'Error',
  'TypeError',
  'RangeError',
  'SyntaxError',
  'ReferenceError',
  'EvalError',
  'URIError',
  'AggregateError',
]);

/** A class declaration found in src. */
interface Declared {
  name: string;
  parent: string;
  file: string;
  exported: boolean;
}

const declared: Declared[] = files.flatMap((file) =>
  [
    ...readFileSync(new URL(file, src), 'utf8').matchAll(
      /(export\s+)?(?:abstract\s+)?class(?:\s+([\w$]+))?(?:<[^>{]*>)?\s+extends\s+([\w$.]+)/g,
    ),
  ].map((m) => ({ name: m[2] ?? '(anonymous)', parent: m[3] ?? '', file, exported: m[1] !== undefined })),
);
const byName = new Map(declared.map((c) => [c.name, c]));

/** The chain of parents of a class declared in src, up to the first one declared elsewhere. */
function ancestry(name: string): string[] {
  const chain: string[] = [];
  for (let current = byName.get(name); current !== undefined; current = byName.get(current.parent)) {
    chain.push(current.parent);
  }
  return chain;
}

/** Classes of src whose chain reaches ScoutError. */
const errorClasses = declared.filter(
  (c) => c.name !== 'ScoutError' && ancestry(c.name).includes('ScoutError'),
);

const operation = 'creators.search' as const;
/** One or more instances of each exported error class, keyed by class name. */
const samples: Record<string, readonly Error[]> = {
  ConfigError: [new ConfigError([{ variable: 'PORT', expected: 'a port number' }])],
  SlackStartError: [new SlackStartError('Slack rejected SLACK_BOT_TOKEN.')],
  UsageError: [new UsageError('Unknown argument: --into')],
  SetupError: [new SetupError('SLACK_SIGNING_SECRET is required in HTTP mode.')],
  ListenError: [new ListenError('The operator endpoints could not listen on PORT 3000 (EADDRINUSE).')],
  DatabaseError: [
    new DatabaseError('The database at schema version 9 is newer than this Scout (8); upgrade Scout.'),
  ],
  CopyError: [
    new CopyError('The row counts differ after the copy, so nothing was kept: ledger: 2 in SQLite, 1.'),
  ],
  PlatformError: [new PlatformError('Slack opened no DM channel with U123')],
  NotInstalledError: [new NotInstalledError('No Slack installation for T123.')],
  InternalError: [new InternalError('Command family name used twice: creators')],
  CancelledError: [new CancelledError('cancelled by the person who ran it')],
  TokenizeError: [new TokenizeError('A quote is not closed.')],
  ParamError: [new ParamError('followers', 'followers takes a number.')],
  StrayWordsError: [new StrayWordsError('"fitness" is not understood here: options are written key:value.')],
  CommandInputError: [new CommandInputError('Unknown command "tets".')],
  PermissionError: [new PermissionError('/scout caps set needs an admin.')],
  CreditCapError: [new CreditCapError(100, 95, 10)],
  NotConnectedError: [new NotConnectedError(true), new NotConnectedError(false, true)],
  UnconfirmedChargeError: [new UnconfirmedChargeError(operation, 5, new Error('socket hang up'))],
  StorageFullError: [new StorageFullError(), new StorageFullError(true)],
  SealError: [new SealError('Sealed value is too short.')],
  ServiceError: SERVICE_ERROR_CODES.map((code) => new ServiceError({ code, operation, message: code })),
  ServiceInputError: [
    new ServiceInputError(operation, [{ field: 'followers', message: 'must be a number' }]),
  ],
  SharedWindowUnavailableError: [new SharedWindowUnavailableError(new Error('ECONNREFUSED'))],
  SandboxHttpError: [new SandboxHttpError(404, 'No song with id 7')],
};

describe('ScoutError', () => {
  it('is the only class in src that extends a built-in error or one of a library', () => {
    const offenders = declared
      .filter((c) => !byName.has(c.parent) && (BUILT_IN_ERRORS.has(c.parent) || /Error$/.test(c.parent)))
      .filter((c) => !(c.name === 'ScoutError' && c.file === 'core/errors.ts' && c.parent === 'Error'))
      .map((c) => `${c.file}: ${c.name} extends ${c.parent}`);
    expect(offenders).toEqual([]);
  });

  it('has a sample here for every exported error class, each a ScoutError with a listed code and its own name', async () => {
    const exported = errorClasses.filter((c) => c.exported);
    expect(exported.map((c) => c.name).sort()).toEqual(Object.keys(samples).sort());
    for (const { name, file } of exported) {
      const loaded = (await import(new URL(file, src).href)) as Record<string, unknown>;
      const Class = loaded[name] as abstract new (...args: never[]) => Error;
      expect(Class.prototype, name).toBeInstanceOf(ScoutError);
      for (const sample of samples[name] ?? []) {
        expect(sample, name).toBeInstanceOf(Class);
        expect(isScoutError(sample), name).toBe(true);
        expect(sample.name, name).toBe(name);
        expect(Object.keys(SCOUT_ERROR_CODES), name).toContain((sample as ScoutError).code);
      }
    }
  });

  it('gives each code to one class (or a class and its subclass) and lists only codes in use', () => {
    const owners = new Map<ScoutErrorCode, Set<string>>();
    for (const [name, list] of Object.entries(samples)) {
      for (const sample of list) {
        const code = (sample as ScoutError).code;
        owners.set(code, (owners.get(code) ?? new Set()).add(name));
      }
    }
    const shared = [...owners].flatMap(([code, names]) => {
      const [first, ...rest] = [...names];
      return rest
        .filter((other) => !ancestry(other).includes(first ?? '') && !ancestry(first ?? '').includes(other))
        .map((other) => `${code}: ${first} and ${other}`);
    });
    expect(shared).toEqual([]);
    expect([...owners.keys()].sort()).toEqual(Object.keys(SCOUT_ERROR_CODES).sort());
    // The table names the class that raises each code, so it can be read without the sources.
    const misnamed = [...owners].filter(
      ([code, names]) => ![...names].some((name) => SCOUT_ERROR_CODES[code].startsWith(`${name}: `)),
    );
    expect(misnamed).toEqual([]);
  });

  it('raises every code somewhere in src: each class is constructed, each code written as a value', () => {
    const sources = files.map((file) => readFileSync(new URL(file, src), 'utf8'));
    const unraised = errorClasses
      .filter((c) => !sources.some((text) => text.includes(`new ${c.name}(`)))
      .map((c) => c.name);
    expect(unraised).toEqual([]);
    // The table names each code as a key; a class or a call site writes it as a string.
    const unwritten = Object.keys(SCOUT_ERROR_CODES).filter(
      (code) => !sources.some((text) => text.includes(`'${code}'`)),
    );
    expect(unwritten).toEqual([]);
  });

  it('tells Scout’s errors from any other', () => {
    expect(isScoutError(new TokenizeError('A quote is not closed.'))).toBe(true);
    expect(isScoutError(Object.assign(new Error('disk full'), { code: 'STORAGE_FULL' }))).toBe(false);
    expect(isScoutError({ code: 'INVALID_CONFIG', message: 'x' })).toBe(false);
    expect(isScoutError(null)).toBe(false);
  });
});
