/**
 * Errors of the command layer, each turned into a short message for the author by the error renderer (which answers
 * PermissionError of tenancy/roles.ts and the credit guard's errors of credit-errors.ts too).
 */

import { ScoutError } from '../errors.js';

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
