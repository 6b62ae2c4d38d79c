/** Builds the chat port from the app's parts, given explicitly by the composition root (src/app.ts). */
import type { TenantRef } from '../tenancy/index.js';
import { catalogueOf } from './catalogue.js';
import { createCompletions } from './completions.js';
import { createFormDoor, opensForm } from './forms.js';
import { createHome } from './home.js';
import { createInstallationVault } from './installations.js';
import { createOperatorEndpoints } from './ops.js';
import type { ChatParts } from './parts.js';
import type { ChatCore } from './port.js';

export type { ChatParts, ProfileLinks } from './parts.js';

/** Creates the chat port. */
export function createChatCore(parts: ChatParts): ChatCore {
  const { dispatcher, registry, store, tenants, clock, settings, profileLinks } = parts;
  const { family, command, option } = profileLinks.command;
  const hasAccount = async (tenant: TenantRef) => (await tenants.access(tenant)).status === 'ok';
  return {
    text: (invocation) => dispatcher.text(invocation),
    options: (invocation) => dispatcher.options(invocation),
    action: (invocation) => dispatcher.action(invocation),
    // A line that opens a form where forms are shown is answered by its form, never in an acknowledgement.
    atOnce: (text, options) =>
      options?.forms === true && opensForm(parts, text) ? null : dispatcher.atOnce(text, options),
    working: (text, options) =>
      options?.forms === true && opensForm(parts, text) ? null : dispatcher.working(text),
    catalogue: catalogueOf(registry),
    forms: createFormDoor({ dispatcher, registry, store, tenants, clock, settings }),
    complete: createCompletions({ registry, tenants }),
    home: createHome({ store, tenants, clock, registry, settings, logger: parts.logger }),
    unfurls: {
      domains: profileLinks.domains,
      names: (url) => profileLinks.names(url),
      unfurls: hasAccount,
      answer: (invocation, url) =>
        dispatcher.options({ ...invocation, family, command, options: { [option]: url } }),
    },
    tenancy: {
      get mode() {
        return tenants.mode;
      },
      serve: (tenant) => tenants.serve(tenant),
      isServed: (tenant) => tenants.isServed(tenant),
      hasAccount,
      leave: (tenant) => tenants.leave(tenant),
      isScoutAdmin: (tenant, userId) => tenants.isScoutAdmin(tenant, userId),
    },
    metrics: { ack: (platform, kind, seconds) => parts.metrics.ack(platform, kind, seconds) },
    readiness: { add: (name, check) => parts.readiness.add(name, check) },
    secrets: {
      add(value) {
        parts.secrets.add(value);
      },
    },
    settings: {
      get workingNoticeMs() {
        return settings.workingNoticeMs;
      },
      get elementTtlMs() {
        return settings.elementTtlMs;
      },
    },
    clock,
    installations: parts.sealer === null ? null : createInstallationVault(store, parts.sealer),
    operator: createOperatorEndpoints(parts),
  };
}
