/**
 * `npm run slack:manifest` (or node on its compiled file): rewrites manifest.yml at the repository root from the
 * command registry. An entry point only, imported by nothing: the manifest itself is built in manifest.ts, which the
 * bot imports without side effects.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { FAMILIES } from '../../commands/index.js';
import { createRegistry } from '../../core/command/registry.js';
import { manifestYaml } from './manifest.js';

// From src/adapters/slack or dist/adapters/slack alike, the repository root is three folders up.
writeFileSync(
  fileURLToPath(new URL('../../../manifest.yml', import.meta.url)),
  manifestYaml(createRegistry(FAMILIES)),
);
