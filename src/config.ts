/**
 * The only reader of the environment. One zod schema describes every variable Scout understands; a missing or
 * malformed variable stops start-up with a message that names it and says what is expected.
 */
import { existsSync } from 'node:fs';
import { z } from 'zod';
import type { DiscordConfig } from './adapters/discord/config.js';
import type { SlackConfig, SlackOAuthConfig } from './adapters/slack/config.js';
import { ScoutError } from './core/errors.js';

export type { DiscordConfig, SlackConfig, SlackOAuthConfig };

/** Log levels accepted by LOG_LEVEL (pino's names). */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const httpUrl = z
  .url({ protocol: /^https?$/, error: 'an http(s) URL such as https://api.example.com' })
  .transform((value) => value.replace(/\/+$/, ''));

const GUILD_IDS_EXPECTED =
  'the ids of the Discord servers Scout serves, comma-separated (in Discord: User Settings → Advanced → Developer Mode, then right-click the server → Copy Server ID)';

const blankIsUnset = (value: unknown) =>
  typeof value === 'string' && value.trim() === '' ? undefined : value;

/** Every environment variable Scout reads, with its default and what it means (README and .env.example list them too). */
export const envSchema = z.object({
  SCOUT_API_KEY: z.preprocess(blankIsUnset, z.string().min(8, 'an API key of the service').optional()),
  SCOUT_API_URL: z.preprocess(blankIsUnset, httpUrl.default('https://api.topyappers.com')),
  SCOUT_MEDIA_URL: z.preprocess(blankIsUnset, httpUrl.optional()),
  DATABASE_PATH: z.preprocess(blankIsUnset, z.string().min(1).default('./data/scout.db')),
  DATABASE_URL: z.preprocess(
    blankIsUnset,
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'a PostgreSQL URL such as postgres://user:password@host:5432/scout')
      .optional(),
  ),
  REDIS_URL: z.preprocess(
    blankIsUnset,
    z
      .string()
      .regex(/^rediss?:\/\//, 'a Redis URL such as redis://host:6379 or rediss://user:password@host:6380')
      .optional(),
  ),
  SCOUT_CONFIRM_ABOVE: z.preprocess(
    blankIsUnset,
    z.coerce
      .number({ error: 'a whole number of credits' })
      .int('a whole number of credits')
      .min(0, 'at least 0')
      .default(20),
  ),
  SCOUT_DAILY_CAP: z.preprocess(
    (value) => (typeof value === 'string' && /^\s*(none|off)?\s*$/i.test(value) ? undefined : value),
    z.coerce
      .number({ error: 'a whole number of credits, or none' })
      .int('a whole number of credits')
      .min(0, 'at least 0')
      .optional(),
  ),
  SCOUT_BALANCE_ALERT: z.preprocess(
    (value) => (typeof value === 'string' && /^\s*(none|off)?\s*$/i.test(value) ? undefined : value),
    z.coerce
      .number({ error: 'a whole number of credits, or none' })
      .int('a whole number of credits')
      .min(1, 'at least 1')
      .optional(),
  ),
  SCOUT_PROFILE_TTL_DAYS: z.preprocess(
    blankIsUnset,
    z.coerce
      .number({ error: 'a number of days' })
      .positive('more than 0 days')
      .max(365, 'at most 365 days')
      .default(7),
  ),
  SCOUT_REPLY_POLL_SECONDS: z.preprocess(
    blankIsUnset,
    z.coerce
      .number({ error: 'a whole number of seconds' })
      .int('a whole number of seconds')
      .min(10, 'at least 10 seconds')
      .max(86_400, 'at most a day')
      .default(120),
  ),
  SCOUT_MULTI_TENANT: z.preprocess(
    (value) => (typeof value === 'string' ? blankIsUnset(value.trim().toLowerCase()) : value),
    z
      .enum(['true', 'false', '1', '0', 'yes', 'no'], { error: 'true or false' })
      .default('false')
      .transform((value) => ['true', '1', 'yes'].includes(value)),
  ),
  SCOUT_ENCRYPTION_KEY: z.preprocess(
    blankIsUnset,
    z
      .string()
      .min(32, 'at least 32 random characters, such as the output of openssl rand -base64 32')
      .optional(),
  ),
  SLACK_CLIENT_ID: z.preprocess(blankIsUnset, z.string().min(4, 'the app client id').optional()),
  SLACK_CLIENT_SECRET: z.preprocess(blankIsUnset, z.string().min(8, 'the app client secret').optional()),
  SLACK_STATE_SECRET: z.preprocess(
    blankIsUnset,
    z.string().min(16, 'a random secret of at least 16 characters that signs OAuth states').optional(),
  ),
  SLACK_BOT_TOKEN: z.preprocess(
    blankIsUnset,
    z
      .string()
      .regex(/^xoxb-/, 'a bot token starting with xoxb-')
      .optional(),
  ),
  SLACK_SIGNING_SECRET: z.preprocess(blankIsUnset, z.string().min(8, 'the app signing secret').optional()),
  SLACK_APP_TOKEN: z.preprocess(
    blankIsUnset,
    z
      .string()
      .regex(/^xapp-/, 'an app-level token starting with xapp-')
      .optional(),
  ),
  SLACK_API_URL: z.preprocess(blankIsUnset, httpUrl.optional()),
  PORT: z.preprocess(
    blankIsUnset,
    z.coerce
      .number({ error: 'a port number' })
      .int('a port number')
      .min(0, 'a port number')
      .max(65535, 'a port number')
      .default(3000),
  ),
  DISCORD_TOKEN: z.preprocess(blankIsUnset, z.string().min(20, 'a bot token').optional()),
  DISCORD_APPLICATION_ID: z.preprocess(
    blankIsUnset,
    z
      .string()
      .regex(/^\d{17,20}$/, 'the numeric application id')
      .optional(),
  ),
  DISCORD_API_URL: z.preprocess(blankIsUnset, httpUrl.optional()),
  DISCORD_GUILD_IDS: z.preprocess(
    blankIsUnset,
    z
      .string()
      .transform((value) =>
        value
          .split(',')
          .map((id) => id.trim())
          .filter((id) => id !== ''),
      )
      .pipe(z.array(z.string().regex(/^\d{17,20}$/, GUILD_IDS_EXPECTED)))
      .optional(),
  ),
  LOG_LEVEL: z.preprocess(
    (value) => (typeof value === 'string' ? blankIsUnset(value.toLowerCase()) : value),
    z.enum(LOG_LEVELS, { error: `one of ${LOG_LEVELS.join(', ')}` }).default('info'),
  ),
});

