/** The one place errors become replies: short, actionable, visible to the author only. */
import { randomBytes } from 'node:crypto';
import { ZodError } from 'zod';
import { CreditCapError, StorageFullError, UnconfirmedChargeError } from '../credit-errors.js';
import type { Logger } from '../logger.js';
import { ServiceError, ServiceInputError } from '../service/errors.js';
import { isStorageFull } from '../store/ledger-settle.js';
import { PermissionError } from '../tenancy/roles.js';
import { codeBlock, notice, type Reply, reply } from '../ui/index.js';
import { CommandInputError, NotConnectedError } from './errors.js';
import { issueLines } from './issues.js';
import { ParamError, type ParamTable } from './params.js';
import { inPeopleWords, valuesInWords, valueWord } from './people-names.js';
import { TokenizeError } from './tokenize.js';
import type { CommandFamily } from './types.js';

/** A short reference to quote to whoever reads the logs. */
export function newReference(): string {
  return randomBytes(4).toString('hex');
}

function inputIssues(error: ServiceInputError, table: ParamTable): string {
  return issueLines(
    error.issues.map((issue) => {
      const values = issue.allowed?.map(valueWord);
      const allowed =
        values === undefined
          ? ''
          : values.length <= 12
            ? ` (allowed: ${values.join(', ')})`
            : ` (${values.length} allowed values: see /scout help)`;
      const message = valuesInWords(inPeopleWords(issue.message, table), issue.allowed);
      return {
        path: issue.field === '' ? [] : [inPeopleWords(issue.field, table)],
        message: `${message}${allowed}`,
      };
    }),
  );
}

/** The options a failed command takes, else those of every command of its family (an element's failure). */
function optionsOf(params: ParamTable | undefined, family: CommandFamily | undefined): ParamTable {
  if (params !== undefined || family === undefined) return params ?? {};
  return Object.assign({}, ...[...family.commands].reverse().map((def) => def.params));
}

/**
 * What the service says in its own terms, in Scout's: it points to its actions (`see action=weeks`), which people
 * reach as commands of the family that failed (`/scout songs weeks`), else through that family's help.
 */
export function inScoutTerms(message: string, family?: CommandFamily): string {
  return message.replace(/\baction=([\w-]+)/g, (_, name: string) => {
    if (family === undefined) return '/scout help';
    const command = family.commands.find((def) => def.name === name);
    return command === undefined ? `/scout help ${family.name}` : `/scout ${family.name} ${command.name}`;
  });
}

/**
 * Turns any error thrown while handling a command or an element into the reply its author sees; `family`, the
 * family of the command that failed, names the commands the service's message points to, and `params`, the
 * options of that command (else of its family), name the service's fields as people know them.
 */
export function errorReply(
  error: unknown,
  logger: Logger,
  usage: string | null = null,
  family?: CommandFamily,
  params?: ParamTable,
): Reply {
  const table = optionsOf(params, family);
  const withUsage = (message: string, shown: string | null) =>
    reply([notice('error', message), shown === null ? null : codeBlock(shown, { title: 'Usage' })]);
  if (error instanceof TokenizeError || error instanceof ParamError) return withUsage(error.message, usage);
  if (error instanceof CommandInputError) return withUsage(error.message, error.usage ?? usage);
  if (error instanceof ZodError) {
    const issues = error.issues.map(({ path, message }) => ({
      path,
      message: inPeopleWords(message, table),
    }));
    return withUsage(
      issueLines(issues, (field) => inPeopleWords(field, table)),
      usage,
    );
  }
  if (
    error instanceof PermissionError ||
    error instanceof CreditCapError ||
    error instanceof NotConnectedError ||
    error instanceof UnconfirmedChargeError ||
    error instanceof StorageFullError
  ) {
    return reply([notice('warning', error.message)]);
  }
  if (error instanceof ServiceInputError) return withUsage(`Not sent: ${inputIssues(error, table)}`, usage);
  if (error instanceof ServiceError) {
    const reference = newReference();
    logger.warn(
      {
        ref: reference,
        code: error.code,
        status: error.status,
        operation: error.operation,
        body: error.rawBody,
      },
      'service call failed',
    );
    const level = error.code === 'RATE_LIMITED' || error.code === 'NOT_FOUND' ? 'warning' : 'error';
    // The service's own words may name its fields (`images[0].zoomFactor`): said as the options people type.
    const said = inPeopleWords(inScoutTerms(error.message, family), table);
    return reply([notice(level, said, { reference })]);
  }
  if (isStorageFull(error)) {
    logger.error({ err: error }, 'Scout’s database cannot grow: the disk is full.');
    return reply([notice('error', new StorageFullError().message)]);
  }
  const reference = newReference();
  logger.error({ ref: reference, err: error }, 'unexpected error while handling a command');
  return reply([notice('error', 'Something went wrong. Please try again.', { reference })]);
}
