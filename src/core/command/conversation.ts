/**
 * A line typed in a conversation (a direct message, a mention's thread, the terminal): a follow-up acts on the last
 * answer's buttons in words (`next`, `details of the second`, `add the first three to Spring Launch`), or refines
 * the last command (`only with email`, `in Germany instead`) through plain words. The last answer is kept with the
 * tenant in the database (store/conversations.ts), so this holds across a restart and across replicas.
 */
import { notice, type Reply, readPresses, renderText, reply } from '../ui/index.js';
import type { FollowUp } from './interpret/types.js';
import type { DispatchEnv, Scoped } from './invocation.js';
import type { ActionEvent } from './types.js';

/** The exact command line a line ran as, filled in by whoever runs it. */
export interface Ran {
  line: string | null;
}

/** How a conversation's lines run: as a command line (with the last one to refine), or as a press. */
export interface ConversationParts {
  line(invocation: Scoped & { text: string }, after: FollowUp | undefined, ran: Ran): Promise<Reply>;
  press(invocation: Scoped & { token: string; event: ActionEvent }): Promise<Reply>;
}

/** An answer that says something went wrong. */
const refused = (answer: Reply) =>
  answer.nodes.some((node) => node.type === 'notice' && (node.level === 'warning' || node.level === 'error'));

/** Answers of several presses as one: their nodes in order, new messages (a typed press replaces nothing). */
function together(answers: readonly Reply[]): Reply {
  const last = answers.at(-1);
  if (answers.length === 1 && last !== undefined) return { ...last, replace: false };
  return reply(
    answers.flatMap((answer) => answer.nodes),
    { visibility: last?.visibility ?? 'author' },
  );
}

/** Creates the runner of a conversation's lines. */
export function createConversation(
  env: Pick<DispatchEnv, 'store' | 'clock' | 'settings'>,
  parts: ConversationParts,
) {
  const { store, clock, settings } = env;
  return async (invocation: Scoped & { text: string; conversation: string }): Promise<Reply> => {
    const { actor, conversation } = invocation;
    const state = await store.conversations.get(actor, conversation, clock.now());
    const read = state === undefined ? null : readPresses(invocation.text, state.actions);
    if (read?.kind === 'error') return reply([notice('warning', read.message)]);
    let answer: Reply;
    const ran: Ran = { line: state?.line ?? null };
    if (read?.kind === 'presses') {
      const answers: Reply[] = [];
      for (const press of read.presses) {
        const event = press.value === undefined ? {} : { value: press.value };
        const pressed = await parts.press({ ...invocation, token: press.actionId, event });
        answers.push(pressed);
        // The same mistake would follow from every press (a list that does not exist): said once.
        if (refused(pressed)) break;
      }
      answer = together(answers);
    } else {
      const after = state?.line === null || state === undefined ? undefined : { line: state.line };
      answer = await parts.line(invocation, after, ran);
    }
    // An answer without buttons (a mistake) leaves the last ones to act on, as a terminal's screen does.
    const actions = renderText(answer).actions;
    const kept =
      actions.length > 0 || state === undefined
        ? actions.map(({ index, actionId, label, kind, options }) => ({
            index,
            actionId,
            label,
            kind,
            ...(options === undefined
              ? {}
              : { options: options.map(({ label, value }) => ({ label, value })) }),
          }))
        : state.actions;
    const expiresAt = new Date(clock.now().getTime() + settings.elementTtlMs);
    await store.conversations.put(actor, conversation, { line: ran.line, actions: kept }, expiresAt);
    return answer;
  };
}