const count = (fallback: number, what: string) =>
  z.preprocess(blankIsUnset, z.coerce.number({ error: what }).int(what).min(0, what).default(fallback));

/** Variables of `npm run sandbox`, the stand-alone service emulator. */
export const sandboxEnvSchema = z.object({
  SANDBOX_PORT: count(4010, 'a port number from 0 to 65535').pipe(
    z.number().max(65535, 'a port number up to 65535'),
  ),
  SANDBOX_REPLY_SECONDS: count(30, 'a whole number of seconds, 0 for never'),
  SANDBOX_REMIX_DELAY_MS: count(1500, 'a whole number of milliseconds'),
});

/** Every variable name Scout and its sandbox read. */
export const ENV_VARIABLES = [...Object.keys(envSchema.shape), ...Object.keys(sandboxEnvSchema.shape)];

/**
 * Where Scout sends its service calls: the real service with the one team's key, the sandbox embedded in the
 * process, or (many-team mode) the service with each tenant's own key.
 */
export type ServiceTarget =
  | { kind: 'service'; apiKey: string; apiUrl: string; mediaUrl: string }
  | { kind: 'embedded-sandbox' }
  | { kind: 'tenant-keys'; apiUrl: string; mediaUrl: string };

/** One team with one key, or many teams each with its own key. */
export type TenancyConfig = { kind: 'single' } | { kind: 'multi'; encryptionKey: string };

