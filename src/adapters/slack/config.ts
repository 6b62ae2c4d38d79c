/** What the Slack adapter is configured with (src/config.ts reads it from the environment). */

/** Slack app credentials for distribution through OAuth (many-team mode). */
export interface SlackOAuthConfig {
  clientId: string;
  clientSecret: string;
  stateSecret: string;
}

/** Slack settings: Socket Mode with an app token, else HTTP mode on `port`. */
export interface SlackConfig {
  /** The one workspace's bot token (single-team mode); null with OAuth. */
  botToken: string | null;
  /** OAuth installation (many-team mode); null with a bot token. */
  oauth: SlackOAuthConfig | null;
  /** Required in HTTP mode, where every request is verified with it. */
  signingSecret: string | null;
  /** Socket Mode when set. */
  appToken: string | null;
  /** Web API base (GovSlack, tests); Slack's default when null. */
  apiUrl: string | null;
  port: number;
}
