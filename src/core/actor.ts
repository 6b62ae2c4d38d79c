/** Who is acting: the chat platform, the workspace (Slack team, Discord guild) and the person. */

/** The chat surfaces Scout runs on. */
export type Platform = 'slack' | 'discord' | 'terminal';

/** The person behind a command or a button press. */
export interface Actor {
  platform: Platform;
  /** Slack team id, Discord guild id, or `local` in the terminal. */
  workspaceId: string;
  userId: string;
  /** Display name, for messages only. */
  userName?: string;
  /** Workspace admins may set credit caps; the adapter decides from the platform's own roles. */
  isAdmin: boolean;
}

/** A stable text key for a person, for maps and idempotency keys. */
export function actorKey(actor: Pick<Actor, 'platform' | 'workspaceId' | 'userId'>): string {
  return `${actor.platform}:${actor.workspaceId}:${actor.userId}`;
}

/** What a person's id looks like on each platform when typed bare (mentions carry the id themselves). */
const BARE_ID: Readonly<Record<Platform, RegExp>> = {
  slack: /^[UW][A-Z0-9]{2,20}$/,
  discord: /^\d{17,20}$/,
  terminal: /^[\w.-]{1,64}$/,
};

/** A user id as each platform writes it, for answers that show how to name a person. */
export const USER_ID_EXAMPLE: Readonly<Record<Platform, string>> = {
  slack: 'U012AB3CDE',
  discord: '80351110224678912',
  terminal: 'ana',
};

/**
 * The user id of a person typed in chat: a mention (`<@U123>`, `<@U123|ana>` from Slack, `<@123>` or `<@!123>` from
 * Discord) or a bare user id of the platform. Null for anything else, roles and @everyone included.
 */
export function personOf(who: string, platform: Platform): string | null {
  const text = who.trim();
  const mention = /^<@!?([A-Za-z0-9]{2,32})(?:\|[^>]{0,80})?>$/.exec(text);
  if (mention !== null) return mention[1] ?? null;
  // In the terminal people are plain names: `@ana` is ana; `@here`, `@channel` and `@everyone` are nobody.
  if (/^@(here|channel|everyone)$/i.test(text)) return null;
  const bare = platform === 'terminal' ? text.replace(/^@/, '') : text;
  return BARE_ID[platform].test(bare) ? bare : null;
}