/** Scout's validated configuration. */
export interface Config {
  /** Null when Slack is not configured. */
  slack: SlackConfig | null;
  /** Null when Discord is not configured. */
  discord: DiscordConfig | null;
  service: ServiceTarget;
  tenancy: TenancyConfig;
  /** A paid command estimated above this many credits asks for confirmation. */
  confirmAbove: number;
  /** Default daily cap per person; null for none. */
  dailyCap: number | null;
  /** A service balance below this many credits alerts the tenant's admins privately, once a day; null: off. */
  balanceAlert: number | null;
  /** How long a bought creator profile is reused, in ms. */
  profileTtlMs: number;
  /** How often the reply poller asks the service for new creator replies, in ms. */
  replyPollMs: number;
  databasePath: string;
  /** DATABASE_URL when it is set: the PostgreSQL database used instead of DATABASE_PATH; else null. */
  databaseUrl: string | null;
  /** REDIS_URL when it is set: the Redis through which replicas share each service key's rate window; else null. */
  redisUrl: string | null;
  /** PORT when it is set: where the operator endpoints listen when no Slack server serves them; else null. */
  opsPort: number | null;
  logLevel: (typeof LOG_LEVELS)[number];
}

/** Thrown when the environment does not describe a valid configuration; the message names every bad variable. */
export class ConfigError extends ScoutError {
  override readonly name = 'ConfigError';
  readonly code = 'INVALID_CONFIG';
  constructor(readonly problems: ReadonlyArray<{ variable: string; expected: string }>) {
    super(
      `Scout cannot start: ${problems.map((p) => `${p.variable} is invalid (expected ${p.expected})`).join('; ')}.`,
    );
  }
}

type Env = Readonly<Record<string, string | undefined>>;

function parseEnv<T extends z.ZodType>(schema: T, env: Env): z.output<T> {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => ({
        variable: String(issue.path[0] ?? '?'),
        expected: issue.message,
      })),
    );
  }
  return parsed.data;
}

/** Settings of the stand-alone sandbox. */
export interface SandboxConfig {
  port: number;
  replyIntervalMs: number;
  remixDelayMs: number;
}

/** Parses the stand-alone sandbox's variables, or throws ConfigError. */
export function loadSandboxConfig(env: Env = process.env): SandboxConfig {
  const vars = parseEnv(sandboxEnvSchema, env);
  return {
    port: vars.SANDBOX_PORT,
    replyIntervalMs: vars.SANDBOX_REPLY_SECONDS * 1000,
    remixDelayMs: vars.SANDBOX_REMIX_DELAY_MS,
  };
}

