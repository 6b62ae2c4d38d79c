/**
 * Countries of creator profiles and creator filters: the service takes any full country name there, so every
 * country of ISO 3166-1 is accepted, named in English by the ICU data Node ships (CLDR), written the way the
 * service writes it, and reachable by its two-letter code and common short forms (`PK`, `USA`, `UK`, `UAE`).
 * Viral content keeps its own list (`COUNTRIES` in enums.ts), with the same codes and short forms for its names.
 */
import { COUNTRIES } from './enums.js';

/**
 * Codes ISO 3166-1 reserves without their being countries ("exceptionally reserved"): the European Union,
 * the Eurozone, the United Nations, Ascension Island, Clipperton, Sark, Diego Garcia, Ceuta and Melilla,
 * the Canary Islands, Tristan da Cunha, and the old FX, SU and UK. CLDR names them all.
 */
const RESERVED = new Set(['AC', 'CP', 'CQ', 'DG', 'EA', 'EU', 'EZ', 'FX', 'IC', 'SU', 'TA', 'UK', 'UN']);

/** ISO 3166-1's user-assigned codes (AA, QM-QZ, XA-XZ, ZZ): CLDR uses QO, XA, XB and ZZ for non-countries. */
const USER_ASSIGNED = /^(?:AA|Q[M-Z]|X[A-Z]|ZZ)$/;

/** User-assigned codes kept all the same: XK is Kosovo, a country creators live in, under the code the EU uses. */
const KEPT_USER_ASSIGNED = new Set(['XK']);

/**
 * Where the service's name differs from CLDR's English display name: the contract's own spelling (Turkey, Hong
 * Kong, Saint Vincent and the Grenadines), or a country's name where CLDR writes a disambiguation ("Congo -
 * Kinshasa", "Myanmar (Burma)", "Macao SAR China").
 */
const SERVICE_SPELLINGS: Readonly<Record<string, string>> = {
  TR: 'Turkey',
  HK: 'Hong Kong',
  MO: 'Macao',
  VC: 'Saint Vincent and the Grenadines',
  MM: 'Myanmar',
  PS: 'Palestine',
  CD: 'Democratic Republic of the Congo',
  CG: 'Republic of the Congo',
};

/** Short and older forms people type, by the name they mean. */
const SHORT_FORMS: Readonly<Record<string, readonly string[]>> = {
  'United States': ['USA', 'America', 'United States of America'],
  'United Kingdom': ['UK', 'Great Britain', 'Britain'],
  'United Arab Emirates': ['UAE', 'Emirates'],
  'Saudi Arabia': ['KSA'],
  'Democratic Republic of the Congo': ['DRC', 'DR Congo'],
  'South Korea': ['Korea', 'Republic of Korea'],
  'North Korea': ['DPRK'],
  China: ['PRC'],
  Russia: ['Russian Federation'],
  Czechia: ['Czech Republic'],
  "Côte d'Ivoire": ['Ivory Coast'],
  Netherlands: ['Holland', 'The Netherlands'],
  Eswatini: ['Swaziland'],
  'Timor-Leste': ['East Timor'],
  'Cape Verde': ['Cabo Verde'],
  Myanmar: ['Burma'],
  'Vatican City': ['Vatican', 'Holy See'],
  'North Macedonia': ['Macedonia'],
  Vietnam: ['Viet Nam'],
};

/**
 * What people call a country's creators ("French", "Brazilian"), by the name they mean: only adjectives that name
 * one country alone (no "Korean", no "Congolese"), so that `country:French` and "French creators" read as France.
 */
