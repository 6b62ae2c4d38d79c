/** Errors of the command layer, each turned into a short message for the author by the error renderer. */

import { ScoutError } from '../errors.js';
import { formatCredits } from '../ui/format.js';

/** The command text or its options are wrong; `usage` shows how to write it. */
export class CommandInputError extends ScoutError {
  override readonly name = 'CommandInputError';
  readonly code = 'INVALID_COMMAND';
  constructor(
    message: string,
    readonly usage: string | null = null,
  ) {
    super(message);
  }
}

/** The person may not run this command. */
export class PermissionError extends ScoutError {
  override readonly name = 'PermissionError';
  readonly code = 'NOT_ALLOWED';
}

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

/** The tenant has not connected a service account yet; admins are told how, members whom to ask. */
export class NotConnectedError extends ScoutError {
  override readonly name = 'NotConnectedError';
  readonly code = 'NOT_CONNECTED';
  /** `unreadable`: a key is stored but cannot be decrypted (SCOUT_ENCRYPTION_KEY changed). */
  constructor(isAdmin: boolean, unreadable = false) {
    const what = unreadable
      ? 'The service key stored here can no longer be read (the deployment’s encryption key changed).'
      : 'No service account is connected here yet.';
    super(
      isAdmin
        ? `${what} Run /scout connect key to enter the team’s API key of the service.`
        : `${what} Ask an admin to run /scout connect.`,
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
