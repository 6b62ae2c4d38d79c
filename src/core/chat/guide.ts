/**
 * What Scout says of its commands outside any reply: the getting-started sentences and hints of a home view, and
 * the answer to a command a platform still lists but Scout no longer has. Adapters show these and never name a
 * command themselves. Each command line is a part of its own, which a platform may show as code, and is read
 * through the registry when the guide is built: a command renamed with its old name kept as an alias shows by its
 * new name, and a sentence naming a command the registry does not have is left out.
 */
import { resolveText } from '../command/routing.js';
import { tokenText } from '../command/syntax.js';
import { tokenize } from '../command/tokenize.js';
import type { CommandRegistry } from '../command/types.js';

/** A piece of a sentence: words, or a command line as people type it (`/scout credits`). */
export type GuidePart = { readonly text: string } | { readonly command: string };

/** A sentence of words and command lines. */
export type GuideText = readonly GuidePart[];

/** The home's sentences about commands. */
export interface HomeGuide {
  /** Getting started: what to type first, a sentence each. */
  readonly start: readonly GuideText[];
  /** Follows the team's spend: where to read it by person; empty when there is no command for it. */
  readonly teamSpend: GuideText;
  /** Stands for the workspace's channel subscriptions while it has none. */
  readonly noSubscriptions: GuideText;
  /** Stands for the team balance while no service account is connected. */
  readonly notConnected: GuideText;
}

/**
 * Three requests in plain words that Scout reads as commands, shown wherever people are told they may just say what
 * they want: help's first line, Slack's suggested prompts of a new assistant thread.
 */
export const SAY_IT = [
  'Find fitness creators in France with over 10k followers',
  'Show our lists',
  'How much have I spent this month?',
] as const;

/** Answers a command a platform still lists (a registration older than the deployment) that Scout does not have. */
export const UNKNOWN_COMMAND = 'Unknown command: run /scout help show.';

/** Where help lists every option of one command (`/scout help creators search options`). */
export const helpLineOf = (family: string, command: string) => `/scout help ${family} ${command} options`;

/** A sentence as written here: words, and command lines (`{ run: 'credits' }`) read through the registry. */
type Draft = readonly (string | { readonly run: string })[];

const run = (line: string) => ({ run: line });

const START: readonly Draft[] = [
  [
    run('creators'),
    ' opens a search form; ',
    run('creators niche:yoga followers:10k-100k'),
    ' searches at once.',
  ],
  [run('viral'), ' finds viral posts; ', run('lists'), ' shows your team’s CRM lists.'],
  [run('credits'), ' shows spend in detail; ', run('help'), ' lists every command.'],
];

/** Each hint, and what it says instead when the registry lacks a command it names. */
const HINTS: Readonly<Record<Exclude<keyof HomeGuide, 'start'>, { says: Draft; otherwise: Draft }>> = {
  teamSpend: { says: [run('credits'), ' for the numbers by person'], otherwise: [] },
  noSubscriptions: {
    says: ['No channel subscriptions yet: ', run('notify'), ' or ', run('digest'), ' in a channel.'],
    otherwise: ['No channel subscriptions yet.'],
  },
  notConnected: {
    says: ['no account connected: an admin runs ', run('connect key')],
    otherwise: ['no account connected'],
  },
};

/**
 * `line` (`creators niche:yoga`) with `/scout` and the names the registry gives its command now, its options as
 * written; null when it names no command of the registry.
 */
function commandLineIn(registry: CommandRegistry, line: string): string | null {
  try {
    const { def, tokens } = resolveText(registry, line);
    // The words before the options: the family alone (its default command), or the family and the command.
    const words = tokenize(line).length - tokens.length;
    if (words < 1) return null;
    return ['/scout', def.family, ...(words === 2 ? [def.name] : []), ...tokens.map(tokenText)].join(' ');
  } catch {
    return null;
  }
}

/** A sentence with its command lines read through the registry; null when one names no command of it. */
function written(registry: CommandRegistry, draft: Draft): GuideText | null {
  const parts: GuidePart[] = [];
  for (const piece of draft) {
    if (typeof piece === 'string') {
      parts.push({ text: piece });
      continue;
    }
    const command = commandLineIn(registry, piece.run);
    if (command === null) return null;
    parts.push({ command });
  }
  return parts;
}

/** The home's sentences about the commands of `registry`. */
export function homeGuide(registry: CommandRegistry): HomeGuide {
  const hint = ({ says, otherwise }: { says: Draft; otherwise: Draft }) =>
    written(registry, says) ?? (written(registry, otherwise) as GuideText);
  return {
    start: START.map((draft) => written(registry, draft)).filter((text) => text !== null),
    teamSpend: hint(HINTS.teamSpend),
    noSubscriptions: hint(HINTS.noSubscriptions),
    notConnected: hint(HINTS.notConnected),
  };
}
