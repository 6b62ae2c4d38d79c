/** Who counts as an admin on each platform, in the words a refusal uses. */
import type { Platform } from '../actor.js';
import { ScoutError } from '../errors.js';

/** The role an admin action needs, named the way the platform names it. */
export function adminRole(platform: Platform): string {
  switch (platform) {
    case 'slack':
      return 'a Slack workspace or org admin or owner, or a Scout admin (/scout admins)';
    case 'discord':
      return 'a member with Manage Server, or a Scout admin (/scout admins)';
    case 'terminal':
      return 'an admin';
  }
}

/** The answer to anyone outside the deployment's tenants: it names nothing of any team. */
export const OUTSIDE_MESSAGE = 'Scout is not available here.';

/** The person may not run this command. */
export class PermissionError extends ScoutError {
  override readonly name = 'PermissionError';
  readonly code = 'NOT_ALLOWED';
}
