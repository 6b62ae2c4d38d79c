/** Viral content search (shape C errors): every body field filters; 1 credit per item returned. */
import {
  CONTENT_FORMATS,
  CONTENT_TONES,
  COUNTRIES,
  MAIN_CATEGORIES,
  VISUAL_STYLES,
} from '../../core/service/enums.js';
import type { ViralPost } from '../data/records.js';
import { SandboxHttpError } from '../server/http.js';
import { canonical, createBodyReader } from '../server/input.js';
import type { Operation } from '../server/router.js';
import { DAY_MS, parseIsoDate } from '../time.js';

type Predicate = (post: ViralPost) => boolean;

/** Array filters: body field, post field, documented values (undefined: free values). */
const TAG_FILTERS: readonly [string, keyof ViralPost, readonly string[] | undefined][] = [
  ['categories', 'category', MAIN_CATEGORIES],
  ['countries', 'country', COUNTRIES],
  ['contentFormats', 'contentFormat', CONTENT_FORMATS],
  ['contentTones', 'contentTone', CONTENT_TONES],
  ['visualStyles', 'visualStyle', VISUAL_STYLES],
  ['videoSettings', 'videoSetting', undefined],
  ['targetDemographics', 'targetDemographic', undefined],
  ['productionQualities', 'productionQuality', undefined],
  ['ctaTypes', 'ctaType', undefined],
  ['primaryEmotions', 'primaryEmotion', undefined],
];

const RANGE_FILTERS: readonly [string, 'views' | 'viralityScore' | 'followers', boolean][] = [
  ['views', 'views', true],
  ['viralityScore', 'viralityScore', false],
  ['followers', 'followers', true],
];

const CONTAINS_FILTERS: readonly [string, keyof ViralPost][] = [
  ['musicTitle', 'musicTitle'],
  ['hook', 'hook'],
  ['videoTopicContains', 'videoTopic'],
  ['contentCategoryContains', 'contentCategory'],
  ['productCategoryContains', 'productCategory'],
  ['brandMentionedContains', 'brandMentioned'],
  ['colorPaletteContains', 'colorPalette'],
];

const FLAGS = [
  'hasFace',
  'hasProduct',
  'isBranded',
  'isPromotional',
  'hasTextOverlay',
  'isTrendingFormat',
  'isAiGenerated',
] as const;

const FIELDS = [
  ...TAG_FILTERS.map(([name]) => name),
  ...RANGE_FILTERS.flatMap(([stem]) => [`${stem}Min`, `${stem}Max`]),
  ...CONTAINS_FILTERS.map(([name]) => name),
  ...FLAGS,
  'dateCreatedFrom',
  'dateCreatedTo',
  'page',
  'pageSize',
];

/** The viral content operation. */
export function viralOperations(): Operation[] {
  return [
    {
      method: 'POST',
      pattern: '/api/v1/viral-content',
      family: 'C',
      handle: ({ body, world, requireCredits, charge }) => {
        const reader = createBodyReader(body());
        reader.rejectUnknown(FIELDS);
        const filters: Predicate[] = [];
        const params: Record<string, unknown> = {};
        for (const [name, field, values] of TAG_FILTERS) {
          const wanted = reader.strings(name)?.map((value) => {
            if (!values) return value.toLowerCase();
            const match = canonical(values, value);
            if (!match) throw new SandboxHttpError(400, `${name} has an unknown value '${value}'`);
            return match.toLowerCase();
          });
          if (!wanted) continue;
          params[name] = reader.strings(name);
          filters.push((p) => wanted.includes(String(p[field]).toLowerCase()));
        }
        for (const [stem, field, integer] of RANGE_FILTERS) {
          const read = (name: string) =>
            integer ? reader.integer(name, { min: 0 }) : reader.number(name, { min: 0 });
          const min = read(`${stem}Min`);
          const max = read(`${stem}Max`);
          if (min !== undefined) {
            params[`${stem}Min`] = min;
            filters.push((p) => p[field] >= min);
          }
          if (max !== undefined) {
            params[`${stem}Max`] = max;
            filters.push((p) => p[field] <= max);
          }
        }
        for (const [name, field] of CONTAINS_FILTERS) {
          const text = reader.string(name)?.trim().toLowerCase();
          if (!text) continue;
          params[name] = reader.string(name);
          filters.push((p) =>
            String(p[field] ?? '')
              .toLowerCase()
              .includes(text),
          );
        }
        for (const flag of FLAGS) {
          const value = reader.boolean(flag);
          if (value === undefined) continue;
          params[flag] = value;
          filters.push((p) => p[flag] === value);
        }
        const readDate = (name: string): number | undefined => {
          const text = reader.string(name);
          if (text === undefined || text === '') return undefined;
          const day = parseIsoDate(text);
          if (day === undefined)
            throw new SandboxHttpError(400, `${name} must be a date as YYYY-MM-DD, got '${text}'`);
          params[name] = text;
          return day;
        };
        const from = readDate('dateCreatedFrom');
        const to = readDate('dateCreatedTo');
        if (from !== undefined) filters.push((p) => Date.parse(p.createdAt) >= from);
        // Inclusive: the whole `to` day counts.
        if (to !== undefined) filters.push((p) => Date.parse(p.createdAt) < to + DAY_MS);
        const page = reader.integer('page', { min: 1 }) ?? 1;
        const pageSize = reader.integer('pageSize', { min: 1, max: 100 }) ?? 12;

        requireCredits(1);
        const matching = world.viralPosts().filter((p) => filters.every((f) => f(p)));
        const data = matching.slice((page - 1) * pageSize, page * pageSize);
        charge(data.length);
        return {
          body: {
            message: 'OK',
            params: { ...params, page, pageSize },
            response: {
              data,
              page,
              pageSize,
              totalPages: Math.ceil(matching.length / pageSize),
              totalResults: matching.length,
            },
          },
        };
      },
    },
  ];
}
