/** The command line around the tokens: the leading `/scout`, quoting a value, and a line from typed options. */
import { describe, expect, it } from 'vitest';
import { commandLine, quoteValue, withoutPrefix } from '../../../src/core/command/syntax.js';
import { tokenize } from '../../../src/core/command/tokenize.js';

describe('withoutPrefix', () => {
  it('drops a leading /scout or scout, in any case, and the space around the line', () => {
    expect(withoutPrefix('  /scout creators search ')).toBe('creators search');
    expect(withoutPrefix('Scout help')).toBe('help');
    expect(withoutPrefix('/SCOUT')).toBe('');
    expect(withoutPrefix('scouting report')).toBe('scouting report');
    expect(withoutPrefix('creators bio:/scout')).toBe('creators bio:/scout');
  });
});

describe('commandLine', () => {
  it('writes typed options so that tokenize reads each value back as given, then the free text', () => {
    const options = {
      country: 'United States',
      bio: 'say "hi" and \'bye\'',
      niche: 'yoga',
      empty: '',
    };
    const line = commandLine('creators', 'search', options, ' views:>1m ');
    const tokens = tokenize(line);
    expect(tokens.map((t) => [t.key, t.value])).toEqual([
      [null, 'creators'],
      [null, 'search'],
      ['country', 'United States'],
      ['bio', 'say "hi" and \'bye\''],
      ['niche', 'yoga'],
      ['empty', ''],
      ['views', '>1m'],
    ]);
    expect(commandLine('help', 'show', {})).toBe('help show');
  });

  it('quotes only what needs it', () => {
    expect(quoteValue('yoga')).toBe('yoga');
    expect(quoteValue('skin care')).toBe('"skin care"');
    expect(quoteValue('')).toBe('""');
  });

  it('quotes a value that would read as an option, so a line to copy reads it back as one word', () => {
    for (const value of ['status:negotiating', 'a=b', 'Q3:']) {
      expect(quoteValue(value)).toBe(`"${value}"`);
      expect(tokenize(`list ${quoteValue(value)}`)[1]).toMatchObject({ key: null, value });
    }
    // A URL or a time stays one bare word as it is.
    expect(quoteValue('https://example.com/a')).toBe('https://example.com/a');
    expect(quoteValue('10:30')).toBe('10:30');
  });
});
