/** The errors of an option's value as typed: a value an option does not take, a word no option takes. */
import { ScoutError } from '../errors.js';

/** A problem with one option's value, phrased for the person who typed it. */
export class ParamError extends ScoutError {
  override readonly name: string = 'ParamError';
  readonly code = 'INVALID_OPTION';
  constructor(
    readonly param: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * A bare word a command has no place for (`creators fitness france`): a mistake in the exact syntax, or a request in
 * plain words, which the dispatcher then reads as such.
 */
export class StrayWordsError extends ParamError {
  override readonly name = 'StrayWordsError';
  constructor(message: string) {
    super('', message);
  }
}
