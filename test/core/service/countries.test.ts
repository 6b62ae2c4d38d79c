/** The creator countries: every ISO 3166-1 country from ICU's English names, and nothing that is not one. */
import { describe, expect, it } from 'vitest';
import { CREATOR_FILTER_PARAMS } from '../../../src/commands/creators/filters.js';
import { coerceParam } from '../../../src/core/command/params.js';
import { fold } from '../../../src/core/command/suggest.js';
import {
  COUNTRY_CODES,
  COUNTRY_SYNONYMS,
  CREATOR_COUNTRIES,
  VIRAL_COUNTRY_SYNONYMS,
} from '../../../src/core/service/countries.js';
import { creatorSearchInput } from '../../../src/core/service/creators.js';
import { COUNTRIES } from '../../../src/core/service/enums.js';

const byCode = new Map(COUNTRY_CODES.map((country) => [country.code, country.name]));

describe('creator countries', () => {
  it('are the 249 countries of ISO 3166-1 and Kosovo, by name', () => {
    expect(CREATOR_COUNTRIES).toHaveLength(250);
    expect(new Set(CREATOR_COUNTRIES).size).toBe(250);
    for (const name of ['Pakistan', 'Kazakhstan', 'Nepal', 'Iceland', 'Latvia', 'Kosovo', 'Greenland']) {
      expect(CREATOR_COUNTRIES).toContain(name);
    }
    expect(byCode.get('PK')).toBe('Pakistan');
    expect(byCode.get('XK')).toBe('Kosovo');
  });

  it('leave out regions that are not countries and codes that are only aliases', () => {
    // Reserved (EU, EZ, UN, AC, CP, DG, EA, IC, TA), user-assigned (QO, XA, XB, ZZ), deprecated (BU, YU, ZR, UK).
    for (const code of ['EU', 'EZ', 'UN', 'AC', 'CP', 'DG', 'EA', 'IC', 'TA', 'QO', 'XA', 'XB', 'ZZ']) {
      expect(byCode.has(code), code).toBe(false);
    }
    for (const name of [
      'European Union',
      'Eurozone',
      'United Nations',
      'Outlying Oceania',
      'Unknown Region',
    ]) {
      expect(CREATOR_COUNTRIES).not.toContain(name);
    }
    for (const code of ['BU', 'YU', 'ZR', 'UK', 'SU', 'DD']) expect(byCode.has(code), code).toBe(false);
    expect(CREATOR_COUNTRIES).not.toContain('Other');
  });

  it("write every viral-content country the contract's way, with the same names", () => {
    const missing = COUNTRIES.filter((name) => name !== 'Other' && !CREATOR_COUNTRIES.includes(name));
    expect(missing).toEqual([]);
    expect(byCode.get('US')).toBe('United States');
    expect(byCode.get('GB')).toBe('United Kingdom');
    expect(byCode.get('CI')).toBe("Côte d'Ivoire");
    expect(byCode.get('TR')).toBe('Turkey');
    expect(byCode.get('KN')).toBe('Saint Kitts and Nevis');
  });

  it('take codes, short forms and CLDR spellings, none of which is another country', () => {
    const country = CREATOR_FILTER_PARAMS.country;
    if (country === undefined) throw new Error('no country option');
    const typed = (raw: string) => coerceParam('country', country, raw).country;
    expect(typed('PK')).toBe('Pakistan');
    expect(typed('pk')).toBe('Pakistan');
    expect(typed('USA')).toBe('United States');
    expect(typed('U.S.')).toBe('United States');
    expect(typed('us')).toBe('United States');
    expect(typed('UK')).toBe('United Kingdom');
    expect(typed('UAE')).toBe('United Arab Emirates');
    expect(typed('Türkiye')).toBe('Turkey');
    expect(typed('St. Kitts & Nevis')).toBe('Saint Kitts and Nevis');
    expect(typed('côte d’ivoire')).toBe("Côte d'Ivoire");
    expect(typed('kazakhstan')).toBe('Kazakhstan');
    const names = new Map(CREATOR_COUNTRIES.map((name) => [fold(name), name]));
    for (const [form, name] of Object.entries(COUNTRY_SYNONYMS)) {
      expect(CREATOR_COUNTRIES, form).toContain(name);
      const clash = names.get(fold(form));
      if (clash !== undefined) expect(clash, form).toBe(name);
    }
  });

  it('are what the client sends, and viral content keeps its own list', () => {
    expect(creatorSearchInput.parse({ country: 'Nepal' })).toMatchObject({ country: 'Nepal' });
    expect(Object.values(VIRAL_COUNTRY_SYNONYMS).every((name) => COUNTRIES.includes(name))).toBe(true);
    expect(VIRAL_COUNTRY_SYNONYMS.UK).toBe('United Kingdom');
    expect(VIRAL_COUNTRY_SYNONYMS.PK).toBeUndefined();
  });
});
