/**
 * What `list add` and `list check` say, sending nothing, of creators typed that cannot be sent: a list name of
 * several words typed without quotes before creator ids (`list add Spring Skincare Launch youtube_UC…` reads the
 * list "Spring" and the ids "Skincare", "Launch"), words that are no creator id, handles Scout cannot tell.
 */
import { matchChoice } from '../../core/command/suggest.js';
import type { CommandContext } from '../../core/command/types.js';
import type { CrmList } from '../../core/service/index.js';
import { code, type Inline, notice, type Reply, reply } from '../../core/ui/index.js';
import { quoted } from './common.js';
import {
  type CreatorBook,
  creatorBook,
  type Handles,
  isHandle,
  looksLikeCreatorId,
  sortTyped,
  type TypedCreators,
} from './creator-refs.js';
import { hasList, type ListTarget } from './resolve.js';

/** The command whose creators are answered. */
export type CreatorsVerb = 'add' | 'check';

const NOTHING: Record<CreatorsVerb, string> = { add: 'Nothing was added.', check: 'Nothing was checked.' };

/** Words named in an answer, at most; ids written in a line to copy, at most. */
const NAMED_MAX = 5;
const LINE_IDS_MAX = 10;

/** Names a few of `items`, and how many more there are. */
function named(items: readonly string[], show: (item: string) => string = (item) => item): string {
  const more = items.length - NAMED_MAX;
  return `${items.slice(0, NAMED_MAX).map(show).join(', ')}${more > 0 ? ` and ${more} more` : ''}`;
}

/** A list name and the creators after it, as a line to copy. */
function line(verb: CreatorsVerb, name: string, refs: readonly string[]): string {
  const shown = refs.slice(0, LINE_IDS_MAX).join(' ');
  return `/scout list ${verb} ${quoted(name)}${shown === '' ? '' : ` ${shown}`}${refs.length > LINE_IDS_MAX ? ' …' : ''}`;
}

/** The words right after the list name that are no creator id nor handle. */
function leadingWords(words: readonly string[]): string[] {
  const end = words.findIndex((word) => looksLikeCreatorId(word) || isHandle(word));
  return words.slice(0, end < 0 ? words.length : end);
}

/**
 * The team's list a name typed without quotes meant, when the words after it complete (or nearly) a list's name,
 * with the creators typed after those words; null when they complete none.
 */
export function unquotedName(
  lists: readonly CrmList[],
  name: string,
  words: readonly string[],
): { name: string; refs: string[] } | null {
  const leading = leadingWords(words);
  const names = lists.flatMap((list) => (list.name ? [list.name] : []));
  for (let taken = leading.length; taken >= 1; taken--) {
    const guess = matchChoice([name, ...leading.slice(0, taken)].join(' '), names);
    const meant = guess.ok ? guess.value : guess.suggestions[0];
    if (meant !== undefined) return { name: meant, refs: words.slice(taken) };
  }
  return null;
}

function refused(ctx: CommandContext, content: readonly Inline[]): Reply {
  ctx.changedNothing();
  return reply([notice('warning', content)]);
}

/**
 * The answer to creators typed that cannot be sent as they are: a name that needs quotes, words that are no
 * creator id; null when every word is a creator id or a handle and the list name reads as typed.
 */
export function typedRefusal(
  ctx: CommandContext,
  verb: CreatorsVerb,
  lists: readonly CrmList[],
  name: string,
  typed: TypedCreators,
  words: readonly string[],
): Reply | null {
  const meant = unquotedName(lists, name, words);
  const quotes = 'needs quotes when creator ids follow it: ';
  if (meant !== null && !hasList(lists, name)) {
    return refused(ctx, [
      `There is no list "${name}". A list name of several words ${quotes}`,
      code(line(verb, meant.name, meant.refs)),
      `. ${NOTHING[verb]}`,
    ]);
  }
  if (typed.others.length === 0) return null;
  const leading = leadingWords(words);
  const hint: Inline[] =
    meant !== null
      ? [
          ` If you meant the list "${meant.name}", its name ${quotes}`,
          code(line(verb, meant.name, meant.refs)),
          '.',
        ]
      : leading.length > 0
        ? [
            ` A list name of several words ${quotes}`,
            code(line(verb, [name, ...leading].join(' '), words.slice(leading.length))),
            '.',
          ]
        : [];
  return refused(ctx, [
    `Not creator ids: ${named(typed.others, (word) => `"${word}"`)}. A creator id looks like tiktok_123 or `,
    'youtube_UC… (as search results give it); a handle starts with @.',
    ...hint,
    ` ${NOTHING[verb]}`,
  ]);
}

/** The answer to handles Scout cannot tell (no creator, or several); null when every handle was found. */
export function handlesRefusal(ctx: CommandContext, verb: CreatorsVerb, handles: Handles): Reply | null {
  if (handles.unknown.length === 0 && handles.several.length === 0) return null;
  const said: string[] = [];
  if (handles.unknown.length > 0) {
    const one = handles.unknown.length === 1;
    said.push(
      `Scout does not know who ${named(handles.unknown)} ${one ? 'is' : 'are'}: no profile looked up and no ` +
        `contact in your lists has ${one ? 'that handle' : 'those handles'}.`,
    );
  }
  for (const { handle, ids } of handles.several.slice(0, NAMED_MAX)) {
    said.push(`${handle} is more than one creator (${named(ids)}).`);
  }
  return refused(ctx, [
    `${said.join(' ')} Give the creator id instead, as search results give it (tiktok_123). ${NOTHING[verb]}`,
  ]);
}

/** The creators typed after a list, ready to send: their ids, each once, and the book that found them. */
export interface ReadCreators {
  readonly ids: string[];
  readonly book: CreatorBook;
}

/**
 * Reads the words typed after a list (`target`, null for a list not made yet) as creator ids to send, handles
 * turned into ids; or the answer that sends nothing.
 */
export async function readTyped(
  ctx: CommandContext,
  verb: CreatorsVerb,
  lists: readonly CrmList[],
  request: { name: string; target: ListTarget | null; words: readonly string[] },
): Promise<ReadCreators | { answer: Reply }> {
  const typed = sortTyped(request.words);
  const refusal = typedRefusal(ctx, verb, lists, request.name, typed, request.words);
  if (refusal !== null) return { answer: refusal };
  const book = creatorBook(ctx, lists, request.target);
  const handles = await book.resolve(typed.handles);
  const unknown = handlesRefusal(ctx, verb, handles);
  if (unknown !== null) return { answer: unknown };
  const ids = typed.refs.map((ref) => handles.ids.get(ref) ?? ref);
  return { ids: [...new Set(ids)], book };
}
