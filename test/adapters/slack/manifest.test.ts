/** manifest.yml is the manifest the registry produces, and it declares what the adapter relies on. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  ASSISTANT_PROMPTS,
  BOT_SCOPES,
  manifestYaml,
  UNFURL_DOMAINS_MAX,
  USAGE_HINT_MAX,
  unfurlDomains,
  usageHint,
} from '../../../src/adapters/slack/manifest.js';
import { PROFILE_LINK_DOMAINS } from '../../../src/commands/creators/profile-links.js';
import { FAMILIES } from '../../../src/commands/index.js';
import { catalogueOf } from '../../../src/core/chat/index.js';
import { createRegistry } from '../../../src/core/command/registry.js';

const catalogue = catalogueOf(createRegistry(FAMILIES));
const profileDomains = Object.values(PROFILE_LINK_DOMAINS);
const file = readFileSync(new URL('../../../manifest.yml', import.meta.url), 'utf8');

/** The value of `key:` on its own line (first occurrence after `after`), without YAML quoting. */
function value(key: string, after = ''): string | undefined {
  const from = after === '' ? file : file.slice(file.indexOf(after));
  const match = new RegExp(`^\\s*-?\\s*${key}: (.*)$`, 'm').exec(from);
  if (match === null) return undefined;
  const raw = (match[1] as string).trim();
  return raw.startsWith('"') ? (JSON.parse(raw) as string) : raw;
}

describe('manifest.yml', () => {
  it('is what the command registry produces (regenerate with npm run slack:manifest)', () => {
    expect(file).toBe(manifestYaml(catalogue, profileDomains));
  });

  it('declares /scout naming every family, with a usage hint within its limit', () => {
    expect(value('command')).toBe('/scout');
    const hint = value('usage_hint') ?? '';
    expect(hint).toBe(usageHint(catalogue));
    expect(hint.length).toBeLessThanOrEqual(USAGE_HINT_MAX);
    expect(hint.startsWith(`[${catalogue.families[0]?.name}`)).toBe(true);
    const description = value('description', 'slash_commands:') ?? '';
    for (const family of catalogue.families) expect(description).toContain(family.name);
  });

  it('enables Socket Mode, interactivity, the Home tab and the home event, with the minimal scopes', () => {
    expect(value('socket_mode_enabled')).toBe('true');
    expect(file).toMatch(/interactivity:\n\s+is_enabled: true/);
    expect(value('home_tab_enabled')).toBe('true');
    expect(file).toMatch(/bot_events:\n\s+- app_home_opened/);
    const scopes = [...file.matchAll(/^\s+- ([a-z_.:]+) #/gm)].map((m) => m[1]);
    expect(scopes).toEqual(Object.keys(BOT_SCOPES));
  });

  it('unfurls creator profile links: the event, both links scopes and at most Slack’s 5 domains', () => {
    expect(file).toMatch(/bot_events:\n(\s+- \S+\n)*\s+- link_shared\n/);
    expect(Object.keys(BOT_SCOPES)).toEqual(expect.arrayContaining(['links:read', 'links:write']));
    const domains = /unfurl_domains:\n((?:\s+- \S+\n)+)/.exec(file)?.[1] ?? '';
    const listed = [...domains.matchAll(/- (\S+)/g)].map((m) => m[1]);
    expect(listed).toEqual(unfurlDomains(profileDomains));
    expect(listed).toEqual(['tiktok.com', 'instagram.com', 'youtube.com', 'x.com', 'linkedin.com']);
    expect(listed.length).toBeLessThanOrEqual(UNFURL_DOMAINS_MAX);
  });

  it('hears direct messages, mentions and assistant threads: a writable Messages tab, their events and scopes', () => {
    expect(value('messages_tab_enabled')).toBe('true');
    expect(value('messages_tab_read_only_enabled')).toBe('false');
    const events = /bot_events:\n((?:\s+- \S+\n)+)/.exec(file)?.[1] ?? '';
    for (const event of ['message.im', 'app_mention', 'assistant_thread_started']) {
      expect(events).toContain(`- ${event}\n`);
    }
    expect(Object.keys(BOT_SCOPES)).toEqual(
      expect.arrayContaining(['app_mentions:read', 'im:history', 'chat:write', 'assistant:write']),
    );
    expect(file).toMatch(
      /assistant_view:\n\s+assistant_description: ".+"\n\s+suggested_prompts:\n\s+- title: /,
    );
    expect(value('title', 'suggested_prompts:')).toBe(ASSISTANT_PROMPTS[0]);
  });

  it('lets an Enterprise Grid org install Scout org-wide, as the README says it can', () => {
    expect(value('org_deploy_enabled')).toBe('true');
  });

  it('uses no tabs and even indentation, as YAML requires', () => {
    for (const line of file.split('\n')) {
      expect(line).not.toContain('\t');
      const indent = /^( *)/.exec(line)?.[1]?.length ?? 0;
      expect(indent % 2).toBe(0);
    }
  });
});
