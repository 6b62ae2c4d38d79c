/**
 * What Discord refuses of a message it is sent or asked to edit (400 Invalid Form Body), so the fake refuses it too.
 * A Components V2 message (IS_COMPONENTS_V2, 1 << 15, given or kept from the message edited, which never loses
 * it): content or embeds beside its components; more than 40 components, nested ones counted; more than 4,000
 * characters across its text displays; a container of more than 10 components; a section without one to three text
 * displays or without its accessory; a media gallery of no item or more than 10. Any other message: a component other
 * than an action row, more than 5 rows, more than 10 embeds or 6,000 characters of them. Either: a row of no
 * component, more than 5 buttons or a select beside anything; a select of more than 25 options or choices it does
 * not offer; two components with one custom_id.
 * https://docs.discord.com/developers/components/reference
 */

type Obj = Record<string, unknown>;

/** The IS_COMPONENTS_V2 message flag. */
export const COMPONENTS_V2 = 1 << 15;

const TYPE = {
  row: 1,
  button: 2,
  stringSelect: 3,
  section: 9,
  text: 10,
  thumbnail: 11,
  gallery: 12,
  container: 17,
} as const;

const SELECTS = new Set([3, 5, 6, 7, 8]);

interface Tally {
  count: number;
  text: number;
  ids: string[];
}

/** What is wrong with an action row, or null. */
function rowProblem(row: Obj): string | null {
  const children = (row.components ?? []) as Obj[];
  if (children.length < 1 || children.length > 5) return `an action row of ${children.length} components`;
  const selects = children.filter((c) => SELECTS.has(Number(c.type)));
  if (selects.length > 0 && children.length > 1) return 'a select beside other components in a row';
  for (const select of selects.filter((c) => c.type === TYPE.stringSelect)) {
    const options = (select.options ?? []) as unknown[];
    if (options.length < 1 || options.length > 25) return `a select of ${options.length} options`;
    if (Number(select.max_values ?? 1) > options.length || Number(select.min_values ?? 1) > options.length)
      return 'a select asking for more choices than it offers';
  }
  return null;
}

/** Walks a component and what it holds: counts them, their text and ids, and returns the first problem. */
function walk(component: Obj, tally: Tally): string | null {
  tally.count += 1;
  if (typeof component.custom_id === 'string') tally.ids.push(component.custom_id);
  const children = (component.components ?? []) as Obj[];
  switch (component.type) {
    case TYPE.row: {
      const problem = rowProblem(component);
      if (problem !== null) return problem;
      break;
    }
    case TYPE.text:
      tally.text += [...String(component.content ?? '')].length;
      break;
    case TYPE.section: {
      const texts = children.filter((c) => c.type === TYPE.text).length;
      if (texts < 1 || texts > 3 || texts !== children.length)
        return `a section of ${children.length} components`;
      if (component.accessory === undefined) return 'a section without an accessory';
      const problem = walk(component.accessory as Obj, tally);
      if (problem !== null) return problem;
      break;
    }
    case TYPE.container:
      if (children.length < 1 || children.length > 10) return `a container of ${children.length} components`;
      break;
    case TYPE.gallery: {
      const items = (component.items ?? []) as unknown[];
      if (items.length < 1 || items.length > 10) return `a media gallery of ${items.length} items`;
      break;
    }
    default:
      break;
  }
  for (const child of children) {
    const problem = walk(child, tally);
    if (problem !== null) return problem;
  }
  return null;
}

const embedText = (embed: Obj) => {
  const fields = (embed.fields ?? []) as Obj[];
  return [
    embed.title,
    embed.description,
    (embed.footer as Obj | undefined)?.text,
    (embed.author as Obj | undefined)?.name,
    ...fields.flatMap((f) => [f.name, f.value]),
  ].reduce<number>((n, text) => n + (typeof text === 'string' ? text.length : 0), 0);
};

/**
 * Why Discord would refuse a message body (a new message, or an edit of `edited`), or null when it takes it. A body
 * that leaves out a part leaves it as it was.
 */
export function messageProblem(body: Obj, edited?: Obj): string | null {
  const keptV2 = (Number(edited?.flags ?? 0) & COMPONENTS_V2) !== 0;
  const flags = body.flags === undefined || body.flags === null ? null : Number(body.flags);
  if (keptV2 && flags !== null && (flags & COMPONENTS_V2) === 0)
    return 'IS_COMPONENTS_V2 cannot be removed from a message';
  const v2 = keptV2 || (flags !== null && (flags & COMPONENTS_V2) !== 0);
  const content = body.content === undefined ? (edited?.content ?? '') : (body.content ?? '');
  const embeds = (body.embeds === undefined ? (edited?.embeds ?? []) : (body.embeds ?? [])) as Obj[];
  const components = (body.components ?? []) as Obj[];
  const tally: Tally = { count: 0, text: 0, ids: [] };
  for (const component of components) {
    if (!v2 && component.type !== TYPE.row)
      return `a component of type ${String(component.type)} without IS_COMPONENTS_V2`;
    const problem = walk(component, tally);
    if (problem !== null) return problem;
  }
  if (new Set(tally.ids).size !== tally.ids.length) return 'two components with one custom_id';
  if (v2) {
    if (content !== '') return 'content in a message with IS_COMPONENTS_V2';
    if (embeds.length > 0) return 'embeds in a message with IS_COMPONENTS_V2';
    if (tally.count > 40) return `${tally.count} components, over 40`;
    if (tally.text > 4000) return `${tally.text} characters of text displays, over 4000`;
    return null;
  }
  if (components.length > 5) return `${components.length} action rows, over 5`;
  if (embeds.length > 10) return `${embeds.length} embeds, over 10`;
  const text = embeds.reduce((n, embed) => n + embedText(embed), 0);
  return text > 6000 ? `${text} characters of embeds, over 6000` : null;
}
