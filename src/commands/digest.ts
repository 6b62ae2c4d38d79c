/**
 * `/scout digest`: a daily post of the top viral posts matching the viral filters, at a local time in an IANA
 * time zone; list, remove and preview. The filters and their option table are those of `/scout viral`.
 */
import { z } from 'zod';
import { CommandInputError } from '../core/command/errors.js';
import type { ParamTable } from '../core/command/params.js';
import type { CommandContext, CommandDef } from '../core/command/types.js';
import { defineCommand, defineFamily } from '../core/command/types.js';
import {
  canonicalTimeZone,
  chooseDigestPosts,
  DIGEST_TOP_DEFAULT,
  DIGEST_TOP_MAX,
  digestReply,
  localDayOf,
  parseLocalTime,
  poolSize,
  zonedInstant,
} from '../core/jobs/index.js';
import { addDays } from '../core/jobs/time-zone.js';
import type { Digest } from '../core/store/digests.js';
import { adminRole, PermissionError } from '../core/tenancy/index.js';
import { bold, code, type Inline, mention, notice, type Reply, reply, text } from '../core/ui/index.js';
import { resolveRelativeDate, viralFamily } from './viral.js';

const viralSearch = viralFamily.commands.find((c) => c.name === 'search') as CommandDef<unknown>;

/** The viral filters without paging: a digest always reads one ranked pool. */
const FILTER_PARAMS: ParamTable = Object.fromEntries(
  Object.entries(viralSearch.params).filter(([name]) => name !== 'page' && name !== 'pageSize'),
);

const TOP_PARAM: ParamTable = {
  top: {
    kind: 'integer',
    aliases: ['n', 'count'],
    description: `Posts per digest, 1-${DIGEST_TOP_MAX} (default ${DIGEST_TOP_DEFAULT}), ranked by virality score.`,
    example: '5',
  },
};

const ADD_PARAMS: ParamTable = {
  localTime: {
    kind: 'text',
    positional: true,
    required: true,
    aliases: ['time', 'at'],
    description: 'Local time of the daily post, HH:MM (24-hour).',
    example: '09:00',
  },
  timeZone: {
    kind: 'text',
    positional: true,
    aliases: ['tz', 'zone'],
    description: 'IANA time zone, e.g. Europe/Paris (default UTC).',
    example: 'Europe/Paris',
  },
  ...TOP_PARAM,
  ...FILTER_PARAMS,
};

const MY_FIELDS = new Set(['localTime', 'timeZone', 'top']);

/** Validated filters of a digest, as typed (relative dates still relative). */
type Filters = Record<string, unknown>;

const topSchema = z
  .number()
  .int()
  .min(1, 'must be at least 1')
  .max(DIGEST_TOP_MAX, `must be at most ${DIGEST_TOP_MAX}`)
  .optional();

/** Splits the raw input into the digest's own fields and the viral filters, validating the filters with viral's schema. */
function filtersOf(raw: Record<string, unknown>, ctx: z.RefinementCtx): Filters {
  const filters: Filters = {};
  for (const [key, value] of Object.entries(raw)) if (!MY_FIELDS.has(key)) filters[key] = value;
  const checked = viralSearch.schema.safeParse(filters);
  if (!checked.success) {
    for (const issue of checked.error.issues) ctx.addIssue({ ...issue, code: 'custom' });
    return filters;
  }
  return checked.data as Filters;
}

const addInput = z.record(z.string(), z.unknown()).transform((raw, ctx) => {
  const localTime = typeof raw.localTime === 'string' ? parseLocalTime(raw.localTime) : null;
  if (localTime === null) {
    ctx.addIssue({
      code: 'custom',
      path: ['localTime'],
      message: 'must be a 24-hour time HH:MM, e.g. 09:00',
    });
  }
  const zoneText = typeof raw.timeZone === 'string' ? raw.timeZone : 'UTC';
  const timeZone = canonicalTimeZone(zoneText);
  if (timeZone === null) {
    ctx.addIssue({
      code: 'custom',
      path: ['timeZone'],
      message: `"${zoneText}" is not an IANA time zone such as Europe/Paris, America/New_York or UTC`,
    });
  }
  const top = topSchema.safeParse(raw.top);
  if (!top.success)
    for (const issue of top.error.issues) ctx.addIssue({ ...issue, code: 'custom', path: ['top'] });
  const filters = filtersOf(raw, ctx);
  return {
    localTime: localTime ?? '00:00',
    timeZone: timeZone ?? 'UTC',
    top: (top.success ? top.data : undefined) ?? DIGEST_TOP_DEFAULT,
    filters,
  };
});

