import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { COUNTRIES, CRM_STATUSES, HAIR_COLORS, MAIN_CATEGORIES } from '../../../src/core/service/enums.js';
import { ServiceInputError } from '../../../src/core/service/errors.js';
import {
  choice,
  choices,
  describeAllowed,
  httpUrl,
  idList,
  isoDate,
  isoWeek,
  parseInput,
  videoUrl,
  wholeNumber,
} from '../../../src/core/service/input-kit.js';

const issuesOf = (schema: z.ZodType, input: unknown) => {
  try {
    parseInput('creators.search', schema, input);
  } catch (error) {
    expect(error).toBeInstanceOf(ServiceInputError);
    return (error as ServiceInputError).issues;
  }
  throw new Error('expected the input to be rejected');
};

describe('choice', () => {
  it('matches any case, spacing and separator and returns the contract spelling', () => {
    const status = choice(CRM_STATUSES);
    expect(status.parse('to outreach')).toBe('TO_OUTREACH');
    expect(status.parse('Negotiating')).toBe('NEGOTIATING');
    expect(choice(MAIN_CATEGORIES).parse('self improvement')).toBe('Self-Improvement');
    expect(choice(COUNTRIES).parse("côte d'ivoire")).toBe("Côte d'Ivoire");
    expect(choice(HAIR_COLORS, { blonde: 'Blonde hair' }).parse('BLONDE')).toBe('Blonde hair');
  });

  it('names the allowed values when a value is unknown', () => {
    const issues = issuesOf(z.object({ status: choice(CRM_STATUSES) }), { status: 'maybe' });
    expect(issues).toEqual([
      {
        field: 'status',
        message: `must be one of: ${CRM_STATUSES.join(', ')}`,
        allowed: [...CRM_STATUSES],
      },
    ]);
  });

  it('summarizes long lists in the message but keeps every value in the issue', () => {
    const [issue] = issuesOf(z.object({ country: choice(COUNTRIES) }), { country: 'Atlantis' });
    expect(issue?.message).toBe(describeAllowed(COUNTRIES));
    expect(issue?.message.length).toBeLessThan(120);
    expect(issue?.allowed).toHaveLength(COUNTRIES.length);
  });

  it('says a missing required value is required', () => {
    expect(issuesOf(z.object({ status: choice(CRM_STATUSES) }), {})).toEqual([
      { field: 'status', message: 'is required' },
    ]);
  });
});

describe('choices', () => {
  it('takes a list or a comma-separated string, dedupes and canonicalizes', () => {
    const hair = choices(HAIR_COLORS, { red: 'Red hair' });
    expect(hair.parse('red, Blonde hair,red')).toEqual(['Red hair', 'Blonde hair']);
    expect(hair.parse(['black hair'])).toEqual(['Black hair']);
  });

  it('reports every unknown value at once', () => {
    const [issue] = issuesOf(z.object({ hairColor: choices(HAIR_COLORS) }), { hairColor: 'green,blue' });
    expect(issue?.field).toBe('hairColor');
    expect(issue?.message).toContain('"green", "blue"');
    expect(issue?.allowed).toEqual([...HAIR_COLORS]);
  });

  it('refuses an empty list', () => {
    expect(issuesOf(z.object({ hairColor: choices(HAIR_COLORS) }), { hairColor: ' , ' })[0]?.message).toBe(
      'must name at least one value',
    );
  });
});

describe('numbers', () => {
  it('accepts numeric strings and states the bounds', () => {
    const perPage = wholeNumber(1, 100);
    expect(perPage.parse('20')).toBe(20);
    expect(issuesOf(z.object({ perPage }), { perPage: 0 })[0]?.message).toBe(
      'must be a whole number from 1 to 100',
    );
    expect(issuesOf(z.object({ perPage }), { perPage: 2.5 })[0]?.message).toBe(
      'must be a whole number from 1 to 100',
    );
    expect(issuesOf(z.object({ perPage }), { perPage: 'many' })[0]?.message).toBe(
      'must be a whole number from 1 to 100',
    );
  });
});

describe('dates and weeks', () => {
  it('accepts real calendar dates only', () => {
    expect(isoDate().parse('2024-02-29')).toBe('2024-02-29');
    expect(isoDate().safeParse('2023-02-29').success).toBe(false);
    expect(isoDate().safeParse('2024-13-01').success).toBe(false);
    expect(isoDate().safeParse('24-01-01').success).toBe(false);
  });

  it('accepts ISO weeks that exist, upper-cased', () => {
    expect(isoWeek().parse('2026-w04')).toBe('2026-W04');
    // 2026 starts on a Thursday: it has 53 ISO weeks; 2025 has 52.
    expect(isoWeek().parse('2026-W53')).toBe('2026-W53');
    expect(isoWeek().safeParse('2025-W53').success).toBe(false);
    expect(isoWeek().safeParse('2026-W00').success).toBe(false);
    expect(isoWeek().safeParse('2026-04').success).toBe(false);
  });
});

describe('urls and ids', () => {
  it('accepts http(s) URLs only', () => {
    expect(httpUrl().safeParse('https://cdn.example.com/a.jpg').success).toBe(true);
    expect(httpUrl().safeParse('ftp://example.com/a.jpg').success).toBe(false);
    expect(httpUrl().safeParse('not a url').success).toBe(false);
  });

  it('accepts any well-formed http(s) URL as a video URL, leaving what it serves to the service', () => {
    expect(videoUrl().safeParse('https://example.com/clip.MP4?sig=1').success).toBe(true);
    expect(videoUrl().safeParse('https://files.example.com/download?id=5').success).toBe(true);
    expect(videoUrl().safeParse('https://example.com/clip.gif').success).toBe(true);
    for (const bad of [
      'ftp://example.com/a.mp4',
      'https://',
      'https://bad..host/a',
      'https://x.com/a b',
      'clip.mp4',
    ])
      expect(videoUrl().safeParse(bad).success, bad).toBe(false);
  });

  it('turns integer ids into strings and bounds the list', () => {
    expect(idList(1, 3).parse(['a', 12])).toEqual(['a', '12']);
    expect(idList(1, 3).safeParse(['a', 'b', 'c', 'd']).success).toBe(false);
    expect(idList(1, 3).safeParse([]).success).toBe(false);
    expect(idList(1, 3).safeParse(['']).success).toBe(false);
  });
});

describe('parseInput', () => {
  it('lists unknown fields and keeps the message short', () => {
    const schema = z.strictObject({ page: wholeNumber(1).optional() });
    try {
      parseInput('crm.listLists', schema, { page: 0, pgae: 2, other: 1 });
      throw new Error('expected a rejection');
    } catch (error) {
      const input = error as ServiceInputError;
      expect(input.code).toBe('INVALID_INPUT');
      expect(input.status).toBeNull();
      expect(input.operation).toBe('crm.listLists');
      expect(input.issues.map((i) => i.field).sort()).toEqual(['other', 'page', 'pgae']);
      expect(input.message).toMatch(/^Invalid input: /);
    }
  });
});
