/**
 * The command line as people type it, around the tokens (tokenize.ts): the optional leading `/scout`, and a line
 * written back from typed options so that tokenize reads it as they were given.
 */
import { quoteValue } from '../ui/form.js';

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
  const typed = Object.entries(options).map(([name, value]) => `${name}:${quoteValue(value)}`);
  return [family, command, ...typed, more.trim()].filter((part) => part !== '').join(' ');
}
