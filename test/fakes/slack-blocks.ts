/**
 * What Slack refuses of a message's blocks, so the fake answers `invalid_blocks` where Slack would: more than 50
 * blocks; a carousel of no card or more than 10, a card whose title or subtitle passes 150 characters or body 200,
 * with none of a picture, title, body or buttons, or a hero image that is not an http(s) URL; a data table against
 * its rules (a header and 1-100 rows of one width, 1-20 columns, no empty cell, a rich text cell of known elements, 10,000 characters across the
 * message's tables); a section's text past 3,000 or more than 10 fields; an actions block of no element or more
 * than 25; a multi-select that lets more be chosen than it offers.
 * https://docs.slack.dev/reference/block-kit/blocks
 */

type Obj = Record<string, unknown>;

const textOf = (value: unknown) => String((value as Obj | undefined)?.text ?? '');

/** What is wrong with one card block of a carousel, or null. */
function cardProblem(card: Obj): string | null {
  if (card.type !== 'card') return `a carousel element of type ${String(card.type)}`;
  if (textOf(card.title).length > 150) return 'a card title over 150 characters';
  if (textOf(card.subtitle).length > 150) return 'a card subtitle over 150 characters';
  if (textOf(card.body).length > 200) return 'a card body over 200 characters';
  const actions = (card.actions ?? []) as Obj[];
  if (
    card.hero_image === undefined &&
    card.title === undefined &&
    card.body === undefined &&
    actions.length === 0
  )
    return 'a card with no picture, title, body or buttons';
  const hero = card.hero_image as Obj | undefined;
  if (hero !== undefined && !/^https?:\/\//i.test(String(hero.image_url ?? '')))
    return 'a card hero image that is not an http(s) URL';
  return null;
}

/** What is wrong with a rich text cell: it needs a section with at least one element, each a known kind. */
function richTextCellProblem(cell: Obj): string | null {
  const sections = (cell.elements ?? []) as Obj[];
  const elements = sections.flatMap((section) => (section.elements ?? []) as Obj[]);
  if (sections.length === 0 || elements.length === 0) return 'an empty rich text table cell';
  for (const element of elements) {
    if (element.type === 'user' && typeof element.user_id !== 'string')
      return 'a user element without user_id';
    if (!['user', 'text', 'link', 'emoji', 'channel'].includes(String(element.type)))
      return `a rich text element of type ${String(element.type)}`;
  }
  return null;
}

/** What is wrong with a data table block, and the characters it counts toward the message's budget. */
function tableProblem(block: Obj): { problem: string | null; size: number } {
  const rows = (block.rows ?? []) as Obj[][];
  let size = 0;
  if (rows.length < 2 || rows.length > 101) return { problem: `a data table of ${rows.length} rows`, size };
  const width = rows[0]?.length ?? 0;
  if (width < 1 || width > 20) return { problem: `a data table of ${width} columns`, size };
  for (const row of rows) {
    if (row.length !== width) return { problem: 'data table rows of different widths', size };
    for (const cell of row) {
      if (cell.type === 'rich_text') {
        const problem = richTextCellProblem(cell);
        if (problem !== null) return { problem, size };
        size += JSON.stringify(cell).length;
        continue;
      }
      const text = String(cell.text ?? '');
      if (text === '') return { problem: 'an empty data table cell', size };
      size += text.length;
    }
  }
  return { problem: null, size };
}

/** What is wrong with one block (other than a data table), or null. */
function blockProblem(block: Obj): string | null {
  if (block.type === 'carousel') {
    const cards = (block.elements ?? []) as Obj[];
    if (cards.length < 1 || cards.length > 10) return `a carousel of ${cards.length} cards`;
    for (const card of cards) {
      const problem = cardProblem(card);
      if (problem !== null) return problem;
    }
  }
  if (block.type === 'section') {
    if (textOf(block.text).length > 3000) return 'a section text over 3000 characters';
    const fields = (block.fields ?? []) as Obj[];
    if (fields.length > 10) return `a section of ${fields.length} fields`;
  }
  if (block.type === 'actions') {
    const elements = (block.elements ?? []) as Obj[];
    if (elements.length < 1 || elements.length > 25) return `an actions block of ${elements.length} elements`;
    for (const element of elements) {
      const options = (element.options ?? []) as unknown[];
      if (element.type === 'multi_static_select' && Number(element.max_selected_items ?? 1) > options.length)
        return 'a multi-select allowing more choices than it has options';
    }
  }
  return null;
}

/** Why Slack would answer `invalid_blocks` to a message with these blocks, or null when it takes them. */
export function blocksProblem(blocks: unknown): string | null {
  if (blocks === undefined) return null;
  if (!Array.isArray(blocks)) return 'blocks that are not a list';
  if (blocks.length > 50) return `${blocks.length} blocks, over 50`;
  let tables = 0;
  for (const block of blocks as Obj[]) {
    if (block.type === 'data_table') {
      const { problem, size } = tableProblem(block);
      if (problem !== null) return problem;
      tables += size;
      continue;
    }
    const problem = blockProblem(block);
    if (problem !== null) return problem;
  }
  return tables > 10_000 ? `data tables of ${tables} characters, over 10000` : null;
}
