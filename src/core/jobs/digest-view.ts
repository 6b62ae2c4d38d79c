/** Choosing and showing a viral digest: one search, ranked by virality score, posts already shown left out. */
import type { ServiceApi } from '../service/index.js';
import type { CallOptions } from '../service/types.js';
import { normalizeViralPost, type ViralPost } from '../service/viral.js';
import { bold, code, type Inline, type Reply, reply, text, viralPostCard } from '../ui/index.js';
import { addDays } from './time-zone.js';

/** Posts per digest unless `top:` says otherwise, and the most allowed. */
export const DIGEST_TOP_DEFAULT = 5;
export const DIGEST_TOP_MAX = 10;

/** Posts bought per digest to rank from: four per post shown, at least 20, at most the contract's 100. */
export function poolSize(top: number): number {
  return Math.min(100, Math.max(20, top * 4));
}

/** A relative date of a stored digest filter: `7d` is seven days before the digest's day. */
const RELATIVE_DAYS = /^(\d{1,4})d$/;

/** The viral search input of a digest on a local day: relative dates resolved, no paging fields. */
export function resolveDigestFilters(
  filters: Readonly<Record<string, unknown>>,
  localDay: string,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(filters)) {
    if (value === undefined || key === 'page' || key === 'pageSize') continue;
    const relative = typeof value === 'string' ? RELATIVE_DAYS.exec(value) : null;
    out[key] = relative === null ? value : addDays(localDay, -Number(relative[1]));
  }
  return out;
}

/** Ranks posts by virality score (then views), best first; posts without a score go last. */
export function rankByVirality(posts: readonly ViralPost[]): ViralPost[] {
  const score = (p: ViralPost) => p.viralityScore ?? Number.NEGATIVE_INFINITY;
  return [...posts].sort(
    (a, b) => score(b) - score(a) || (b.views ?? 0) - (a.views ?? 0) || a.id.localeCompare(b.id),
  );
}

/** What a digest search needs. */
export interface DigestQuery {
  filters: Readonly<Record<string, unknown>>;
  top: number;
  localDay: string;
}

/** Searches once and returns the top posts not already shown. */
export async function chooseDigestPosts(
  service: ServiceApi,
  query: DigestQuery,
  alreadyShown: (ids: readonly string[]) => ReadonlySet<string> | Promise<ReadonlySet<string>>,
  options?: CallOptions,
): Promise<ViralPost[]> {
  const input = {
    ...resolveDigestFilters(query.filters, query.localDay),
    page: 1,
    pageSize: poolSize(query.top),
  };
  const { data } = await service.viral.search(input, options);
  const shown = await alreadyShown(data.items.map((p) => p.id));
  return rankByVirality(data.items.filter((p) => !shown.has(p.id))).slice(0, query.top);
}

/** The filters of a digest as `key:value` code spans. */
export function filterSpans(filters: Readonly<Record<string, unknown>>): Inline[] {
  const entries = Object.entries(filters).filter(([, v]) => v !== undefined);
  if (entries.length === 0) return ['all viral posts'];
  return entries.flatMap(([key, value], i) => [
    i === 0 ? '' : ' ',
    code(`${key}:${Array.isArray(value) ? value.join(',') : String(value)}`),
  ]);
}

/** What the digest post says about its schedule. */
export interface DigestHeading {
  /** Digest id, or null for a preview. */
  id: number | null;
  localDay: string;
  localTime: string | null;
  timeZone: string | null;
  filters: Readonly<Record<string, unknown>>;
}

/** The one line posted when nothing new matches. */
export function nothingNewNote(heading: DigestHeading): string {
  return `No new viral posts match this digest on ${heading.localDay}.`;
}

/** The digest post: a heading, then one card per post, or the one-line note. */
export function digestReply(heading: DigestHeading, posts: readonly unknown[], note: string | null): Reply {
  const title = heading.id === null ? 'Viral digest preview' : `Daily viral digest #${heading.id}`;
  const schedule =
    heading.localTime === null ? '' : ` · daily at ${heading.localTime} ${heading.timeZone ?? 'UTC'}`;
  if (posts.length === 0) {
    return reply([text(bold(title), ` · ${heading.localDay} · `, note ?? nothingNewNote(heading))], {
      visibility: 'channel',
    });
  }
  return reply(
    [
      text(
        bold(title),
        ` · ${heading.localDay}${schedule} · top ${posts.length} by virality · `,
        ...filterSpans(heading.filters),
      ),
      ...posts.map((post) => viralPostCard(normalizeViralPost(post))),
    ],
    { visibility: 'channel' },
  );
}
