import { describe, expect, it } from 'vitest';
import {
  cleanText,
  compactNumber,
  ELLIPSIS,
  engagementPercent,
  finiteOrNull,
  formatAge,
  formatAmount,
  formatDate,
  formatDuration,
  formatInteger,
  formatPercent,
  MISSING,
  safeUrl,
  shortText,
  singleLine,
  toEpochMs,
  toIsoString,
  truncate,
} from '../../../src/core/ui/format.js';
import { EMOJI, HOSTILE, LONG_HOSTILE, NOW, unsafeChars } from './fixtures.js';

/** True when the string holds a high surrogate without its low half, or a low one without its high half. */
function hasLoneSurrogate(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (!(next >= 0xdc00 && next <= 0xdfff)) return true;
      i++;
    } else if (c >= 0xdc00 && c <= 0xdfff) {
      return true;
    }
  }
  return false;
}

describe('compactNumber', () => {
  it.each([
    [0, '0'],
    [7.4, '7'],
    [999, '999'],
    [999.6, '1K'],
    [1000, '1K'],
    [1234, '1.2K'],
    [1250, '1.3K'],
    [12_345, '12.3K'],
    [99_950, '100K'],
    [123_456, '123K'],
    [999_499, '999K'],
    [999_999, '1M'],
    [1_150_000, '1.2M'],
    [1_250_000, '1.3M'],
    [20_000_000, '20M'],
    [3_456_789_012, '3.5B'],
    [7e12, '7T'],
    [-4500, '-4.5K'],
  ])('%d -> %s', (value, expected) => {
    expect(compactNumber(value)).toBe(expected);
  });

  it('shows a dash for non-finite input', () => {
    expect(compactNumber(Number.NaN)).toBe(MISSING);
    expect(compactNumber(Number.POSITIVE_INFINITY)).toBe(MISSING);
  });
});

describe('engagement and percentages', () => {
  it('converts a profile fraction to a percentage without float noise', () => {
    expect(engagementPercent(0.034)).toBe(3.4);
    expect(engagementPercent(0.03)).toBe(3);
    expect(engagementPercent(0.1234)).toBe(12.34);
    expect(engagementPercent(0)).toBe(0);
    expect(engagementPercent(1.5)).toBe(150);
  });

  it('keeps missing engagement missing', () => {
    expect(engagementPercent(null)).toBeNull();
    expect(engagementPercent(undefined)).toBeNull();
    expect(engagementPercent(Number.NaN)).toBeNull();
  });

  it('formats percentages with one decimal, two below 1%', () => {
    expect(formatPercent(3.4)).toBe('3.4%');
    expect(formatPercent(12)).toBe('12%');
    expect(formatPercent(12.06)).toBe('12.1%');
    expect(formatPercent(0.05)).toBe('0.05%');
    expect(formatPercent(0.5)).toBe('0.5%');
    expect(formatPercent(Number.NaN)).toBe(MISSING);
  });

  it('formats integers and amounts with separators', () => {
    expect(formatInteger(1_234_567)).toBe('1,234,567');
    expect(formatAmount(1500.5)).toBe('1,500.5');
    expect(formatAmount(1_234_567.891)).toBe('1,234,567.89');
    expect(formatAmount(Number.NaN)).toBe(MISSING);
  });

  it('accepts only finite numbers', () => {
    expect(finiteOrNull(5)).toBe(5);
    expect(finiteOrNull(Number.NEGATIVE_INFINITY)).toBeNull();
    expect(finiteOrNull(null)).toBeNull();
  });
});

describe('times and ages', () => {
  it('reads ISO strings without a zone as UTC', () => {
    expect(toEpochMs('2026-01-02T03:04:05')).toBe(Date.parse('2026-01-02T03:04:05Z'));
    expect(toEpochMs('2026-01-02 03:04')).toBe(Date.parse('2026-01-02T03:04:00Z'));
    expect(toEpochMs('2026-01-02T03:04:05+02:00')).toBe(Date.parse('2026-01-02T01:04:05Z'));
    expect(toEpochMs(new Date(NOW))).toBe(NOW);
    expect(toEpochMs(NOW)).toBe(NOW);
  });

  it('rejects invalid instants', () => {
    expect(toEpochMs('yesterday-ish')).toBeNull();
    expect(toEpochMs(new Date(Number.NaN))).toBeNull();
    expect(toEpochMs(null)).toBeNull();
    expect(toIsoString('nope')).toBeNull();
    expect(formatDate(undefined)).toBeNull();
  });

  it('formats ISO strings and dates in UTC', () => {
    expect(toIsoString('2026-01-02T03:04:05')).toBe('2026-01-02T03:04:05.000Z');
    expect(formatDate('2026-12-31T23:59:59')).toBe('2026-12-31');
  });

  it.each([
    [0, 'less than a minute'],
    [59_999, 'less than a minute'],
    [60_000, '1 minute'],
    [45 * 60_000, '45 minutes'],
    [3_600_000, '1 hour'],
    [23.9 * 3_600_000, '23 hours'],
    [86_400_000, '1 day'],
    [2.5 * 86_400_000, '2 days'],
    [45 * 86_400_000, '1 month'],
    [800 * 86_400_000, '2 years'],
  ])('duration %d ms reads %s', (ms, expected) => {
    expect(formatDuration(ms)).toBe(expected);
  });

  it('states the age of data against an injected now', () => {
    expect(formatAge(NOW - 2 * 86_400_000 - 1000, NOW)).toBe('2 days old');
    expect(formatAge(new Date(NOW - 3 * 3_600_000), new Date(NOW))).toBe('3 hours old');
    expect(formatAge('2026-03-10T11:00:00', NOW)).toBe('1 hour old');
    expect(formatAge(NOW + 60_000, NOW)).toBe('less than a minute old');
    expect(formatAge(null, NOW)).toBe('age unknown');
  });
});