/** Parses the environment (process.env by default) into a Config, or throws ConfigError. */
export function loadConfig(env: Env = process.env): Config {
  const vars = parseEnv(envSchema, env);
  const multi = vars.SCOUT_MULTI_TENANT;
  const problems: Array<{ variable: string; expected: string }> = [];
  const mediaUrl = vars.SCOUT_MEDIA_URL ?? vars.SCOUT_API_URL;
  let service: ServiceTarget;
  if (multi) {
    if (vars.SCOUT_API_KEY !== undefined) {
      problems.push({
        variable: 'SCOUT_API_KEY',
        expected:
          'unset with SCOUT_MULTI_TENANT=true: each workspace connects its own key with /scout connect',
      });
    }
    service = { kind: 'tenant-keys', apiUrl: vars.SCOUT_API_URL, mediaUrl };
  } else {
    service =
      vars.SCOUT_API_KEY === undefined
        ? { kind: 'embedded-sandbox' }
        : { kind: 'service', apiKey: vars.SCOUT_API_KEY, apiUrl: vars.SCOUT_API_URL, mediaUrl };
  }
  let tenancy: TenancyConfig = { kind: 'single' };
  if (multi) {
    if (vars.SCOUT_ENCRYPTION_KEY === undefined) {
      problems.push({
        variable: 'SCOUT_ENCRYPTION_KEY',
        expected:
          'a secret of at least 32 characters with SCOUT_MULTI_TENANT=true (it encrypts the keys and tokens Scout keeps), such as the output of openssl rand -base64 32',
      });
    } else {
      tenancy = { kind: 'multi', encryptionKey: vars.SCOUT_ENCRYPTION_KEY };
    }
  }
  const slack = slackConfig(vars, multi, problems);
  let discord: DiscordConfig | null = null;
  if (vars.DISCORD_TOKEN !== undefined) {
    if (vars.DISCORD_APPLICATION_ID === undefined) {
      problems.push({
        variable: 'DISCORD_APPLICATION_ID',
        expected: 'the application id alongside DISCORD_TOKEN',
      });
    } else if (!multi && (vars.DISCORD_GUILD_IDS ?? []).length === 0) {
      problems.push({
        variable: 'DISCORD_GUILD_IDS',
        expected: `${GUILD_IDS_EXPECTED}; required with DISCORD_TOKEN, so that nobody else can add the bot and use the team's account`,
      });
    } else {
      discord = {
        token: vars.DISCORD_TOKEN,
        applicationId: vars.DISCORD_APPLICATION_ID,
        apiUrl: vars.DISCORD_API_URL ?? null,
        guildIds: multi ? [] : (vars.DISCORD_GUILD_IDS ?? []),
      };
    }
  } else if (vars.DISCORD_APPLICATION_ID !== undefined) {
    problems.push({ variable: 'DISCORD_TOKEN', expected: 'the bot token alongside DISCORD_APPLICATION_ID' });
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return {
    slack,
    discord,
    service,
    tenancy,
    confirmAbove: vars.SCOUT_CONFIRM_ABOVE,
    dailyCap: vars.SCOUT_DAILY_CAP ?? null,
    balanceAlert: vars.SCOUT_BALANCE_ALERT ?? null,
    profileTtlMs: vars.SCOUT_PROFILE_TTL_DAYS * 86_400_000,
    replyPollMs: vars.SCOUT_REPLY_POLL_SECONDS * 1000,
    databasePath: vars.DATABASE_PATH,
    databaseUrl: vars.DATABASE_URL ?? null,
    redisUrl: vars.REDIS_URL ?? null,
    opsPort: blankIsUnset(env.PORT) === undefined ? null : vars.PORT,
    logLevel: vars.LOG_LEVEL,
  };
}

/** Slack's settings: a bot token for one team, or OAuth credentials for many; null when Slack is not set up. */
function slackConfig(
  vars: z.output<typeof envSchema>,
  multi: boolean,
  problems: Array<{ variable: string; expected: string }>,
): SlackConfig | null {
  const oauthVars = ['SLACK_CLIENT_ID', 'SLACK_CLIENT_SECRET', 'SLACK_STATE_SECRET'] as const;
  const anyOAuth = oauthVars.some((name) => vars[name] !== undefined);
  const common = {
    signingSecret: vars.SLACK_SIGNING_SECRET ?? null,
    appToken: vars.SLACK_APP_TOKEN ?? null,
    apiUrl: vars.SLACK_API_URL ?? null,
    port: vars.PORT,
  };
  const needSigningSecret = () => {
    if (vars.SLACK_APP_TOKEN === undefined && vars.SLACK_SIGNING_SECRET === undefined) {
      problems.push({
        variable: 'SLACK_SIGNING_SECRET',
        expected: 'the signing secret for HTTP mode, or set SLACK_APP_TOKEN for Socket Mode',
      });
    }
  };
  if (multi) {
    if (vars.SLACK_BOT_TOKEN !== undefined) {
      problems.push({
        variable: 'SLACK_BOT_TOKEN',
        expected:
          'unset with SCOUT_MULTI_TENANT=true: workspaces install Scout through OAuth (SLACK_CLIENT_ID, SLACK_CLIENT_SECRET, SLACK_STATE_SECRET)',
      });
      return null;
    }
    if (!anyOAuth) {
      if (vars.SLACK_APP_TOKEN !== undefined || vars.SLACK_SIGNING_SECRET !== undefined) {
        problems.push({
          variable: 'SLACK_CLIENT_ID',
          expected: 'the app client id alongside the other Slack settings',
        });
      }
      return null;
    }
    for (const name of oauthVars) {
      if (vars[name] === undefined) {
        problems.push({
          variable: name,
          expected: 'set together with the other OAuth settings of the Slack app',
        });
      }
    }
    needSigningSecret();
    const {
      SLACK_CLIENT_ID: clientId,
      SLACK_CLIENT_SECRET: clientSecret,
      SLACK_STATE_SECRET: stateSecret,
    } = vars;
    if (clientId === undefined || clientSecret === undefined || stateSecret === undefined) return null;
    return { botToken: null, oauth: { clientId, clientSecret, stateSecret }, ...common };
  }
  if (anyOAuth) {
    problems.push({
      variable: 'SCOUT_MULTI_TENANT',
      expected:
        'true when SLACK_CLIENT_ID and the other OAuth settings are set (OAuth installs are for many teams)',
    });
  }
  if (vars.SLACK_BOT_TOKEN !== undefined) {
    needSigningSecret();
    return { botToken: vars.SLACK_BOT_TOKEN, oauth: null, ...common };
  }
  if (vars.SLACK_APP_TOKEN !== undefined || vars.SLACK_SIGNING_SECRET !== undefined) {
    problems.push({
      variable: 'SLACK_BOT_TOKEN',
      expected: 'the bot token (xoxb-…) alongside the other Slack settings',
    });
  }
  return null;
}

/** The secret values of a configuration, for the logger to redact wherever they appear. */
export function configSecrets(config: Config): string[] {
  return [
    config.service.kind === 'service' ? config.service.apiKey : null,
    config.slack?.botToken ?? null,
    config.slack?.signingSecret ?? null,
    config.slack?.oauth?.clientSecret ?? null,
    config.slack?.oauth?.stateSecret ?? null,
    config.tenancy.kind === 'multi' ? config.tenancy.encryptionKey : null,
    config.slack?.appToken ?? null,
    config.discord?.token ?? null,
    ...urlPasswords(config.databaseUrl),
    ...urlPasswords(config.redisUrl),
  ].filter((secret): secret is string => secret !== null);
}

/**
 * The password of a DATABASE_URL or REDIS_URL, as written and decoded; none when there is none. A URL that does not
 * parse still gives up what stands between `user:` and `@`.
 */
export function urlPasswords(url: string | null): string[] {
  if (url === null) return [];
  if (!URL.canParse(url)) {
    const written = /^[a-z]+:\/\/[^/:@]*:([^/@]*)@/i.exec(url)?.[1];
    return written ? [written] : [];
  }
  const { password } = new URL(url);
  if (password === '') return [];
  let decoded = password;
  try {
    decoded = decodeURIComponent(password);
  } catch {
    // Not valid percent-encoding: only the password as written is masked.
  }
  return decoded === password ? [password] : [password, decoded];
}

/** A DATABASE_URL as it may be shown: without its password. */
export function redactDatabaseUrl(url: string): string {
  if (!URL.canParse(url)) return url.replace(/^([a-z]+:\/\/[^/:@]*):[^/]*@/i, '$1@');
  const parsed = new URL(url);
  parsed.password = '';
  return parsed.toString();
}

/** DATABASE_PATH as Scout reads it (its default when unset), for tools that need only the database. */
export function databasePathOf(env: Env = process.env): string {
  return envSchema.shape.DATABASE_PATH.parse(env.DATABASE_PATH);
}

/** Loads `.env` from the working folder into process.env when the file exists (variables already set win). */
export function loadDotEnv(path = '.env'): boolean {
  if (!existsSync(path)) return false;
  process.loadEnvFile(path);
  return true;
}
