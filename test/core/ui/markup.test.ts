import { describe, expect, it } from 'vitest';
import { MENTION_ID_MAX } from '../../../src/core/ui/limits.js';
import {
  bold,
  code,
  italic,
  link,
  mention,
  plain,
  plainText,
  type Span,
  toSpans,
} from '../../../src/core/ui/markup.js';
import { EMOJI, HOSTILE, unsafeChars } from './fixtures.js';

describe('spans', () => {
  it('keeps markup characters literal inside spans', () => {
    expect(bold('*not* _markup_')).toEqual({ kind: 'bold', text: '*not* _markup_' });
    expect(code('`x`')).toEqual({ kind: 'code', text: '`x`' });
  });

  it('keeps newlines only in plain spans', () => {
    expect(plain('a\r\nb').text).toBe('a\nb');
    expect(bold('a\nb').text).toBe('a b');
    expect(italic('a\n\nb').text).toBe('a b');
    expect(code('a\nb').text).toBe('a b');
  });

  it('strips control and bidi characters from every span', () => {
    expect(unsafeChars(plain(HOSTILE).text)).toEqual([]);
    for (const span of [bold(HOSTILE), italic(HOSTILE), code(HOSTILE)]) {
      expect(unsafeChars(span.text, true)).toEqual([]);
    }
  });

  it('links only absolute http(s) URLs and degrades the rest to the label', () => {
    expect(link('site', 'https://example.com/x')).toEqual({
      kind: 'link',
      label: 'site',
      url: 'https://example.com/x',
    });
    expect(link('click', 'javascript:alert(1)')).toEqual({ kind: 'plain', text: 'click' });
    expect(link('', 'https://example.com')).toEqual({
      kind: 'link',
      label: 'https://example.com/',
      url: 'https://example.com/',
    });
  });

  it('normalizes inline parts: merges plain text, drops empty spans', () => {
    expect(toSpans(['a', 'b', bold(''), plain(''), bold('c'), 'd'])).toEqual([
      { kind: 'plain', text: 'ab' },
      { kind: 'bold', text: 'c' },
      { kind: 'plain', text: 'd' },
    ]);
  });

  it('re-cleans spans built by hand', () => {
    const raw: Span[] = [
      { kind: 'bold', text: 'a\nb\u001b' },
      { kind: 'link', label: 'x', url: 'ftp://example.com' },
    ];
    expect(toSpans(raw)).toEqual([
      { kind: 'bold', text: 'a b' },
      { kind: 'plain', text: 'x' },
    ]);
  });
});

describe('mention', () => {
  it('names a user by id, cleaned to one line and capped', () => {
    expect(mention('U0BOB')).toEqual({ kind: 'mention', userId: 'U0BOB' });
    expect(mention(' 123456789012345678\n')).toEqual({ kind: 'mention', userId: '123456789012345678' });
    expect(unsafeChars(mention(HOSTILE).userId, true)).toEqual([]);
    expect(mention('x'.repeat(500)).userId.length).toBeLessThanOrEqual(MENTION_ID_MAX);
  });

  it('is a span of its own: kept between plain text, dropped when empty, re-cleaned when built by hand', () => {
    expect(toSpans(['The cap of ', mention('U0BOB'), ' is 6.'])).toEqual([
      { kind: 'plain', text: 'The cap of ' },
      { kind: 'mention', userId: 'U0BOB' },
      { kind: 'plain', text: ' is 6.' },
    ]);
    expect(toSpans(['a', mention(' \n '), 'b'])).toEqual([{ kind: 'plain', text: 'ab' }]);
    expect(toSpans([{ kind: 'mention', userId: 'U0\u202EBOB\u0000' }])).toEqual([
      { kind: 'mention', userId: 'U0BOB' },
    ]);
  });

  it('reads as @id in plain text, whatever the id holds', () => {
    expect(plainText(['Cap of ', mention('U0BOB'), ' set'])).toBe('Cap of @U0BOB set');
    expect(plainText([mention('U1>|<!channel>')])).toBe('@U1>|<!channel>');
  });
});

describe('plainText', () => {
  it('drops styles and spells links out', () => {
    expect(
      plainText([
        'Found ',
        bold('12'),
        ' creators in ',
        italic('Beauty'),
        ': ',
        code('/scout'),
        ' ',
        link('docs', 'https://example.com/d'),
      ]),
    ).toBe('Found 12 creators in Beauty: /scout docs (https://example.com/d)');
  });

  it('shows a bare URL once when the label is the URL', () => {
    expect(plainText([link('https://example.com', 'https://example.com')])).toBe('https://example.com/');
  });

  it('accepts a string and keeps emoji whole', () => {
    expect(plainText(`hi ${EMOJI}`)).toBe(`hi ${EMOJI}`);
  });
});
