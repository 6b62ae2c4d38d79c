/**
 * Single-team mode's start: whose the bot token is (auth.test), which must be known before a request is served,
 * and which scopes the installed app lacks.
 */
import type { webApi } from '@slack/bolt';
import { ScoutError } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import { WebClient } from './bolt.js';
import { BOT_SCOPES, missingScopes } from './manifest.js';
import type { ClientOptions } from './oauth.js';

/** Thrown by start() when Slack does not confirm the bot token: Scout then serves nobody. */
export class SlackStartError extends ScoutError {
  override readonly name = 'SlackStartError';
  readonly code = 'SLACK_AUTH_FAILED';
}

/** auth.test at start is retried a little, each attempt bounded, then start fails: no minutes of silent waiting. */
const START_RETRIES = { retries: 2, factor: 2, minTimeout: 500, maxTimeout: 2000 };
const START_TIMEOUT_MS = 10_000;

/** What auth.test says about the bot token. */
export interface BotIdentity {
  /** The tenant: the org of an org-wide install, else the workspace. */
  workspaceId: string;
  botId: string | undefined;
  botUserId: string | undefined;
  scopes: string[] | undefined;
}

/** Asks Slack whose the bot token is; throws SlackStartError when Slack does not say. */
export async function identify(token: string, clientOptions: ClientOptions): Promise<BotIdentity> {
  const client = new WebClient(token, {
    ...clientOptions,
    retryConfig: START_RETRIES,
    timeout: START_TIMEOUT_MS,
  });
  let auth: webApi.AuthTestResponse;
  try {
    auth = await client.auth.test();
  } catch (error) {
    const reason = (error as { data?: { error?: string } }).data?.error ?? (error as Error).message;
    throw new SlackStartError(
      `Slack did not confirm SLACK_BOT_TOKEN (auth.test: ${reason}): check the token and that Slack is reachable, then start again.`,
      { cause: error },
    );
  }
  const workspaceId = auth.is_enterprise_install === true ? auth.enterprise_id : auth.team_id;
  if (workspaceId === undefined || workspaceId === '') {
    throw new SlackStartError('Slack’s auth.test named no workspace for SLACK_BOT_TOKEN: check the token.');
  }
  return { workspaceId, botId: auth.bot_id, botUserId: auth.user_id, scopes: auth.response_metadata?.scopes };
}

/**
 * Says at start which scopes the installed app lacks: an install made from an older manifest works, but
 * without the history scopes a notification cut off by a restart cannot be looked up and may be posted twice.
 */
export function warnOfMissingScopes(granted: string[] | undefined, logger: Logger): void {
  const missing = missingScopes(granted);
  if (missing.length === 0) return;
  logger.warn(
    { missing: missing.map((scope) => `${scope} (${BOT_SCOPES[scope]})`) },
    'The Slack app lacks scopes Scout uses: update it from manifest.yml and reinstall it.',
  );
}

/** Bolt's App options for a known bot token: with the ids auth.test gave, Bolt makes no auth.test of its own. */
export function tokenAuth(token: string, identity: BotIdentity) {
  return {
    token,
    ...(identity.botId === undefined ? {} : { botId: identity.botId }),
    ...(identity.botUserId === undefined ? {} : { botUserId: identity.botUserId }),
  };
}
