/**
 * The options of the outreach family's lists (messages and contacted creators), under the contract's parameter
 * names, and the filters of a list as its header echoes them: by the names people type (`project`, `followUp`),
 * a project by its name, yes and no for a switch.
 */
import type { ParamSpec, ParamTable } from '../../core/command/params.js';
import { quoteValue } from '../../core/command/syntax.js';
import { shortName } from '../../core/command/usage.js';
import { MESSAGE_DIRECTIONS, MESSAGE_STATUSES } from '../../core/service/enums.js';
import { code, type Inline } from '../../core/ui/index.js';

/** Rows per chat page when the person gives no perPage (the service's own default, 50, is too long to read). */
export const DEFAULT_PER_PAGE = 10;

const text = (description: string, aliases: string[], example: string): ParamSpec => ({
  kind: 'text',
  description,
  aliases,
  example,
});

/** Filters shared by messages and contacted creators, under the contract's parameter names. */
export const CREATOR_FILTERS: ParamTable = {
  projectId: {
    kind: 'text',
    trailing: true,
    description: 'An agent project: its id, or its name.',
    aliases: ['project'],
    example: '65f0c2a1b3d4e5f6a7b8c9d0',
  },
  creatorEmail: text('Exact creator email, any case.', ['email'], 'ana@example.com'),
  creatorEmailContains: text(
    'Part of the creator email (ignored when an exact email is given).',
    ['emailContains', 'contains'],
    'gmail',
  ),
  creatorId: text('Creator id.', ['creator'], 'tiktok_12345'),
  page: { kind: 'integer', description: 'Page number (default 1).', example: '2', rank: 'paging' },
  perPage: {
    kind: 'integer',
    rank: 'paging',
    aliases: ['size', 'limit'],
    description: `Rows per page, 1-100 (default ${DEFAULT_PER_PAGE}).`,
    example: '20',
  },
};

/** The options of `outreach messages`: the creator filters and those of a message. */
export const MESSAGE_PARAMS: ParamTable = {
  ...CREATOR_FILTERS,
  threadId: text('Mail thread id.', ['thread'], '18c2f0a9b1d2e3f4'),
  mailboxAccountId: text(
    'Connected mailbox account id.',
    ['mailbox', 'gmailAccountId', 'gmail', 'account'],
    '65f0c2a1b3d4e5f6a7b8c9d1',
  ),
  direction: {
    kind: 'choice',
    values: MESSAGE_DIRECTIONS,
    aliases: ['dir'],
    synonyms: {
      replies: 'inbound',
      reply: 'inbound',
      received: 'inbound',
      incoming: 'inbound',
      sent: 'outbound',
      outgoing: 'outbound',
    },
    description: 'all (default), outbound (sent by the agent) or inbound (creator replies).',
  },
  status: {
    kind: 'text',
    known: MESSAGE_STATUSES,
    description: `Stored message status, one word: ${MESSAGE_STATUSES.join(', ')} or another the service uses.`,
    example: MESSAGE_STATUSES.join('|'),
  },
  isFollowUp: {
    kind: 'boolean',
    aliases: ['followUp', 'followUps'],
    description: 'Only follow-ups (yes) or only first messages and replies (no).',
  },
};

/** One filter's value as people type it: a project by its name, yes or no. */
function typedValue(key: string, value: unknown, projectName: (id: string) => string): string {
  if (key === 'projectId' && typeof value === 'string') return projectName(value);
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  return String(value);
}

/**
 * The filters of a list, for its header: ` · project:"Spring Launch outreach" followUp:no`, each option by the
 * name people type it by; paging is left out.
 */
export function filterSummary(
  filters: Readonly<Record<string, unknown>>,
  projectName: (id: string) => string,
): Inline[] {
  const shown = Object.entries(filters).filter(
    ([key, value]) => value !== undefined && key !== 'page' && key !== 'perPage',
  );
  if (shown.length === 0) return [];
  return [
    ' · ',
    ...shown.flatMap(([key, value], i) => {
      const spec = MESSAGE_PARAMS[key];
      const name = spec === undefined ? key : shortName(key, spec);
      return [i === 0 ? '' : ' ', code(`${name}:${quoteValue(typedValue(key, value, projectName))}`)];
    }),
  ];
}
