/** How a command or an element press ended, as the metrics count it: a small fixed set, never free text. */
import { ZodError } from 'zod';
import { CreditCapError, StorageFullError, UnconfirmedChargeError } from '../credit-errors.js';
import { ServiceError, ServiceInputError } from '../service/errors.js';
import { isStorageFull } from '../store/ledger-settle.js';
import { PermissionError } from '../tenancy/roles.js';
import { CommandInputError, NotConnectedError } from './errors.js';
import { ParamError } from './params.js';
import { TokenizeError } from './tokenize.js';

/**
 * `ok`: answered; `confirm`: asked to confirm its cost; `duplicate`: a repeat answered from the first run;
 * `cancelled`: stopped while waiting; `expired`: an element that no longer works; `input_error`: bad input, nothing
 * sent; `refused`: outside the tenants, not allowed, not connected or over a cap; `service_error`: the service
 * answered with an error or could not be reached; `lost_answer`: a paid call whose answer was lost; `storage_full`:
 * the database could not grow; `error`: anything else.
 */
export type CommandOutcome =
  | 'ok'
  | 'confirm'
  | 'duplicate'
  | 'cancelled'
  | 'expired'
  | 'input_error'
  | 'refused'
  | 'service_error'
  | 'lost_answer'
  | 'storage_full'
  | 'error';

/** The outcome of an invocation that failed with `error` (the error renderer's classes, in its order). */
export function outcomeOf(error: unknown): CommandOutcome {
  if (
    error instanceof TokenizeError ||
    error instanceof ParamError ||
    error instanceof CommandInputError ||
    error instanceof ZodError ||
    error instanceof ServiceInputError
  ) {
    return 'input_error';
  }
  if (
    error instanceof PermissionError ||
    error instanceof CreditCapError ||
    error instanceof NotConnectedError
  ) {
    return 'refused';
  }
  if (error instanceof UnconfirmedChargeError) return 'lost_answer';
  if (error instanceof StorageFullError || isStorageFull(error)) return 'storage_full';
  if (error instanceof ServiceError) return 'service_error';
  return 'error';
}

/** What an invocation is counted as: its family once known, and how it ended (`ok` unless said otherwise). */
export interface Tally {
  family: string;
  outcome: CommandOutcome;
  /** Credits spent before the work failed: its answer, a mistake's, still ends with them (see costLine). */
  spentBeforeFailing?: number;
}

/** The family label of what cannot be named (an unknown command, an expired element): never free text. */
export const UNKNOWN = 'unknown';

/** Where the dispatcher counts each command and element press, by family and outcome. */
export interface DispatcherMetrics {
  /** A command ended. */
  command(family: string, outcome: CommandOutcome): void;
  /** An element press ended. */
  action(family: string, outcome: CommandOutcome): void;
}