const ADJECTIVES: Readonly<Record<string, readonly string[]>> = {
  'United States': ['American', 'US American'],
  'United Kingdom': ['British', 'Scottish', 'Welsh'],
  France: ['French'],
  Germany: ['German'],
  Spain: ['Spanish'],
  Italy: ['Italian'],
  Portugal: ['Portuguese'],
  Brazil: ['Brazilian'],
  Mexico: ['Mexican'],
  Canada: ['Canadian'],
  Australia: ['Australian', 'Aussie'],
  'New Zealand': ['New Zealander', 'Kiwi'],
  Ireland: ['Irish'],
  Netherlands: ['Dutch'],
  Belgium: ['Belgian'],
  Switzerland: ['Swiss'],
  Austria: ['Austrian'],
  Sweden: ['Swedish'],
  Norway: ['Norwegian'],
  Denmark: ['Danish'],
  Finland: ['Finnish'],
  Poland: ['Polish'],
  Greece: ['Greek'],
  Turkey: ['Turkish'],
  Russia: ['Russian'],
  Ukraine: ['Ukrainian'],
  Romania: ['Romanian'],
  Hungary: ['Hungarian'],
  Czechia: ['Czech'],
  Argentina: ['Argentinian', 'Argentine'],
  Colombia: ['Colombian'],
  Chile: ['Chilean'],
  Peru: ['Peruvian'],
  Venezuela: ['Venezuelan'],
  Nigeria: ['Nigerian'],
  Kenya: ['Kenyan'],
  Ghana: ['Ghanaian'],
  'South Africa': ['South African'],
  Egypt: ['Egyptian'],
  Morocco: ['Moroccan'],
  'Saudi Arabia': ['Saudi'],
  'United Arab Emirates': ['Emirati'],
  Israel: ['Israeli'],
  India: ['Indian'],
  Pakistan: ['Pakistani'],
  Bangladesh: ['Bangladeshi'],
  China: ['Chinese'],
  Japan: ['Japanese'],
  'South Korea': ['South Korean'],
  Indonesia: ['Indonesian'],
  Philippines: ['Filipino', 'Philippine'],
  Thailand: ['Thai'],
  Vietnam: ['Vietnamese'],
  Malaysia: ['Malaysian'],
  Singapore: ['Singaporean'],
};

/** CLDR's English name in plain words: "and" for "&", "Saint" for "St.", a straight apostrophe. */
const plainName = (cldr: string) =>
  cldr
    .replace(/’/g, "'")
    .replace(/ & /g, ' and ')
    .replace(/^St\. /, 'Saint ');

/** Every two-letter code from AA to ZZ. */
function twoLetterCodes(): string[] {
  const letters = Array.from({ length: 26 }, (_, i) => String.fromCharCode(65 + i));
  return letters.flatMap((first) => letters.map((second) => first + second));
}

/** A country: its ISO 3166-1 code and the name the service writes. */
export interface Country {
  code: string;
  name: string;
}

function buildCountries(): { countries: Country[]; synonyms: Record<string, string> } {
  const long = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
  const short = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none', style: 'short' });
  const countries: Country[] = [];
  const synonyms: Record<string, string> = {};
  for (const code of twoLetterCodes()) {
    const cldr = long.of(code);
    // Not a region CLDR knows (fallback 'none' gives undefined; some ICU builds give the code back).
    if (cldr === undefined || cldr === code) continue;
    // A deprecated code (BU, YU, ZR...) is an alias of the current one, which comes in its own turn.
    if (new Intl.Locale('und', { region: code }).region !== code) continue;
    if ((RESERVED.has(code) || USER_ASSIGNED.test(code)) && !KEPT_USER_ASSIGNED.has(code)) continue;
    const name = SERVICE_SPELLINGS[code] ?? plainName(cldr);
    countries.push({ code, name });
    synonyms[code] = name;
    if (cldr !== name) synonyms[cldr] = name;
    const brief = short.of(code);
    if (brief !== undefined && brief !== cldr && brief !== name) synonyms[brief] = name;
  }
  for (const [name, forms] of Object.entries(SHORT_FORMS)) for (const form of forms) synonyms[form] = name;
  for (const [name, forms] of Object.entries(ADJECTIVES)) for (const form of forms) synonyms[form] = name;
  countries.sort((a, b) => a.name.localeCompare(b.name, 'en'));
  return { countries, synonyms };
}

const built = buildCountries();

/** Every country with its code, by name. */
export const COUNTRY_CODES: readonly Country[] = built.countries;

/** Country names accepted by creator search and v1 creators (`country`): any country, by full name. */
export const CREATOR_COUNTRIES = built.countries.map((country) => country.name) as unknown as readonly [
  string,
  ...string[],
];

/** Codes, CLDR's spellings and short forms (`PK`, `USA`, `Côte d’Ivoire`), each mapped to the service's name. */
export const COUNTRY_SYNONYMS: Readonly<Record<string, string>> = built.synonyms;

const viralNames = new Set<string>(COUNTRIES);

/** The same codes and short forms, for the viral-content countries only (`US`, `UK` and `UAE` work there too). */
export const VIRAL_COUNTRY_SYNONYMS: Readonly<Record<string, (typeof COUNTRIES)[number]>> =
  Object.fromEntries(Object.entries(COUNTRY_SYNONYMS).filter(([, name]) => viralNames.has(name))) as Record<
    string,
    (typeof COUNTRIES)[number]
  >;
