/**
 * Bolt listeners: `/scout` (command.ts), element presses (presses.ts), the modals' submissions (views.ts), the
 * App Home, link unfurls, direct messages and mentions (conversations.ts) and, in many-team mode, leaving. Every listener acknowledges before any service call, refuses anyone outside the deployment's
 * tenants before anything else (before a modal opens; in an org-wide install, anyone Slack does not name a person
 * of the org), and answers through the response_url or the Web API afterwards. A modal's submission is checked
 * before its acknowledgement, so that a wrong value is shown on its input (response_action: errors): that check
 * reads the form's stored state, and nothing else is done first. What they share is built once (listener-kit.ts).
 */
import type { App as BoltApp } from '@slack/bolt';
import { registerCommand } from './command.js';
import { registerConversations } from './conversations.js';
import { registerHome } from './home.js';
import { createListenerKit, type ListenerDeps } from './listener-kit.js';
import { registerPresses } from './presses.js';
import { registerLeaving } from './tenancy.js';
import { registerUnfurls } from './unfurls.js';
import { registerViews } from './views.js';

/** What the listeners need (declared with their kit). */
export type { ListenerDeps } from './listener-kit.js';

/** Registers every listener on the Bolt app. */
export function registerListeners(bolt: BoltApp, deps: ListenerDeps): void {
  const kit = createListenerKit(deps);
  const { chat, logger, people } = kit;
  registerCommand(bolt, kit);
  registerPresses(bolt, kit);
  registerViews(bolt, kit);
  registerHome(bolt, { chat, logger, people });
  registerLeaving(bolt, { tenancy: chat.tenancy, installations: deps.installations, logger });
  registerUnfurls(bolt, { unfurls: chat.unfurls, logger, people });
  registerConversations(bolt, { chat, logger, people });
}
