/**
 * Errors of paying for work: the daily cap, a charge whose answer was lost, a database too full to record one. The
 * credit guard (credits.ts) raises them and the command layer answers them, so they live below both.
 */

import { ScoutError } from './errors.js';
import { formatCredits } from './ui/format.js';

/** Running the command would exceed the person's daily credit cap. */
export class CreditCapError extends ScoutError {
  override readonly name = 'CreditCapError';
  readonly code = 'DAILY_CAP_REACHED';
  constructor(
    readonly cap: number,
    readonly spentToday: number,
    readonly estimate: number,
  ) {
    super(
      `This needs up to ${formatCredits(estimate)}, and your daily cap is ${cap} (${spentToday} spent today). ` +
        'Ask an admin to raise it, or try again tomorrow (caps reset at 00:00 UTC).',
    );
  }
}

/**
 * A paid call may have been charged, but its answer was lost (the connection dropped, a 5xx, a time-out, an
 * unreadable body). It is not sent again by itself: the ledger counts it at its estimate, unconfirmed, and the
 * person decides whether to retry.
 */
export class UnconfirmedChargeError extends ScoutError {
  override readonly name = 'UnconfirmedChargeError';
  readonly code = 'UNCONFIRMED_CHARGE';
  constructor(
    /** The call whose answer was lost. */
    readonly operation: string,
    /** The most it can have cost. */
    readonly estimate: number,
    cause: unknown,
  ) {
    super(
      `The service may have charged for this (up to ${formatCredits(estimate)}), but its answer was lost, so Scout did not send it again. ` +
        'It is counted as unconfirmed in /scout credits until the service’s balance settles it.',
      { cause },
    );
  }
}

/** Scout's database cannot grow (the disk is full). */
export class StorageFullError extends ScoutError {
  override readonly name = 'StorageFullError';
  readonly code = 'STORAGE_FULL';
  /** `beforeSending`: the paid call it stopped was not sent, so nothing was charged. */
  constructor(beforeSending = false) {
    super(
      beforeSending
        ? 'Scout’s storage is full, so nothing was sent and nothing was charged. Ask whoever runs Scout to free disk space.'
        : 'Scout’s storage is full, so this could not finish; any credit already spent is counted. Ask whoever runs Scout to free disk space.',
    );
  }
}
