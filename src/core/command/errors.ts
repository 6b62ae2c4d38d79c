/** Errors of the command layer, each turned into a short message for the author by the error renderer. */

/** The command text or its options are wrong; `usage` shows how to write it. */
export class CommandInputError extends Error {
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
export class PermissionError extends Error {
  override readonly name = 'PermissionError';
  readonly code = 'NOT_ALLOWED';
}

/** Running the command would exceed the person's daily credit cap. */
export class CreditCapError extends Error {
  override readonly name = 'CreditCapError';
  readonly code = 'DAILY_CAP_REACHED';
  constructor(
    readonly cap: number,
    readonly spentToday: number,
    readonly estimate: number,
  ) {
    super(
      `This needs up to ${estimate} credits, and your daily cap is ${cap} (${spentToday} spent today). ` +
        'Ask an admin to raise it, or try again tomorrow (caps reset at 00:00 UTC).',
    );
  }
}

/** The tenant has not connected a service account yet; admins are told how, members whom to ask. */
export class NotConnectedError extends Error {
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
