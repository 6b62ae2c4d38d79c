/** Splits the text of a `/scout` command into words and key:value pairs, honouring quotes. */

import { ScoutError } from '../errors.js';

/** The longest command text accepted; longer input is refused before any parsing work. */
// Room for 500 creator ids (the most one CRM add takes) at ~25 characters each, and still linear to parse.
export const MAX_COMMAND_LENGTH = 16_000;

/** One token: a bare word, or a key with its value (`followers:10k-100k`, `country:"United States"`). */
export interface Token {
  key: string | null;
  value: string;
  /** The token as typed, for error messages. */
  source: string;
}

/** Raised for text that cannot be split into tokens (an unclosed quote, too long). */
export class TokenizeError extends ScoutError {
  override readonly name = 'TokenizeError';
  readonly code = 'INVALID_SYNTAX';
}

const QUOTES: Record<string, string> = { '"': '"', "'": "'", '“': '”', '‘': '’', '«': '»' };
const KEY = /^[A-Za-z][A-Za-z0-9_-]{0,39}$/;
/** A bare word tokenize would read as `key:value`: a key, then `:` or `=`, not followed by `//`. */
const KEYED = /^[A-Za-z][A-Za-z0-9_-]{0,39}[:=](?!\/\/)/;

/** Whether `word`, written bare, would be read as `key:value` (`status:negotiating`, `a=b`), so it needs quotes. */
export const readsAsKey = (word: string): boolean => KEYED.test(word);

/**
 * Tokenizes a command line. A word is `key:value` (or `key=value`) when the part before the first `:`/`=` looks
 * like a key; the value may be quoted, a quote opening only where a value begins (an apostrophe within a word is
 * part of it). A quoted word with no key is a bare word. URLs stay bare words.
 */
export function tokenize(text: string): Token[] {
  if (text.length > MAX_COMMAND_LENGTH) {
    throw new TokenizeError(
      `That command is too long (${text.length} characters; at most ${MAX_COMMAND_LENGTH}).`,
    );
  }
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    while (i < text.length && /\s/.test(text[i] as string)) i++;
    if (i >= text.length) break;
    const start = i;
    let value = '';
    let key: string | null = null;
    let keyChecked = false;
    while (i < text.length && !/\s/.test(text[i] as string)) {
      const ch = text[i] as string;
      // A quote opens a value only where one begins (the word's start, after `:` or `=`): within a word it is a
      // letter (O'Brien, it’s).
      const opens = value === '' || value.endsWith(':') || value.endsWith('=');
      const close = opens ? QUOTES[ch] : undefined;
      if (close !== undefined) {
        const end = text.indexOf(close, i + 1);
        if (end < 0) throw new TokenizeError(`A quote is not closed: ${text.slice(start, start + 40)}`);
        value += text.slice(i + 1, end);
        i = end + 1;
        keyChecked = true;
        continue;
      }
      if (!keyChecked && (ch === ':' || ch === '=')) {
        keyChecked = true;
        // `https://…` and similar stay one bare word: a key is never followed by `//`.
        if (KEY.test(value) && text.slice(i + 1, i + 3) !== '//') {
          key = value;
          value = '';
          i++;
          continue;
        }
      }
      value += ch;
      i++;
    }
    tokens.push({ key, value, source: text.slice(start, i) });
  }
  return tokens;
}
