/**
 * Commands typed on Discord in tests of command families: a sandbox, the fake Discord and one bot (the real
 * discord.js client), and `/scout <group> <sub>` run through the gateway with what the service received for it.
 */
import { afterAll, beforeAll } from 'vitest';
import type { SandboxRequestLog } from '../../src/sandbox/index.js';
import { answered, type Bot, createWorld, KEY, slash, type World } from '../adapters/discord/harness.js';

/** A bot on the fake Discord, started before the enclosing tests and stopped after them. */
export interface DiscordBot {
  readonly world: World;
  readonly bot: Bot;
  /** Runs a command with its options; the first answer (an edit or a follow-up) as JSON, and the service requests. */
  run(
    group: string,
    sub: string,
    options: ReadonlyArray<Record<string, unknown>>,
  ): Promise<{ answer: string; sent: SandboxRequestLog[] }>;
}

/** Starts a bot for the enclosing `describe` (its hooks are registered here). */
export function discordBot(): DiscordBot {
  let world: World | undefined;
  let bot: Bot | undefined;
  beforeAll(async () => {
    world = await createWorld();
    bot = await world.startBot({ databasePath: ':memory:' });
  });
  afterAll(async () => {
    await world?.stop();
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('The Discord bot starts in beforeAll.');
    return value;
  };
  return {
    get world() {
      return started(world);
    },
    get bot() {
      return started(bot);
    },
    async run(group, sub, options) {
      const { fake, sandbox } = started(world);
      const before = sandbox.requests(KEY).length;
      const call = slash(fake, group, sub, [...options]);
      const answer = await fake.waitFor(answered(call.token), `the answer to ${group} ${sub}`);
      return { answer: JSON.stringify(answer.body), sent: sandbox.requests(KEY).slice(before) };
    },
  };
}
