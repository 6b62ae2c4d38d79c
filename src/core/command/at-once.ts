/**
 * What an adapter can send in its acknowledgement, before the dispatcher runs anything: the answer of a line that
 * needs nothing but itself (help, a usage or validation error of exact syntax; plain words go to the dispatcher),
 * counted as a command, and the working message of a line that needs the dispatcher. Nothing here checks who asks: adapters call these for people of served tenants.
 */
import type { Logger } from '../logger.js';
import { notice, type Reply, reply } from '../ui/index.js';
import { bindTokens } from './bind.js';
import type { Interpreter } from './interpret/types.js';
import { type DispatcherMetrics, outcomeOf, type Tally, UNKNOWN } from './outcome.js';
import { isWordless, mayBeWords } from './plain-words.js';
import { isInputError, mistake, validInput } from './resolve-options.js';
import { familyOfLine, type ResolvedLine, resolveText } from './routing.js';
import { withoutPrefix } from './syntax.js';
import type { CommandDef, CommandRegistry } from './types.js';
import { WORKING } from './waiting.js';

/** Answers given at once that are kept, by their line. */
export const AT_ONCE_KEPT = 256;

/** The answers of the acknowledgement. */
export interface AtOnce {
  /** See Dispatcher.atOnce. */
  atOnce(line: string, options?: { forms?: boolean }): Reply | null;
  /** See Dispatcher.working. */
  working(line: string): Reply | null;
}

/** Creates the answers of the acknowledgement, each counted in `metrics` as a command. */
export function createAtOnce(deps: {
  registry: CommandRegistry;
  logger: Logger;
  metrics: DispatcherMetrics | undefined;
  interpreter: Interpreter;
}): AtOnce {
  const { registry, logger, metrics, interpreter } = deps;
  const kept = new Map<string, { tally: Tally; answer: Reply }>();

  return {
    atOnce(line, options = {}) {
      const known = kept.get(line);
      if (known !== undefined) {
        metrics?.command(known.tally.family, known.tally.outcome);
        return known.answer;
      }
      // A line with no word in it is answered by the dispatcher, as on every surface.
      if (isWordless(registry, line)) return null;
      const tally: Tally = { family: UNKNOWN, outcome: 'ok' };
      let def: CommandDef<unknown> | null = null;
      let resolved: ResolvedLine | null = null;
      let answer: Reply | null;
      try {
        resolved = resolveText(registry, line);
        def = resolved.def;
        tally.family = def.family;
        const input = validInput(def, bindTokens(def.params, resolved.tokens));
        answer = def.answer === undefined ? null : def.answer(input, registry);
      } catch (error) {
        // Words that read as a request are the dispatcher's to answer (shown first, or suggested).
        if (!isInputError(error)) return null;
        if (mayBeWords(line, resolved, error) && interpreter.interpret(withoutPrefix(line)).length > 0)
          return null;
        tally.outcome = outcomeOf(error);
        if (tally.family === UNKNOWN) tally.family = familyOfLine(registry, line);
        answer = mistake(error, def, options.forms, logger);
      }
      if (answer === null) return null;
      metrics?.command(tally.family, tally.outcome);
      // Help's line always has the same answer: kept, so that it is neither computed nor rendered again. A
      // mistake's answer is not kept: the line may hold what should not stay in memory (a key typed in the wrong
      // place).
      if (tally.outcome === 'ok') {
        if (kept.size >= AT_ONCE_KEPT) kept.clear();
        kept.set(line, { tally, answer });
      }
      return answer;
    },

    working(line) {
      try {
        const { def } = resolveText(registry, line);
        return def.answer === undefined ? reply([notice('info', def.working ?? WORKING)]) : null;
      } catch {
        return null;
      }
    },
  };
}
