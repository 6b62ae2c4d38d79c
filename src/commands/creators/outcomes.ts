/** What adding creators to a list did, in words, from the service's add counters. */
import type { CrmAddResult, CrmList } from '../../core/service/crm.js';
import { fields, notice, type Reply, reply, text } from '../../core/ui/index.js';
import { type ResultsRef, sayMany, who } from './targets.js';
import type { CreatorRef, PageRef } from './views.js';

/** A list's name as people know it. */
export const nameOf = (list: CrmList) => list.name ?? list.id;

/** What adding one creator did. */
export function outcome(ref: CreatorRef, list: CrmList, result: CrmAddResult): Reply {
  const name = nameOf(list);
  const handle = who(ref);
  if ((result.reactivated_count ?? 0) > 0) {
    return reply(
      [
        notice('success', [
          `Added ${handle} to ${name} again`,
          ': they had been removed from it before, so their earlier entry is reactivated with status To outreach.',
        ]),
      ],
      { visibility: 'channel' },
    );
  }
  if ((result.created_count ?? 0) > 0 || (result.added_count ?? 0) > 0) {
    return reply([notice('success', `Added ${handle} to ${name}.`)], { visibility: 'channel' });
  }
  if ((result.skipped_duplicate_count ?? 0) > 0) {
    return reply([notice('info', `${handle} is already in ${name}: nothing changed.`)]);
  }
  if ((result.skipped_invalid_count ?? 0) > 0) {
    return reply([
      notice('warning', `The service did not accept ${handle} as a creator id: nothing was added.`),
    ]);
  }
  return reply([notice('info', `The service added nothing to ${name} for ${handle}.`)]);
}

const counter = (value: number | null) => value ?? '—';

/** What adding several creators did: a sentence, and the service's counters as it reported them. */
export function manyOutcome(target: PageRef | ResultsRef, list: CrmList, result: CrmAddResult): Reply {
  const name = nameOf(list);
  const added = result.added_count ?? (result.created_count ?? 0) + (result.reactivated_count ?? 0);
  const already = result.skipped_duplicate_count ?? 0;
  const invalid = result.skipped_invalid_count ?? 0;
  const said = sayMany(target);
  const headline =
    added > 0
      ? notice('success', `Added ${added} of ${said.the} to ${name}.`)
      : already > 0 && invalid === 0
        ? notice('info', `${said.all} are already in ${name}: nothing changed.`)
        : notice('warning', `Nothing was added to ${name}.`);
  return reply(
    [
      headline,
      fields([
        { label: 'Added', value: counter(result.added_count), inline: true },
        { label: 'Reactivated', value: counter(result.reactivated_count), inline: true },
        { label: 'Already there', value: counter(result.skipped_duplicate_count), inline: true },
        ...(invalid > 0 ? [{ label: 'Not accepted', value: invalid, inline: true }] : []),
      ]),
      (result.reactivated_count ?? 0) > 0
        ? text(
            'Reactivated creators had been removed from the list before; they are back with status To outreach.',
          )
        : null,
    ],
    { visibility: added > 0 ? 'channel' : 'author' },
  );
}
