/**
 * Reading what the bot sent to Discord, in either layout: embeds with rows of buttons, or Components V2 (containers,
 * sections, text displays, rows). Tests find buttons, selects, card titles and text the same way in both.
 */

/** A component as a test reads it. */
export type Component = {
  type: number;
  custom_id?: string;
  label?: string;
  content?: string;
  disabled?: boolean;
  placeholder?: string;
  min_values?: number;
  max_values?: number;
  options?: Array<{ value: string; label: string; description?: string }>;
  components?: Component[];
  accessory?: Component;
  media?: { url: string };
  items?: Array<{ media: { url: string } }>;
};

type Embed = { title?: string; description?: string };

/** The IS_COMPONENTS_V2 message flag. */
export const COMPONENTS_V2 = 1 << 15;

/** A message as sent or as rendered: any object with components and embeds, or without. */
type Sent = object;

const partsOf = (message: Sent) => message as { components?: unknown; embeds?: unknown; flags?: unknown };

/** Every component of a message, nested ones included, in reading order. */
export function allComponents(message: Sent): Component[] {
  const out: Component[] = [];
  const walk = (c: Component) => {
    out.push(c);
    for (const child of c.components ?? []) walk(child);
    if (c.accessory !== undefined) walk(c.accessory);
  };
  for (const c of (partsOf(message).components ?? []) as Component[]) walk(c);
  return out;
}

/** The buttons and selects of a message, wherever they sit. */
export const interactive = (message: Sent) =>
  allComponents(message).filter((c) => c.type === 2 || c.type === 3);

/** The text of a message's text displays, one string each (sections' included). */
export const textDisplays = (message: Sent) =>
  allComponents(message)
    .filter((c) => c.type === 10)
    .map((c) => c.content ?? '');

/** Whether a message was sent as Components V2. */
export const isV2 = (message: Sent) => (Number(partsOf(message).flags ?? 0) & COMPONENTS_V2) !== 0;

/**
 * The titles of a message's cards: embed titles, or the first line of each card's text display in a container
 * (its bold title, a link's label without the link).
 */
export function cardTitles(message: Sent): string[] {
  const { embeds: sentEmbeds, components } = partsOf(message);
  const embeds = ((sentEmbeds ?? []) as Embed[]).map((e) => e.title).filter((t) => t !== undefined);
  const containers = ((components ?? []) as Component[]).filter((c) => c.type === 17);
  const cards = containers.flatMap((c) =>
    (c.components ?? []).flatMap((child) =>
      child.type === 9 ? (child.components ?? []).slice(0, 1) : child.type === 10 ? [child] : [],
    ),
  );
  const titles = cards.map((c) =>
    (c.content ?? '')
      .split('\n')[0]
      ?.replace(/^\*\*\[?/, '')
      .replace(/\]\([^)]*\)\*\*$|\*\*$/, ''),
  );
  return [...embeds, ...titles.filter((t) => t !== undefined)];
}

/** A message's readable text: its embeds and text displays, as one string. */
export const messageText = (message: Sent) =>
  JSON.stringify(partsOf(message).embeds ?? []) + JSON.stringify(textDisplays(message));

/**
 * The tokens a person can press in a message: its enabled buttons, the options of the selects that stand for
 * buttons (`scout.more:`), and the other selects.
 */
export function pressable(message: Sent): string[] {
  return interactive(message).flatMap((c) => {
    if (c.type === 2)
      return c.disabled === true || c.custom_id?.startsWith('scout.noop') ? [] : [c.custom_id ?? ''];
    if (c.custom_id?.startsWith('scout.more:')) return (c.options ?? []).map((o) => o.value);
    return [c.custom_id ?? ''];
  });
}