describe('truncate', () => {
  it('returns short text unchanged', () => {
    expect(truncate('hello', 5)).toBe('hello');
  });

  it('cuts long text to the limit with an ellipsis', () => {
    const out = truncate('hello world', 8);
    expect(out).toBe('hello w…');
    expect(out.length).toBeLessThanOrEqual(8);
  });

  it('never splits a surrogate pair', () => {
    const text = '😀'.repeat(10);
    for (let max = 0; max <= 21; max++) {
      const out = truncate(text, max);
      expect(out.length).toBeLessThanOrEqual(max);
      expect(hasLoneSurrogate(out)).toBe(false);
    }
    expect(truncate('ab😀cd', 4)).toBe('ab…');
  });

  it('never splits a grapheme cluster (ZWJ family, flag, skin tone, combining mark)', () => {
    const family = '👨‍👩‍👧‍👦';
    expect(truncate(`${family}${family}`, family.length + 1)).toBe(`${family}${ELLIPSIS}`);
    expect(truncate(`x${family}`, family.length)).toBe(`x${ELLIPSIS}`);
    expect(truncate('🇺🇸🇺🇸', 5)).toBe(`🇺🇸${ELLIPSIS}`);
    expect(truncate('🇺🇸🇺🇸', 4)).toBe(ELLIPSIS);
    expect(truncate('e\u0301e\u0301e\u0301', 4)).toBe(`e\u0301${ELLIPSIS}`);
    expect(truncate(`xxx👍🏽${'y'.repeat(100)}`, 6)).toBe(`xxx${ELLIPSIS}`);
    expect(truncate(`xxx👍🏽${'y'.repeat(100)}`, 8)).toBe(`xxx👍🏽${ELLIPSIS}`);
  });

  it('holds for every length on hostile text', () => {
    const text = `${EMOJI}${HOSTILE}${EMOJI}`;
    for (let max = 0; max < text.length + 2; max++) {
      const out = truncate(text, max);
      expect(out.length).toBeLessThanOrEqual(max);
      expect(hasLoneSurrogate(out)).toBe(false);
      if (max >= text.length) expect(out).toBe(text);
      else if (max > 0) expect(out.endsWith(ELLIPSIS)).toBe(true);
    }
  });

  it('handles degenerate limits and custom ellipses', () => {
    expect(truncate('hello', 0)).toBe('');
    expect(truncate('hello', 1)).toBe('…');
    expect(truncate('hello', 2, '...')).toBe('');
    expect(truncate('hello world', 8, '...')).toBe('hello...');
  });
});

describe('text hygiene', () => {
  it('removes control and bidi characters but keeps newlines and emoji', () => {
    const out = cleanText(HOSTILE + EMOJI);
    expect(unsafeChars(out)).toEqual([]);
    expect(out).toContain('\n');
    expect(out).toContain('tab here');
    expect(out).toContain(EMOJI);
    expect(out).toContain('*bold* _it_');
  });

  it('folds text onto one line', () => {
    expect(singleLine('  a\r\n\n b\tc \u2029 d  ')).toBe('a b c d');
    expect(singleLine(LONG_HOSTILE)).not.toContain('\n');
  });

  it('returns null for blank short text and caps the rest', () => {
    expect(shortText('  \n\t ', 10)).toBeNull();
    expect(shortText(undefined, 10)).toBeNull();
    expect(shortText('a\nb', 10)).toBe('a b');
    expect(shortText(LONG_HOSTILE, 80)?.length).toBeLessThanOrEqual(80);
  });
});

describe('safeUrl', () => {
  it('keeps absolute http(s) URLs, normalized', () => {
    expect(safeUrl('https://example.com/a b')).toBe('https://example.com/a%20b');
    expect(safeUrl(' http://example.com ')).toBe('http://example.com/');
  });

  it('drops anything else', () => {
    expect(safeUrl('javascript:alert(1)')).toBeNull();
    expect(safeUrl('data:text/html,hi')).toBeNull();
    expect(safeUrl('/relative/path')).toBeNull();
    expect(safeUrl('https://user:pw@example.com/')).toBeNull();
    expect(safeUrl(`https://example.com/${'a'.repeat(3000)}`)).toBeNull();
    expect(safeUrl('')).toBeNull();
    expect(safeUrl(null)).toBeNull();
  });
});
