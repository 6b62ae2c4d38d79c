/**
 * The answers that ask before spending or say something can no longer be done: the confirmation of a cost above
 * the threshold, the Retry of a paid call whose answer was lost, and "expired" with its Run it again. Their buttons
 * are built-in elements (builtin-actions.ts) carrying what they confirm or run.
 */
import { z } from 'zod';
import type { UnconfirmedChargeError } from '../credit-errors.js';
import { bold, button, buttons, formatCredits, notice, type Reply, reply } from '../ui/index.js';

/** The kind of a Confirm (and Retry) button. */
export const CONFIRM = 'scout.confirm';
/** The kind of a confirmation's Cancel button. */
export const CANCEL = 'scout.cancel';
/** The kind of a Run it again button. */
export const RERUN = 'scout.rerun';

/** What a Confirm button runs once pressed: a command with its raw input, or an element press. */
export const confirmPayload = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('command'),
    family: z.string(),
    command: z.string(),
    input: z.record(z.string(), z.unknown()),
    text: z.string(),
  }),
  z.object({
    type: z.literal('action'),
    token: z.string(),
    event: z.object({
      value: z.string().optional(),
      values: z.record(z.string(), z.string()).optional(),
      choices: z.array(z.string()).readonly().optional(),
    }),
  }),
]);
export type ConfirmPayload = z.infer<typeof confirmPayload>;

/** Makes a button only the person acting may press, of `kind` with `payload`, for the answer being built. */
export type PersonalToken = (kind: string, payload: unknown) => string;

/** Asks to confirm a cost above the threshold, saying what the person spent today; Cancel spends nothing. */
export function confirmationReply(
  token: PersonalToken,
  estimate: number,
  spentToday: number,
  payload: ConfirmPayload,
): Reply {
  const confirmToken = token(CONFIRM, payload);
  const cancelToken = token(CANCEL, { confirmToken });
  return reply([
    notice('warning', [
      'This will cost up to ',
      bold(formatCredits(estimate)),
      spentToday === 0
        ? '. You have spent none today.'
        : `. You have spent ${formatCredits(spentToday)} today.`,
    ]),
    buttons(
      button(`Confirm (${formatCredits(estimate)})`, confirmToken, { style: 'primary' }),
      button('Cancel', cancelToken, { style: 'secondary' }),
    ),
  ]);
}

/** Says a paid call's answer was lost, and offers to run the work again at its stated cost (never by itself). */
export function answerLostReply(
  token: PersonalToken,
  error: UnconfirmedChargeError,
  cost: number,
  payload: ConfirmPayload,
): Reply {
  const retryToken = token(CONFIRM, payload);
  return reply([
    notice('warning', error.message),
    buttons(button(`Retry (up to ${formatCredits(cost)})`, retryToken, { style: 'primary' })),
  ]);
}

/** Says an element no longer works; with the token of a Run it again button, that its results expired. */
export function expiredReply(rerunToken?: string): Reply {
  return reply([
    notice(
      'warning',
      rerunToken === undefined
        ? 'This button no longer works. Run the command again.'
        : 'These results have expired.',
    ),
    rerunToken === undefined ? null : buttons(button('Run it again', rerunToken, { style: 'primary' })),
  ]);
}

/** Says the results expired and, when the command line is known, offers a button that runs it again. */
export function expiredFor(token: PersonalToken, rerun: string | null): Reply {
  return rerun === null ? expiredReply() : expiredReply(token(RERUN, { text: rerun }));
}
