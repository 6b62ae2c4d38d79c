/** What the Discord adapter is configured with (src/config.ts reads it from the environment). */

/** Discord settings. */
export interface DiscordConfig {
  token: string;
  applicationId: string;
  /** REST base (tests); the gateway address then comes from /gateway/bot. */
  apiUrl: string | null;
  /** Single-team mode: the only servers served; Scout leaves any other. Empty in many-team mode. */
  guildIds: string[];
}
