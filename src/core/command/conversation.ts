/**
 * A line typed in a conversation (a direct message, a mention's thread, the terminal): a follow-up acts on the last
 * answer's buttons in words (`next`, `details of the second`, `add the first three to Spring Launch`), or refines
 * the last command (`only with email`, `in Germany instead`) through plain words. The last answer is kept with the
 * tenant in the database (store/conversations.ts), so this holds across a restart and across replicas; a button
 * pressed on one of its answers makes that press's answer the last.
 */
import type { ConversationAction, ConversationState } from '../store/conversations.js';
import {
  isNumberedPress,
  isRefusal,
  notice,
  type Press,
  pressEvent,
  pressLines,
  type Reply,
  readPresses,
  renderText,
  reply,
} from '../ui/index.js';
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

/** Said of a press in words (`details of the second`) when the last answer has no such button. */
export const NOTHING_TO_PRESS =
  'The last answer here has no such button to press. Ask again, or type /scout help.';

/** A line that reads as a press in words (`details of the second`, `add the first three to …`). */
const isPressInWords = (text: string) => {
  const [first, ...more] = pressLines(text);
  return (
    isNumberedPress(text) ||
    more.length > 0 ||
    first !==
      text
        .trim()
        .replace(/[.!?]+$/, '')
        .replace(/\s+/g, ' ')
  );
};

/** Answers of several presses as one: their nodes in order, new messages (a typed press replaces nothing). */
function together(answers: readonly Reply[]): Reply {
  const last = answers.at(-1);
  if (answers.length === 1 && last !== undefined) return { ...last, replace: false };
  return reply(
    answers.flatMap((answer) => answer.nodes),
    { visibility: last?.visibility ?? 'author' },
  );
}

/** The buttons of an answer as a conversation keeps them (see store/conversations.ts). */
function actionsOf(answer: Reply): ConversationAction[] {
  return renderText(answer).actions.map(({ index, actionId, label, kind, options }) => ({
    index,
    actionId,
    label,
    kind,
    ...(options === undefined ? {} : { options: options.map(({ label, value }) => ({ label, value })) }),
  }));
}

/** A conversation's lines and presses. */
export interface Conversation {
  /** A typed line: a press in words of the last answer's buttons, or a command line that may refine the last. */
  line(invocation: Scoped & { text: string; conversation: string }): Promise<Reply>;
  /** A button pressed on one of its answers: the answer becomes the last one (Run's results, the next page). */
  pressed(invocation: Scoped & { conversation: string }, answer: Reply): Promise<void>;
}

/** Creates the runner of a conversation's lines. */
export function createConversation(
  env: Pick<DispatchEnv, 'store' | 'clock' | 'settings'>,
  parts: ConversationParts,
): Conversation {
  const { store, clock, settings } = env;

  /** Keeps `answer` as the conversation's last; an answer without buttons (a mistake) leaves the last ones. */
  const keep = async (
    invocation: Scoped & { conversation: string },
    state: ConversationState | undefined,
    line: string | null,
    answer: Reply,
  ) => {
    const actions = actionsOf(answer);
    const kept = actions.length > 0 || state === undefined ? actions : state.actions;
    const expiresAt = new Date(clock.now().getTime() + settings.elementTtlMs);
    await store.conversations.put(
      invocation.actor,
      invocation.conversation,
      { line, actions: kept },
      expiresAt,
    );
  };

  const pressAll = async (invocation: Scoped & { text: string }, presses: readonly Press[]) => {
    const answers: Reply[] = [];
    for (const press of presses) {
      const event = pressEvent(press);
      const pressed = await parts.press({ ...invocation, token: press.actionId, event });
      answers.push(pressed);
      // The same mistake would follow from every press (a list that does not exist): said once.
      if (isRefusal(pressed)) break;
    }
    return together(answers);
  };

  return {
    async line(invocation) {
      const { actor, conversation, text } = invocation;
      const state = await store.conversations.get(actor, conversation, clock.now());
      const read = state === undefined ? null : readPresses(text, state.actions);
      if (read?.kind === 'error') return reply([notice('warning', read.message)]);
      const ran: Ran = { line: state?.line ?? null };
      let answer: Reply;
      if (read?.kind === 'presses') answer = await pressAll(invocation, read.presses);
      else if (isPressInWords(text)) answer = reply([notice('warning', NOTHING_TO_PRESS)]);
      else {
        const after = state === undefined || state.line === null ? undefined : { line: state.line };
        answer = await parts.line(invocation, after, ran);
      }
      await keep(invocation, state, ran.line, answer);
      return answer;
    },
    async pressed(invocation, answer) {
      const state = await store.conversations.get(invocation.actor, invocation.conversation, clock.now());
      await keep(invocation, state, state?.line ?? null, answer);
    },
  };
}
