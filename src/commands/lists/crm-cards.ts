/**
 * Cards of CRM lists and contacts: what each shows is decided here, with the lists' commands, once, and every renderer lays the card out
 * the same way. Input types are minimal structural views of the contract's objects; any member may be missing.
 */
import { CRM_STATUSES, type CrmStatus } from '../../core/service/enums.js';
import {
  type Button,
  CARD_LONG_TEXT_MAX,
  CARD_SHORT_TEXT_MAX,
  type CardNode,
  card,
  displayEmail,
  finiteOrNull,
  formatDate,
  type Maybe,
  MISSING,
  normalizeHandle,
  shortText,
} from '../../core/ui/index.js';

/** Display labels of the CRM statuses. */
export const CRM_STATUS_LABELS: Readonly<Record<CrmStatus, string>> = {
  TO_OUTREACH: 'To outreach',
  OUTREACHED: 'Outreached',
  NEGOTIATING: 'Negotiating',
  WORKING: 'Working',
  DONE: 'Done',
  CANCELLED: 'Cancelled',
};

/** A CRM status in any letter case (the service accepts any), upper-cased; null when unknown. */
export function normalizeCrmStatus(status: Maybe<string>): CrmStatus | null {
  if (typeof status !== 'string') return null;
  const upper = status.trim().toUpperCase();
  return CRM_STATUSES.find((known) => known === upper) ?? null;
}

/** The CRM list members a card uses. */
export interface CrmListInput {
  readonly id?: Maybe<string>;
  readonly name?: Maybe<string>;
  readonly description?: Maybe<string>;
  readonly budget?: Maybe<number>;
  readonly contact_count?: Maybe<number>;
  readonly to_outreach_count?: Maybe<number>;
  readonly start_date?: Maybe<string>;
  readonly end_date?: Maybe<string>;
}

/** A CRM list as a card: its name, description, counts, budget and dates. */
export function listRow(
  list: CrmListInput,
  options: { readonly actions?: readonly Button[] } = {},
): CardNode {
  const start = formatDate(list.start_date);
  const end = formatDate(list.end_date);
  return card({
    title: shortText(list.name, CARD_SHORT_TEXT_MAX) ?? shortText(list.id, 100) ?? 'Unnamed list',
    body: [shortText(list.description, CARD_LONG_TEXT_MAX)],
    fields: [
      { label: 'Contacts', value: finiteOrNull(list.contact_count), inline: true },
      { label: 'To outreach', value: finiteOrNull(list.to_outreach_count), inline: true },
      { label: 'Budget', value: finiteOrNull(list.budget), inline: true },
      {
        label: 'Dates',
        value: start === null && end === null ? MISSING : `${start ?? '…'} → ${end ?? '…'}`,
        inline: true,
      },
    ],
    actions: options.actions,
  });
}

/** The CRM contact members a card uses. */
export interface CrmContactInput {
  readonly id?: Maybe<string>;
  readonly list_id?: Maybe<string>;
  readonly user_id?: Maybe<string>;
  readonly status?: Maybe<string>;
  readonly contact_email?: Maybe<string>;
  readonly handle?: Maybe<string>;
  readonly proposed_rate?: Maybe<number>;
  readonly agreed_rate?: Maybe<number>;
  readonly content_deliverables?: Maybe<string>;
  readonly notes?: Maybe<string>;
  readonly last_contact_date?: Maybe<string>;
}

/**
 * A creator in a CRM list as a card: "@handle" (or the creator id), the notes, the status, rates and dates. The
 * contact email is the team's own CRM data, so it is shown.
 */
export function contactRow(
  contact: CrmContactInput,
  options: { readonly actions?: readonly Button[] } = {},
): CardNode {
  const handle = normalizeHandle(contact.handle);
  const status = normalizeCrmStatus(contact.status);
  const notes = shortText(contact.notes, CARD_LONG_TEXT_MAX);
  return card({
    title: handle === null ? (shortText(contact.user_id, 100) ?? 'Unknown creator') : `@${handle}`,
    body: [notes === null ? null : `Notes: ${notes}`],
    fields: [
      { label: 'Status', value: status === null ? MISSING : CRM_STATUS_LABELS[status], inline: true },
      { label: 'Email', value: displayEmail(contact.contact_email), inline: true },
      { label: 'Proposed', value: finiteOrNull(contact.proposed_rate), inline: true },
      { label: 'Agreed', value: finiteOrNull(contact.agreed_rate), inline: true },
      {
        label: 'Deliverables',
        value: shortText(contact.content_deliverables, CARD_LONG_TEXT_MAX),
        inline: true,
      },
      { label: 'Last contact', value: formatDate(contact.last_contact_date), inline: true },
    ],
    actions: options.actions,
  });
}