const previewInput = z.record(z.string(), z.unknown()).transform((raw, ctx) => {
  const top = topSchema.safeParse(raw.top);
  if (!top.success)
    for (const issue of top.error.issues) ctx.addIssue({ ...issue, code: 'custom', path: ['top'] });
  return { top: (top.success ? top.data : undefined) ?? DIGEST_TOP_DEFAULT, filters: filtersOf(raw, ctx) };
});

const DAY_MS = 86_400_000;

/**
 * Stores relative dates as a number of days (`7d`), resolved against each digest's own day; absolute dates and
 * every other filter are kept as given.
 */
function storedFilters(filters: Filters, now: Date): Filters {
  const out: Filters = {};
  const today = now.toISOString().slice(0, 10);
  for (const [key, value] of Object.entries(filters)) {
    if (value === undefined) continue;
    if ((key === 'dateCreatedFrom' || key === 'dateCreatedTo') && typeof value === 'string') {
      const resolved = resolveRelativeDate(value, now);
      const relative = resolved !== value.trim();
      out[key] = relative
        ? `${Math.round((Date.parse(today) - Date.parse(resolved)) / DAY_MS)}d`
        : value.trim();
      continue;
    }
    out[key] = value;
  }
  return out;
}

function filterText(filters: Filters): Inline[] {
  const entries = Object.entries(filters);
  if (entries.length === 0) return ['all viral posts'];
  return entries.flatMap(([key, value], i) => [
    i === 0 ? '' : ' ',
    code(`${key}:${Array.isArray(value) ? value.join(',') : String(value)}`),
  ]);
}

/** The next instant the digest posts at, after `now`. */
function nextRun(digest: Pick<Digest, 'localTime' | 'timeZone'>, now: Date): Date {
  const today = localDayOf(now, digest.timeZone);
  const at = zonedInstant(today, digest.localTime, digest.timeZone);
  return at > now ? at : zonedInstant(addDays(today, 1), digest.localTime, digest.timeZone);
}

const utc = (at: Date) => `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/** Daily digests one person may have in a workspace, and one channel may get: each spends credits every day. */
export const DIGESTS_PER_PERSON = 5;
export const DIGESTS_PER_CHANNEL = 10;

async function add(ctx: CommandContext, input: z.output<typeof addInput>): Promise<Reply> {
  const now = ctx.clock.now();
  const digest = await countAndCreate(ctx, input, now);
  return reply(
    [
      notice('success', [
        'Digest ',
        bold(`#${digest.id}`),
        ` scheduled: every day at ${digest.localTime} ${digest.timeZone}, the top ${digest.top} viral posts by virality in this channel.`,
      ]),
      text('Filters: ', ...filterText(digest.filters)),
      text(
        `First post: ${utc(nextRun(digest, now))}. Each costs up to ${poolSize(digest.top)} credits, charged to you. Remove it with `,
        code(`/scout digest remove ${digest.id}`),
        '.',
      ),
    ],
    { visibility: 'channel' },
  );
}

/**
 * Creates the digest within the limits per person and per channel, counted in the same step (digests added at the
 * same moment, on any replica, cannot pass the limits together).
 */
async function countAndCreate(
  ctx: CommandContext,
  input: z.output<typeof addInput>,
  now: Date,
): Promise<Digest> {
  const created = await ctx.store.digests.createWithin(
    {
      platform: ctx.actor.platform,
      workspaceId: ctx.actor.workspaceId,
      channelId: ctx.channelId,
      createdBy: ctx.actor.userId,
      localTime: input.localTime,
      timeZone: input.timeZone,
      filters: storedFilters(input.filters, now),
      top: input.top,
      createdAt: now,
    },
    { perPerson: DIGESTS_PER_PERSON, perChannel: DIGESTS_PER_CHANNEL },
  );
  if (created === 'person-full') {
    throw new CommandInputError(
      `You already have ${DIGESTS_PER_PERSON} daily digests here, the most one person may have: remove one first (/scout digest list).`,
    );
  }
  if (created === 'channel-full') {
    throw new CommandInputError(
      `This channel already gets ${DIGESTS_PER_CHANNEL} daily digests, the most a channel may have: remove one first (/scout digest list).`,
    );
  }
  return created;
}

