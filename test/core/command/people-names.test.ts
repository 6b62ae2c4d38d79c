/** The names people are given for options and values, and the service's field names said with them in a message. */
import { describe, expect, it } from 'vitest';
import type { ParamTable } from '../../../src/core/command/params.js';
import {
  fieldName,
  inPeopleWords,
  optionLabel,
  peopleName,
  valuesInWords,
} from '../../../src/core/command/people-names.js';

const TABLE: ParamTable = {
  followers: {
    kind: 'range',
    min: 'followersMin',
    max: 'followersMax',
    integer: true,
    aliases: ['subscribers'],
    description: 'Followers.',
  },
  mainCategory: { kind: 'choice', values: ['Food'], aliases: ['category'], description: 'Category.' },
  emailExists: { kind: 'boolean', aliases: ['hasEmail', 'withEmail'], description: 'Has an email.' },
  zoomFactor: { kind: 'number', aliases: ['zoom'], description: 'Zoom.' },
  hueShift: { kind: 'number', description: 'Hue shift.' },
};

describe('the names people are given', () => {
  it('are a plain word an option answers to, else its first alias hyphenated', () => {
    expect(peopleName('mainCategory', TABLE.mainCategory as never)).toBe('category');
    expect(peopleName('emailExists', TABLE.emailExists as never)).toBe('has-email');
    expect(peopleName('hueShift', TABLE.hueShift as never)).toBe('hue-shift');
  });

  it('label an option as typed, with that name beside another alias, and by it when nothing was typed', () => {
    const followers = TABLE.followers as never;
    expect(optionLabel('followers', followers, 'subscribers')).toBe('subscribers (followers)');
    expect(optionLabel('mainCategory', TABLE.mainCategory as never, 'category')).toBe('category');
    expect(optionLabel('mainCategory', TABLE.mainCategory as never, 'mainCategory')).toBe('mainCategory');
    expect(optionLabel('mainCategory', TABLE.mainCategory as never)).toBe('category');
  });

  it('name a field by its option, a bound as min or max of it, and as typed where it was', () => {
    expect(fieldName(TABLE, 'followersMin')).toBe('min followers');
    expect(fieldName(TABLE, 'followersMax', () => 'subscribers')).toBe('max subscribers');
    expect(fieldName(TABLE, 'followersMax', () => 'followersMax')).toBe('followersMax');
    expect(fieldName(TABLE, 'colour')).toBeNull();
  });
});

describe('a message in people’s words', () => {
  it('says the service’s fields and paths by the options people type', () => {
    expect(inPeopleWords('images[0].zoomFactor must be at most 5', TABLE)).toBe(
      'image1.zoom must be at most 5',
    );
    expect(inPeopleWords('images.1.hueShift is wrong', TABLE)).toBe('image2.hue-shift is wrong');
    expect(inPeopleWords('parameters.hueShift is wrong', TABLE)).toBe('hue-shift is wrong');
    expect(inPeopleWords('followersMax must not be less than followersMin (5)', TABLE)).toBe(
      'max followers must not be less than min followers (5)',
    );
  });

  it('leaves what people type, values quoted as typed, and words of no option', () => {
    expect(inPeopleWords('image2.zoom is fine', TABLE)).toBe('image2.zoom is fine');
    expect(inPeopleWords('There is no list "hasEmail".', TABLE)).toBe('There is no list "hasEmail".');
    expect(inPeopleWords('set SCOUT_API_KEY, see example.com/a.jpg', TABLE)).toBe(
      'set SCOUT_API_KEY, see example.com/a.jpg',
    );
  });

  it('says the service’s UPPER_SNAKE values in words', () => {
    expect(valuesInWords('must be one of: TO_OUTREACH, DONE', ['TO_OUTREACH', 'DONE'])).toBe(
      'must be one of: to outreach, done',
    );
    // A single upper-case word is a value only where the values say so: a country code stays.
    expect(valuesInWords('such as US or GB, not IN_PROGRESS')).toBe('such as US or GB, not in progress');
  });
});
