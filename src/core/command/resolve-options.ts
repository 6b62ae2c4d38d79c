/**
 * A command's options to its input: typed options (Discord's, a secret form's) coerced like their text, a form's
 * tokens bound like a typed line's, the input validated by the command's schema, secrets kept out of the text that
 * is stored, and the answer to a mistake in them.
 */
import type { Logger } from '../logger.js';
import { inputErrorMap } from '../service/index.js';
import { buttons, type Reply } from '../ui/index.js';
import { bindTokens, typedName } from './bind.js';
import { errorReply } from './error-reply.js';
import { CommandInputError } from './errors.js';
import { commandFormId, formButton, hasForm } from './forms/index.js';
import { issueLines } from './issues.js';
import { coerceParam, ParamError, resolveKey } from './params.js';
import { inPeopleWords } from './people-names.js';
import { keyedTokens, lineOf, resolveText } from './routing.js';
import { type Token, TokenizeError } from './tokenize.js';
import type { CommandDef, CommandFamily, CommandRegistry } from './types.js';
import { usageLine } from './usage.js';

/** A command's raw input, before its schema, and the command line it reads as. */
export interface Gathered {
  raw: Record<string, unknown>;
  text: string;
}

/** A command whose secret options are asked for in a private form. */
export interface SecretPrompt {
  family: string;
  command: string;
  /** The command as people type it, for the form's title: `/scout connect key`. */
  line: string;
  /** The options given on the line besides the secrets, to submit with them. */
  given: Readonly<Record<string, string>>;
  fields: ReadonlyArray<{ name: string; label: string }>;
}

/** Typed options (Discord's, a secret form's) as a command's raw input, each coerced like its text. */
export function optionsInput(def: CommandDef<unknown>, options: Readonly<Record<string, string>>): Gathered {
  const raw: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(options)) {
    const name = resolveKey(def.params, key);
    const spec = name === null ? undefined : def.params[name];
    if (name === null || spec === undefined)
      throw new CommandInputError(`Unknown option "${key}".`, usageLine(def));
    Object.assign(raw, coerceParam(name, spec, value));
  }
  return { raw, text: lineOf(def, keyedTokens(options)) };
}

/** A submitted form's tokens as a command's raw input, bound as the typed line would be. */
export function tokensInput(def: CommandDef<unknown>, tokens: readonly Token[]): Gathered {
  return { raw: bindTokens(def.params, tokens), text: lineOf(def, tokens) };
}

/** The input of `def` from raw options, validated by its schema; throws CommandInputError naming what is wrong. */
export function validInput(def: CommandDef<unknown>, raw: Record<string, unknown>): unknown {
  // Zod's own issues are worded as the client's are: `must be at most 5`, said of the option.
  const parsed = def.schema.safeParse(raw, { error: inputErrorMap });
  if (parsed.success) return parsed.data;
  // Fields are named as typed, else as people know them, in the sentence and in what it says of other fields.
  const typed = (field: string) => typedName(raw, field);
  const issues = parsed.error.issues.map((issue) => ({
    path: issue.path,
    message: inPeopleWords(issue.message, def.params, typed),
  }));
  const named = (field: string) => typed(field) ?? inPeopleWords(field, def.params, typed);
  throw new CommandInputError(issueLines(issues, named), usageLine(def));
}

/** The command text kept with buttons and answers ("run it again"), with any secret value it carries hidden. */
export function withoutSecrets(def: CommandDef<unknown>, raw: Record<string, unknown>, text: string): string {
  let shown = text;
  for (const [param, spec] of Object.entries(def.params)) {
    const value = raw[param];
    if (spec.secret === true && typeof value === 'string' && value !== '')
      shown = shown.split(value).join('[secret]');
  }
  return shown;
}

/**
 * The secret options (an API key) a command line names and does not give; null when it names no such command,
 * gives them all or does not resolve.
 */
export function secretsOf(registry: CommandRegistry, line: string): SecretPrompt | null {
  try {
    const { def, tokens } = resolveText(registry, line);
    const raw = bindTokens(def.params, tokens);
    const secrets = Object.entries(def.params).filter(([, spec]) => spec.secret === true);
    if (secrets.every(([name]) => raw[name] !== undefined)) return null;
    // The form asks for every secret again, and what it keeps of the line holds none: a secret typed beside a
    // missing one is not kept waiting in the database.
    const fields = secrets.map(([name, spec]) => ({ name, label: spec.description }));
    const given: Record<string, string> = {};
    for (const [name, value] of Object.entries(raw))
      if (typeof value === 'string' && def.params[name]?.secret !== true) given[name] = value;
    return { family: def.family, command: def.name, line: `/scout ${def.family} ${def.name}`, given, fields };
  } catch {
    return null;
  }
}

/** A mistake in the command line itself: answered from the line alone. */
export const isInputError = (error: unknown) =>
  error instanceof CommandInputError || error instanceof TokenizeError || error instanceof ParamError;

/**
 * The answer to a command that failed (`def` once it is known, of `family`), with its usage line; a mistake in its
 * options offers the command's form where the adapter opens forms.
 */
export function mistake(
  error: unknown,
  def: CommandDef<unknown> | null,
  forms: boolean | undefined,
  logger: Logger,
  family?: CommandFamily,
): Reply {
  const answer = errorReply(error, logger, def === null ? null : usageLine(def), family, def?.params);
  if (forms !== true || def === null || !hasForm(def) || !isInputError(error)) return answer;
  return { ...answer, nodes: [...answer.nodes, buttons(formButton('Form', commandFormId(def)))] };
}
