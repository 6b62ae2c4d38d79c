/**
 * The command line as people type it, around the tokens (tokenize.ts): the optional leading `/scout`, a value
 * quoted so that tokenize reads it back unchanged, and a line written back from typed options.
 */
import { readsAsKey, type Token } from './tokenize.js';

/**
 * Writes a value so that tokenize reads it back unchanged, in whichever quotes it does not contain: a value with
 * spaces or quotes, or one that would read as `key:value` (`status:negotiating`).
 */
export function quoteValue(value: string): string {
  if (value !== '' && !/[\s"'“”‘’«»]/.test(value) && !readsAsKey(value)) return value;
  for (const [open, close] of [
    ['"', '"'],
    ["'", "'"],
    ['“', '”'],
    ['«', '»'],
    ['‘', '’'],
  ] as const) {
    if (!value.includes(close)) return `${open}${value}${close}`;
  }
  // A value holding every closing quote cannot be quoted whole: its last kind of quote is dropped.
  return `"${value.replace(/"/g, '')}"`;
}

/** A token written back so that tokenize reads it as it was: `key:value` with the value quoted as needed, or a word. */
export function tokenText(token: Token): string {
  return token.key === null ? token.source : `${token.key}:${quoteValue(token.value)}`;
}

/** The leading `/scout` (or `scout`) a line may carry: chat platforms strip it, the terminal and mentions keep it. */
const PREFIX = /^\/?scout\b\s*/i;

/** The line without its surrounding space and its leading `/scout`, if any. */
export function withoutPrefix(line: string): string {
  return line.trim().replace(PREFIX, '');
}

/**
 * The command line of `family command` with `options` written as `name:value` (each value quoted as tokenize
 * needs), then `more`: text in the syntax already (free filters), kept as it is.
 */
export function commandLine(
  family: string,
  command: string,
  options: Readonly<Record<string, string>>,
  more = '',
): string {
  const typed = Object.entries(options).map(([key, value]) => tokenText({ key, value, source: value }));
  return [family, command, ...typed, more.trim()].filter((part) => part !== '').join(' ');
}
