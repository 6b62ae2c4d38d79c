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
