/**
 * `npm run slack:manifest` (or node on its compiled file): rewrites manifest.yml at the repository root from the
 * command declarations and the creator profile links Scout unfurls. An entry point only, imported by nothing: the
 * manifest itself is built in the Slack adapter's manifest.ts, which the bot imports without side effects.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { manifestYaml } from '../adapters/slack/manifest.js';
import { PROFILE_LINK_DOMAINS } from '../commands/creators/profile-links.js';
import { FAMILIES } from '../commands/index.js';
import { catalogueOf } from '../core/chat/index.js';
import { createRegistry } from '../core/command/registry.js';

// From src/tools or dist/tools alike, the repository root is two folders up.
writeFileSync(
  fileURLToPath(new URL('../../manifest.yml', import.meta.url)),
  manifestYaml(catalogueOf(createRegistry(FAMILIES)), Object.values(PROFILE_LINK_DOMAINS)),
);
