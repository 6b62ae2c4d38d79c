import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ConfigError, configSecrets, ENV_VARIABLES, loadConfig, loadSandboxConfig } from '../src/config.js';

describe('loadConfig', () => {
  it('runs against the embedded sandbox with no API key, with the documented defaults', () => {
    const config = loadConfig({});
    expect(config.service).toEqual({ kind: 'embedded-sandbox' });
    expect(config.databasePath).toBe('./data/scout.db');
    expect(config.logLevel).toBe('info');
    expect(config.confirmAbove).toBe(20);
    expect(config.dailyCap).toBeNull();
    expect(config.profileTtlMs).toBe(7 * 86_400_000);
    expect(config.replyPollMs).toBe(120_000);
    expect(configSecrets(config)).toEqual([]);
  });

  it('uses the real service when a key is set, the media URL defaulting to the API URL', () => {
    const config = loadConfig({ SCOUT_API_KEY: 'key-123456', SCOUT_API_URL: 'https://api.example.com/' });
    expect(config.service).toEqual({
      kind: 'service',
      apiKey: 'key-123456',
      apiUrl: 'https://api.example.com',
      mediaUrl: 'https://api.example.com',
    });
    expect(configSecrets(config)).toEqual(['key-123456']);
    const media = loadConfig({ SCOUT_API_KEY: 'key-123456', SCOUT_MEDIA_URL: 'http://127.0.0.1:9/' });
    expect(media.service).toMatchObject({
      apiUrl: 'https://api.topyappers.com',
      mediaUrl: 'http://127.0.0.1:9',
    });
  });

  it('reads credit settings', () => {
    const config = loadConfig({
      SCOUT_CONFIRM_ABOVE: '50',
      SCOUT_DAILY_CAP: '200',
      SCOUT_PROFILE_TTL_DAYS: '0.5',
    });
    expect(config).toMatchObject({ confirmAbove: 50, dailyCap: 200, profileTtlMs: 43_200_000 });
    expect(loadConfig({ SCOUT_DAILY_CAP: 'none' }).dailyCap).toBeNull();
    expect(() => loadConfig({ SCOUT_DAILY_CAP: 'lots' })).toThrow(/SCOUT_DAILY_CAP is invalid/);
    expect(() => loadConfig({ SCOUT_CONFIRM_ABOVE: '-1' })).toThrow(/SCOUT_CONFIRM_ABOVE/);
  });

  it('reads Slack and Discord settings, and names what is missing', () => {
    expect(loadConfig({}).slack).toBeNull();
    expect(loadConfig({}).discord).toBeNull();
    const socket = loadConfig({ SLACK_BOT_TOKEN: 'xoxb-1-2-abc', SLACK_APP_TOKEN: 'xapp-1-abc' });
    expect(socket.slack).toEqual({
      botToken: 'xoxb-1-2-abc',
      oauth: null,
      signingSecret: null,
      appToken: 'xapp-1-abc',
      apiUrl: null,
      port: 3000,
    });
    expect(configSecrets(socket)).toEqual(['xoxb-1-2-abc', 'xapp-1-abc']);
    const http = loadConfig({
      SLACK_BOT_TOKEN: 'xoxb-1',
      SLACK_SIGNING_SECRET: 'secret-123',
      PORT: '8080',
      SLACK_API_URL: 'http://127.0.0.1:9/api/',
    });
    expect(http.slack).toMatchObject({
      signingSecret: 'secret-123',
      appToken: null,
      port: 8080,
      apiUrl: 'http://127.0.0.1:9/api',
    });
    expect(() => loadConfig({ SLACK_BOT_TOKEN: 'xoxb-1' })).toThrow(
      /SLACK_SIGNING_SECRET is invalid \(expected the signing secret for HTTP mode/,
    );
    expect(() => loadConfig({ SLACK_SIGNING_SECRET: 'secret-123' })).toThrow(/SLACK_BOT_TOKEN/);
    expect(() => loadConfig({ SLACK_BOT_TOKEN: 'bad' })).toThrow(
      /SLACK_BOT_TOKEN is invalid \(expected a bot token starting with xoxb-/,
    );
    const discord = loadConfig({
      DISCORD_TOKEN: 'x'.repeat(30),
      DISCORD_APPLICATION_ID: '123456789012345678',
      DISCORD_GUILD_IDS: ' 223456789012345678, 323456789012345678 ',
    });
    expect(discord.discord).toEqual({
      token: 'x'.repeat(30),
      applicationId: '123456789012345678',
      apiUrl: null,
      guildIds: ['223456789012345678', '323456789012345678'],
    });
    // Without the list, anyone who adds the bot to a server would use the team's account.
    expect(() =>
      loadConfig({ DISCORD_TOKEN: 'x'.repeat(30), DISCORD_APPLICATION_ID: '123456789012345678' }),
    ).toThrow(/DISCORD_GUILD_IDS is invalid \(expected the ids of the Discord servers.*Copy Server ID/);
    expect(() =>
      loadConfig({
        DISCORD_TOKEN: 'x'.repeat(30),
        DISCORD_APPLICATION_ID: '123456789012345678',
        DISCORD_GUILD_IDS: 'my-server',
      }),
    ).toThrow(/DISCORD_GUILD_IDS is invalid/);
    expect(() => loadConfig({ DISCORD_TOKEN: 'x'.repeat(30) })).toThrow(/DISCORD_APPLICATION_ID/);
    expect(() => loadConfig({ PORT: '99999' })).toThrow(/PORT is invalid/);
  });

  it('runs many teams with OAuth and an encryption key, and names what is missing', () => {
    const env = {
      SCOUT_MULTI_TENANT: 'true',
      SCOUT_ENCRYPTION_KEY: 'k'.repeat(44),
      SLACK_CLIENT_ID: '123.456',
      SLACK_CLIENT_SECRET: 'client-secret-1',
      SLACK_STATE_SECRET: 'state-secret-0123456789',
      SLACK_SIGNING_SECRET: 'signing-secret-1',
      DISCORD_TOKEN: 'x'.repeat(30),
      DISCORD_APPLICATION_ID: '123456789012345678',
    };
    const config = loadConfig(env);
    expect(config.tenancy).toEqual({ kind: 'multi', encryptionKey: 'k'.repeat(44) });
    expect(config.service).toEqual({
      kind: 'tenant-keys',
      apiUrl: 'https://api.topyappers.com',
      mediaUrl: 'https://api.topyappers.com',
    });
    expect(config.slack).toMatchObject({
      botToken: null,
      oauth: { clientId: '123.456', clientSecret: 'client-secret-1', stateSecret: 'state-secret-0123456789' },
    });
    expect(config.discord?.guildIds).toEqual([]);
    expect(configSecrets(config)).toEqual(
      expect.arrayContaining(['client-secret-1', 'state-secret-0123456789', 'k'.repeat(44)]),
    );
    const { SCOUT_ENCRYPTION_KEY: _, ...noKey } = env;
    expect(() => loadConfig(noKey)).toThrow(/SCOUT_ENCRYPTION_KEY is invalid/);
    expect(() => loadConfig({ ...env, SCOUT_API_KEY: 'key-123456' })).toThrow(/SCOUT_API_KEY is invalid/);
    expect(() => loadConfig({ ...env, SLACK_BOT_TOKEN: 'xoxb-1' })).toThrow(/SLACK_BOT_TOKEN is invalid/);
    const { SLACK_STATE_SECRET: __, ...noState } = env;
    expect(() => loadConfig(noState)).toThrow(/SLACK_STATE_SECRET is invalid/);
    expect(() => loadConfig({ SLACK_CLIENT_ID: '123.456' })).toThrow(/SCOUT_MULTI_TENANT/);
    expect(() => loadConfig({ SCOUT_MULTI_TENANT: 'maybe' })).toThrow(/SCOUT_MULTI_TENANT is invalid/);
  });

  it('treats blank values as unset', () => {
    expect(loadConfig({ SCOUT_API_KEY: '  ', LOG_LEVEL: '' }).service.kind).toBe('embedded-sandbox');
  });

  it('names every malformed variable and says what is expected', () => {
    let error: unknown;
    try {
      loadConfig({ SCOUT_API_URL: 'ftp://nowhere', LOG_LEVEL: 'loud', SCOUT_API_KEY: 'short' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.map((p) => p.variable).sort();
    expect(problems).toEqual(['LOG_LEVEL', 'SCOUT_API_KEY', 'SCOUT_API_URL']);
    expect((error as ConfigError).message).toContain('LOG_LEVEL is invalid (expected one of fatal, error');
    expect((error as ConfigError).message).toContain('SCOUT_API_URL is invalid (expected an http(s) URL');
  });

  it('is kept in step with .env.example', () => {
    const example = readFileSync(new URL('../.env.example', import.meta.url), 'utf8');
    const listed = [...example.matchAll(/^([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]);
    expect(listed.sort()).toEqual([...ENV_VARIABLES].sort());
  });

  it('is the only reader of process.env in src/', async () => {
    const { readdirSync } = await import('node:fs');
    const root = new URL('../src/', import.meta.url);
    const offenders = (readdirSync(root, { recursive: true }) as string[])
      .filter((file) => file.endsWith('.ts') && file !== 'config.ts')
      .filter((file) => readFileSync(new URL(file, root), 'utf8').includes('process.env'));
    expect(offenders).toEqual([]);
  });
});

describe('loadSandboxConfig', () => {
  it('has defaults and converts seconds', () => {
    expect(loadSandboxConfig({})).toEqual({ port: 4010, replyIntervalMs: 30_000, remixDelayMs: 1500 });
    expect(loadSandboxConfig({ SANDBOX_PORT: '0', SANDBOX_REPLY_SECONDS: '2' })).toMatchObject({
      port: 0,
      replyIntervalMs: 2000,
    });
  });

  it('names a malformed variable', () => {
    expect(() => loadSandboxConfig({ SANDBOX_PORT: 'eighty' })).toThrow(
      /SANDBOX_PORT is invalid \(expected a port/,
    );
    expect(() => loadSandboxConfig({ SANDBOX_PORT: '70000' })).toThrow(/SANDBOX_PORT/);
    expect(() => loadSandboxConfig({ SANDBOX_REPLY_SECONDS: '-1' })).toThrow(/SANDBOX_REPLY_SECONDS/);
  });
});
