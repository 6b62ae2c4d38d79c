/**
 * The Slack app manifest (manifest.yml at the repository root), built from the command catalogue so the
 * `/scout` usage hint and description follow the commands. `npm run slack:manifest` (src/tools/slack-manifest.ts)
 * rewrites it; importing this module never writes anything.
 */
import { type Catalogue, SAY_IT } from '../../core/chat/index.js';

/** The bot scopes Scout needs, and why. */
export const BOT_SCOPES: Readonly<Record<string, string>> = {
  commands: 'the /scout slash command',
  'chat:write': 'posting results, digests and notifications',
  'chat:write.public': 'posting search results from a modal in public channels Scout has not joined',
  'channels:history': 'finding a notification or digest whose post was cut off, so it is not posted twice',
  'groups:history': 'the same in private channels',
  'users:read': 'reading whether a person is a workspace admin (credit caps)',
  'files:write': 'sharing exported files (a list as CSV) in the channel they were asked for in',
  'im:write': 'opening a direct message to send a person their budget alerts',
  'im:history':
    'reading the direct messages people send Scout (message.im), and finding a budget alert whose post was cut off',
  'app_mentions:read': 'reading the messages that mention @Scout in channels (app_mention)',
  'assistant:write': 'the Messages tab as an assistant: suggested prompts in a new assistant thread',
  'links:read': 'seeing creator profile links pasted in channels (link_shared)',
  'links:write': 'unfurling those links into creator cards',
};

/** What the assistant view (the Messages tab as an assistant) says of Scout. */
export const ASSISTANT_DESCRIPTION =
  'Ask in plain words or in /scout syntax: find creators, check your lists, see what you spent.';

/** The title of the suggested prompts of a new assistant thread. */
export const ASSISTANT_PROMPTS_TITLE = 'Try asking';

/** The suggested prompts of a new assistant thread, each sent as it reads (Slack shows at most four). */
export const ASSISTANT_PROMPTS: readonly string[] = SAY_IT;

/** The most unfurl domains a Slack app may register (https://docs.slack.dev/reference/app-manifest). */
export const UNFURL_DOMAINS_MAX = 5;

/**
 * The domains whose links Scout unfurls, of the profile links' domains (ChatCore's unfurls.domains): one per platform
 * the service searches, within Slack's limit (their www. and m. subdomains are matched too). twitter.com links are
 * not among them: x.com is what cards link to.
 */
export function unfurlDomains(profileDomains: readonly string[]): string[] {
  return profileDomains.slice(0, UNFURL_DOMAINS_MAX);
}

/** The scopes of BOT_SCOPES missing from `granted` (the scopes Slack lists with an answer); none when unknown. */
export function missingScopes(granted: readonly string[] | undefined): string[] {
  if (granted === undefined) return [];
  return Object.keys(BOT_SCOPES).filter((scope) => !granted.includes(scope));
}

/** Slack's limit on a slash command's usage hint. */
export const USAGE_HINT_MAX = 100;

/** The usage hint of `/scout`: the families, as many as fit. */
export function usageHint(catalogue: Catalogue): string {
  let hint = '';
  for (const family of catalogue.families) {
    const next = hint === '' ? `[${family.name}` : `${hint} | ${family.name}`;
    if (next.length + ' …]'.length > USAGE_HINT_MAX) return `${hint} …]`;
    hint = next;
  }
  return `${hint}] [options]`;
}

const q = (value: string) => JSON.stringify(value);

/** The manifest as YAML text, for the commands of `catalogue` and the profile links of `profileDomains`. */
export function manifestYaml(catalogue: Catalogue, profileDomains: readonly string[]): string {
  const scopes = Object.entries(BOT_SCOPES)
    .map(([scope, why]) => `      - ${scope} # ${why}`)
    .join('\n');
  return `# Slack app manifest for Scout: paste it into "Create an app from a manifest" at https://api.slack.com/apps.
# Generated from the command registry by \`npm run slack:manifest\`; a test keeps it in sync.
# Socket Mode is on, so no public URL is needed (set SLACK_APP_TOKEN, an app-level token with connections:write).
# For HTTP mode instead, set socket_mode_enabled to false and add
#   url: https://<your host>/slack/events
# to the slash command, interactivity (request_url) and event_subscriptions (request_url).
# For many teams (SCOUT_MULTI_TENANT=true, installed through OAuth), also add under oauth_config
#   redirect_urls:
#     - https://<your host>/slack/oauth_redirect
# turn on public distribution, and send admins to https://<your host>/slack/install.
# Slash commands are escaped (should_escape), so a mention reaches Scout with the person's user id.
# Creator profile links on the unfurl domains unfurl into creator cards (link_shared, links:read, links:write).
# People can also write to Scout in its Messages tab (message.im, im:history; an assistant view with suggested
# prompts, assistant_thread_started, assistant:write) and @mention it in channels (app_mention, app_mentions:read).
display_information:
  name: Scout
  description: ${q('Find creators, run outreach lists and watch viral content.')}
  long_description: ${q(
    'Scout finds social-media creators by niche, audience and engagement, keeps outreach lists with contact ' +
      'status, follows replies and surfaces viral posts, all through one command: /scout. Searches are free; ' +
      'creator profiles cost credits, shown before you spend them, with confirmations above a threshold and ' +
      'daily caps set by admins.',
  )}
  background_color: "#1f3a5f"
features:
  app_home:
    home_tab_enabled: true
    messages_tab_enabled: true
    messages_tab_read_only_enabled: false
  assistant_view:
    assistant_description: ${q(ASSISTANT_DESCRIPTION)}
    suggested_prompts:
${ASSISTANT_PROMPTS.map((prompt) => `      - title: ${q(prompt)}\n        message: ${q(prompt)}`).join('\n')}
  bot_user:
    display_name: Scout
    always_online: true
  slash_commands:
    - command: /scout
      description: ${q(`Creator discovery and outreach: ${catalogue.families.map((f) => f.name).join(', ')}`)}
      usage_hint: ${q(usageHint(catalogue))}
      should_escape: true
  unfurl_domains:
${unfurlDomains(profileDomains)
  .map((domain) => `    - ${domain}`)
  .join('\n')}
oauth_config:
  scopes:
    bot:
${scopes}
settings:
  event_subscriptions:
    bot_events:
      - app_home_opened
      - app_uninstalled
      - tokens_revoked
      - link_shared
      - message.im
      - app_mention
      - assistant_thread_started
  interactivity:
    is_enabled: true
  org_deploy_enabled: true
  socket_mode_enabled: true
  token_rotation_enabled: false
`;
}
