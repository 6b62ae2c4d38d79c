/**
 * What Scout says of its commands outside any reply (the home's getting started and hints, the answer to a command
 * Scout no longer has): every command line it quotes is a command of the registry, typed as it accepts it, and
 * follows the registry when a command is renamed or missing.
 */
import { describe, expect, it } from 'vitest';
import { FAMILIES } from '../../../src/commands/index.js';
import { homeGuide } from '../../../src/core/chat/guide.js';
import { type GuideText, type HomeGuide, helpLineOf, UNKNOWN_COMMAND } from '../../../src/core/chat/index.js';
import { bindTokens } from '../../../src/core/command/bind.js';
import { createRegistry } from '../../../src/core/command/registry.js';
import { validInput } from '../../../src/core/command/resolve-options.js';
import { resolveText } from '../../../src/core/command/routing.js';
import type { CommandFamily } from '../../../src/core/command/types.js';

const registry = createRegistry(FAMILIES);
const family = (name: string) => FAMILIES.find((f) => f.name === name) as CommandFamily;

const sentences = (guide: HomeGuide): GuideText[] => [
  ...guide.start,
  guide.teamSpend,
  guide.noSubscriptions,
  guide.notConnected,
];
const commandsOf = (text: GuideText) => text.flatMap((part) => ('command' in part ? [part.command] : []));
const words = (text: GuideText) =>
  text.map((part) => ('command' in part ? `[${part.command}]` : part.text)).join('');

/**
 * The command a quoted line runs, after checking the options it gives as the dispatcher does (one that gives none
 * may lack a required one: it opens the command's form).
 */
function commandRun(line: string): string {
  const { def, tokens } = resolveText(registry, line);
  const optional = Object.fromEntries(
    Object.entries(def.params).map(([name, spec]) => [name, { ...spec, required: false }]),
  );
  const raw = bindTokens(optional, tokens);
  if (tokens.length > 0) validInput(def, raw);
  return `${def.family} ${def.name}`;
}

describe('the guide', () => {
  it('quotes commands of the registry, each typed as it accepts it', () => {
    const guide = homeGuide(registry);
    expect(guide.start.map(words)).toEqual([
      '[/scout creators] opens a search form; [/scout creators niche:yoga followers:10k-100k] searches at once.',
      '[/scout viral] finds viral posts; [/scout lists] shows your team’s CRM lists.',
      '[/scout credits] shows spend in detail; [/scout help] lists every command.',
    ]);
    expect(words(guide.teamSpend)).toBe('[/scout credits] for the numbers by person');
    expect(words(guide.noSubscriptions)).toBe(
      'No channel subscriptions yet: [/scout notify] or [/scout digest] in a channel.',
    );
    expect(words(guide.notConnected)).toBe('no account connected: an admin runs [/scout connect key]');
    expect(() => commandRun('/scout creators nich:yoga')).toThrow('nich');
    expect(sentences(guide).flatMap(commandsOf).map(commandRun)).toEqual([
      'creators search',
      'creators search',
      'viral search',
      'lists show',
      'credits show',
      'help show',
      'credits show',
      'notify on',
      'digest add',
      'connect key',
    ]);
  });

  it('names a renamed command by its new name, and leaves out what names a command the registry lacks', () => {
    const renamed = createRegistry([
      ...FAMILIES.filter((f) => !['credits', 'notify', 'creators'].includes(f.name)),
      {
        ...family('credits'),
        name: 'spend',
        aliases: ['credits'],
        commands: family('credits').commands.map((c) => ({ ...c, family: 'spend' })),
      },
    ]);
    const guide = homeGuide(renamed);
    expect(guide.start.map(words)).toEqual([
      '[/scout viral] finds viral posts; [/scout lists] shows your team’s CRM lists.',
      '[/scout spend] shows spend in detail; [/scout help] lists every command.',
    ]);
    expect(words(guide.teamSpend)).toBe('[/scout spend] for the numbers by person');
    expect(words(guide.noSubscriptions)).toBe('No channel subscriptions yet.');
    const bare = homeGuide(createRegistry([family('help')]));
    expect(bare.start.map(words)).toEqual([]);
    expect(bare.teamSpend).toEqual([]);
    expect(words(bare.notConnected)).toBe('no account connected');
  });

  it('points at help lines that run help', () => {
    const [quoted] = UNKNOWN_COMMAND.match(/\/scout [^.]*/) ?? [];
    expect(commandRun(quoted as string)).toBe('help show');
    const line = helpLineOf('creators', 'search');
    expect(commandRun(line)).toBe('help show');
    expect(resolveText(registry, line).tokens.map((t) => t.value)).toEqual(['creators', 'search', 'options']);
  });
});
