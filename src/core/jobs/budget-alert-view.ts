/** The private message of a budget alert: the person's spend against their daily cap, or the team's low balance. */
import type { AlertPayload, BalanceDetails, CapDetails } from '../store/budget-alerts.js';
import { bold, fields, formatInteger, mention, notice, type Reply, reply, text } from '../ui/index.js';

const credits = (amount: number) => `${formatInteger(amount)} credit${amount === 1 ? '' : 's'}`;

/** An instant as "2026-03-11 00:00 UTC". */
const utcMinute = (iso: string) => `${iso.slice(0, 16).replace('T', ' ')} UTC`;

function capReply(details: CapDetails, reached: boolean): Reply {
  const { spent, cap } = details;
  const headline = reached
    ? notice('warning', [
        'You have reached your daily credit cap: ',
        bold(`${formatInteger(spent)} of ${credits(cap)}`),
        ' spent today. Paid commands are refused until it resets at 00:00 UTC.',
      ])
    : notice('warning', [
        'You have used ',
        bold(`${Math.floor((spent * 100) / cap)}%`),
        ` of your daily credit cap: ${formatInteger(spent)} of ${credits(cap)} spent today. It resets at 00:00 UTC.`,
      ]);
  return reply(
    [
      headline,
      fields([
        { label: 'Spent today', value: credits(spent), inline: true },
        { label: 'Daily cap', value: credits(cap), inline: true },
        { label: 'Resets', value: utcMinute(details.resetsAt), inline: true },
      ]),
      text('/scout credits shows where it went; an admin can change caps with /scout credits cap.'),
    ],
    { visibility: 'channel' },
  );
}

function balanceReply(details: BalanceDetails): Reply {
  return reply(
    [
      notice('warning', [
        'The team’s service balance is down to ',
        bold(credits(details.balance)),
        `, below the alert threshold of ${credits(details.threshold)}. Paid commands fail once it runs out: top up the service account.`,
      ]),
      fields([
        { label: 'Balance', value: credits(details.balance), inline: true },
        { label: 'Alert below', value: credits(details.threshold), inline: true },
      ]),
      text('Reported after a paid call by ', mention(details.crossedBy), '. /scout credits shows the spend.'),
    ],
    { visibility: 'channel' },
  );
}

/** The message of an alert. */
export function alertReply(alert: Pick<AlertPayload, 'threshold' | 'details'>): Reply {
  const { details } = alert;
  return details.kind === 'balance' ? balanceReply(details) : capReply(details, alert.threshold === '100');
}