async function list(ctx: CommandContext): Promise<Reply> {
  const digests = await ctx.store.digests.list(ctx.actor);
  if (digests.length === 0) {
    return reply([
      notice('info', [
        'No digest is scheduled in this workspace. Add one with ',
        code('/scout digest 09:00 Europe/Paris categories:Food'),
        '.',
      ]),
    ]);
  }
  const now = ctx.clock.now();
  return reply([
    text(bold('Daily viral digests'), ` · ${digests.length} in this workspace`),
    ...digests.map((d) =>
      text(
        bold(`#${d.id}`),
        ` · ${d.localTime} ${d.timeZone} · #${d.channelId}${d.channelId === ctx.channelId ? ' (this channel)' : ''} · top ${d.top} · by `,
        mention(d.createdBy),
        ` · next ${utc(nextRun(d, now))}\n`,
        ...filterText(d.filters),
      ),
    ),
  ]);
}

async function remove(ctx: CommandContext, id: number): Promise<Reply> {
  const digest = await ctx.store.digests.get(id);
  const ours =
    digest !== null && digest.platform === ctx.actor.platform && digest.workspaceId === ctx.actor.workspaceId;
  if (ours && digest.removedAt === null && digest.createdBy !== ctx.actor.userId && !ctx.actor.isAdmin) {
    throw new PermissionError(
      `Digest #${id} is someone else's: removing it needs ${adminRole(ctx.actor.platform)}.`,
    );
  }
  const removed = await ctx.store.digests.remove(ctx.actor, id, ctx.clock.now());
  return removed
    ? reply([notice('success', `Digest #${id} removed: it will not post again.`)], { visibility: 'channel' })
    : reply([
        notice('warning', [
          'There is no digest #',
          String(id),
          ' in this workspace. See ',
          code('/scout digest list'),
          '.',
        ]),
      ]);
}

async function preview(ctx: CommandContext, input: z.output<typeof previewInput>): Promise<Reply> {
  const now = ctx.clock.now();
  const filters = storedFilters(input.filters, now);
  const localDay = localDayOf(now, 'UTC');
  const posts = await chooseDigestPosts(ctx.service, { filters, top: input.top, localDay }, () => new Set());
  return digestReply(
    { id: null, localDay, localTime: null, timeZone: null, filters },
    posts,
    posts.length === 0 ? 'No viral posts match these filters.' : null,
  );
}

/** The digest family. */
export const digestFamily = defineFamily({
  name: 'digest',
  aliases: ['digests'],
  description: 'Daily posts of the top viral posts matching the viral filters, at a local time.',
  defaultCommand: 'add',
  commands: [
    defineCommand({
      name: 'add',
      description: 'Schedule a daily digest here: <HH:MM> [IANA time zone] <viral filters> [top:N].',
      params: ADD_PARAMS,
      schema: addInput,
      examples: [
        'digest 09:00 Europe/Paris categories:Food',
        'digest 18:30 America/New_York country:"United States" virality:>0.5 top:10',
        'digest add 08:00 format:tutorial since:2d',
      ],
      cost: `free now; each day up to 4 credits per post shown (at least 20), charged to you`,
      mutates: true,
      run: add,
    }),
    defineCommand({
      name: 'list',
      description: 'The daily digests of this workspace.',
      params: {},
      schema: z.object({}),
      examples: ['digest list'],
      account: 'optional',
      run: async (ctx) => list(ctx),
    }),
    defineCommand({
      name: 'remove',
      description: 'Stop a daily digest by its number.',
      params: {
        id: {
          kind: 'integer',
          positional: true,
          required: true,
          description: 'The digest number (see digest list).',
          example: '3',
        },
      },
      schema: z.object({ id: z.number().int().min(1) }),
      examples: ['digest remove 3'],
      account: 'optional',
      mutates: true,
      run: async (ctx, input) => remove(ctx, input.id),
    }),
    defineCommand({
      name: 'preview',
      working: 'Finding today’s viral posts…',
      description: 'Post a digest of these filters now, ranked by virality.',
      params: { ...TOP_PARAM, ...FILTER_PARAMS },
      schema: previewInput,
      examples: ['digest preview categories:Food', 'digest preview country:Japan virality:>0.5 top:3'],
      cost: 'up to 4 credits per post shown (at least 20)',
      estimate: (input) => poolSize(input.top),
      run: preview,
    }),
  ],
});
