/**
 * `npm run discord:register [-- --guild ID]` (or node on its compiled file): registers `/scout` with Discord, globally
 * or in one guild, from the command declarations, then prints the link that adds the bot to a server (and, for one
 * team, which servers it serves). An entry point only, imported by nothing: what it does lives in the Discord
 * adapter's registration.ts.
 */
import { guildArgument, inviteText, registerCommands } from '../adapters/discord/registration.js';
import { FAMILIES } from '../commands/index.js';
import { loadConfig, loadDotEnv } from '../config.js';
import { catalogueOf } from '../core/chat/index.js';
import { createRegistry } from '../core/command/registry.js';
import { SetupError } from '../core/errors.js';

async function main(): Promise<void> {
  loadDotEnv();
  const config = loadConfig();
  if (config.discord === null)
    throw new SetupError('Set DISCORD_TOKEN and DISCORD_APPLICATION_ID to register commands.');
  const guild = guildArgument(process.argv.slice(2));
  const count = await registerCommands(config.discord, catalogueOf(createRegistry(FAMILIES)), guild);
  process.stdout.write(
    `Registered ${count} command(s) ${guild === null ? 'globally' : `in guild ${guild}`}.\n` +
      inviteText(config.discord, config.tenancy.kind === 'single'),
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
