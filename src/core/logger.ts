/** Structured logging (pino) that never prints a secret: known secret keys are censored and known secret values masked. */

import { dirname, join } from 'node:path';
import type { DestinationStream, Logger as PinoLogger } from 'pino';
import { pino } from 'pino';
import { isScoutError } from './errors.js';

/** The logger type passed through Scout. */
export type Logger = PinoLogger;

/** Object keys whose values are always censored, wherever they appear (headers, options, payloads). */
const SECRET_KEYS = [
  'apiKey',
  'api_key',
  'x-ty-api-key',
  'token',
  'botToken',
  'appToken',
  'signingSecret',
  'authorization',
  'Authorization',
  'password',
  'secret',
];

const CENSOR = '[redacted]';

/** Options of createLogger. */
export interface LoggerOptions {
  level: string;
  /**
   * Secret values (API keys, tokens) to mask inside any logged string. A set is read at each log line, so
   * secrets learnt while running (a tenant's key, an installation's token) can be added to it later.
   */
  secrets?: Iterable<string>;
  /** Where to write; stdout by default. Tests pass a stream to read what was logged. */
  destination?: DestinationStream;
}

/** Creates the process logger. */
export function createLogger(options: LoggerOptions): Logger {
  const secrets = options.secrets ?? [];
  const mask = (value: string) => {
    let text = value;
    for (const secret of secrets) if (secret.length >= 4) text = text.split(secret).join(CENSOR);
    return text;
  };
  const scrub = (value: unknown, depth: number): unknown => {
    if (typeof value === 'string') return mask(value);
    if (depth > 6 || value === null || typeof value !== 'object') return value;
    if (value instanceof Error) {
      return {
        type: value.name,
        // Scout's own errors carry a stable code: logs are searched by it rather than by message.
        ...(isScoutError(value) ? { code: value.code } : {}),
        message: mask(value.message),
        stack: value.stack ? mask(value.stack) : undefined,
      };
    }
    if (Array.isArray(value)) return value.map((item) => scrub(item, depth + 1));
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, SECRET_KEYS.includes(k) ? CENSOR : scrub(v, depth + 1)]),
    );
  };
  return pino(
    {
      level: options.level,
      base: null,
      redact: { paths: SECRET_KEYS.flatMap((k) => [`["${k}"]`, `*["${k}"]`]), censor: CENSOR },
      formatters: { log: (obj) => scrub(obj, 0) as Record<string, unknown> },
      // Serializers run on what the formatter returns: pino's own `err` serializer would take the scrubbed error
      // for a plain object and log its type as "Object".
      serializers: { err: (err: unknown) => err },
      hooks: {
        // Messages are plain strings that may interpolate a secret by mistake: mask those too.
        logMethod(args, method) {
          method.apply(
            this,
            args.map((arg) => (typeof arg === 'string' ? mask(arg) : arg)) as Parameters<typeof method>,
          );
        },
      },
    },
    options.destination ?? pino.destination({ dest: 1, sync: true }),
  );
}

/** Where the process writes its logs. */
export type LogPlace = { kind: 'stdout' } | { kind: 'stderr' } | { kind: 'file'; path: string };

/** What decides where the logs go. */
export interface LogPlaceFacts {
  /** Whether Slack or Discord is configured; otherwise the terminal shell is how people reach Scout. */
  chat: boolean;
  /** Whether standard input is a terminal: a person types the shell's lines. */
  stdinIsTTY: boolean;
  /** Whether standard error is a terminal: logs written there would land on the screen the person types on. */
  stderrIsTTY: boolean;
  /** The SQLite database's path: the log file sits beside it. */
  databasePath: string;
}

/**
 * Where the logs go. A server's (Slack, Discord) go to standard output, and the terminal shell's to standard error
 * (standard output is the shell's), where a supervisor, a container runtime or a script reads them; only when a
 * person types at a terminal that standard error also writes to do they go to scout.log beside the database, so that
 * JSON lines never land in the middle of the prompt.
 */
export function logPlace(facts: LogPlaceFacts): LogPlace {
  if (facts.chat) return { kind: 'stdout' };
  if (facts.stdinIsTTY && facts.stderrIsTTY) {
    return { kind: 'file', path: join(dirname(facts.databasePath), 'scout.log') };
  }
  return { kind: 'stderr' };
}

/** The stream of `place`, written at once: the process may exit right after its last line (a file's folder is made). */
export function logDestination(place: LogPlace): DestinationStream {
  switch (place.kind) {
    case 'stdout':
      return pino.destination({ dest: 1, sync: true });
    case 'stderr':
      return pino.destination({ dest: 2, sync: true });
    case 'file':
      return pino.destination({ dest: place.path, mkdir: true, sync: true });
  }
}
