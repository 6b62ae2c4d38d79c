/**
 * What the plain-language interpreter gives: a sentence read as one of Scout's commands, written as the exact
 * command line it stands for, with the words it did not use and how sure it is. The interpreter is one small
 * interface so that another reading (a model's, say) could be offered beside the deterministic one.
 */

/** A sentence read as one command. */
export interface Interpretation {
  /** The family and command, as declared (`creators`, `search`). */
  family: string;
  command: string;
  /** The options, as the exact syntax would take them: option name (canonical) → value as typed (`10k-100k`). */
  options: Readonly<Record<string, string>>;
  /** The exact command line it stands for, without `/scout`: `creators search category:Fitness country:France`. */
  line: string;
  /** The sentence's words it did not use, as typed (`cool`, `asap`), without filler words. */
  unused: readonly string[];
  /** How sure the reading is, from 0 to 1: see CONFIDENT. */
  confidence: number;
  /** The reading is `after`'s command with this sentence's changes (the caller shows what changed). */
  refined?: boolean;
  /**
   * The line is the command the sentence asks for, with a value its command does not take (a range that counts
   * down, a negative number): the caller names the mistake instead of running or suggesting it.
   */
  mistaken?: true;
}

/** What a follow-up is read against: the exact command line of the last answer in the same conversation. */
export interface FollowUp {
  line: string;
}

/** Reads sentences as commands. */
export interface Interpreter {
  /**
   * The readings of a sentence, best first, at most three, mistaken ones among them; empty when nothing comes
   * close. With `after`, the sentence may refine the last command ("only with email", "in Germany instead"): the
   * reading is then that command with the change.
   */
  interpret(sentence: string, after?: FollowUp): readonly Interpretation[];
}

/** A reading at least this sure is acted on (shown before it spends or writes); below it, only suggested. */
export const CONFIDENT = 0.6;
