/**
 * `/scout help` fits a screen, as the terminal prints it: the overview in 25 lines; each family, command, options
 * page and examples in 40. It speaks people's words (no service spelling), lists every option of a command behind
 * its card (the creator filters under headings), and one command's help is a card with Form and Examples.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_ACTOR } from '../../src/adapters/terminal/shell.js';
import { GROUP_HEADINGS, GROUPED } from '../../src/commands/help-groups.js';
import { peopleName } from '../../src/commands/help-words.js';
import { FAMILIES } from '../../src/commands/index.js';
import { SAY_IT } from '../../src/core/chat/guide.js';
import { bindTokens } from '../../src/core/command/bind.js';
import { commandFormId } from '../../src/core/command/forms/index.js';
import { resolveOption } from '../../src/core/command/params.js';
import { createRegistry } from '../../src/core/command/registry.js';
import { resolveText } from '../../src/core/command/routing.js';
import type { CardNode } from '../../src/core/ui/index.js';
import { type Harness, startHarness } from '../helpers/harness.js';

const registry = createRegistry(FAMILIES);
const commands = registry.families.flatMap((family) => family.commands);

/** Every answer of help but the overview: each family, each command with its options and examples. */
const HELP_LINES = [
  'help creators filters',
  ...registry.families.flatMap((family) => [
    `help ${family.name}`,
    ...family.commands.flatMap((def) => [
      `help ${family.name} ${def.name}`,
      `help ${family.name} ${def.name} options`,
      `help ${family.name} ${def.name} examples`,
    ]),
  ]),
];

/** Every answer of help values: the options that have values, and each in full. */
const VALUES_LINES = [
  'help values',
  ...commands.flatMap((def) =>
    Object.entries(def.params)
      .filter(([, spec]) => spec.kind === 'choice' || spec.kind === 'choices')
      .map(([name, spec]) => `help values ${peopleName(name, spec)}`),
  ),
];

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.stop());

/** What the terminal prints in answer to `line`, without the newline that ends it. */
const printed = async (line: string) => (await h.type(line)).replace(/\n$/, '');
const lineCount = (text: string) => text.split('\n').length;

describe('help fits a screen', () => {
  it('the overview: at most 25 lines, starting with plain words', async () => {
    const overview = await printed('help');
    expect(lineCount(overview)).toBeLessThanOrEqual(25);
    expect(overview.startsWith('Just say what you want')).toBe(true);
    for (const example of SAY_IT) expect(overview.split('\n').slice(0, 3).join('\n')).toContain(example);
    for (const family of registry.families.filter((f) => f.name !== 'help'))
      expect(overview).toContain(`/scout ${family.name}:`);
  });

  it('each family, command, options page and examples: at most 40 lines', async () => {
    const sizes = [];
    for (const line of HELP_LINES) sizes.push({ line, lines: lineCount(await printed(line)) });
    expect(sizes.filter((size) => size.lines > 40)).toEqual([]);
    // help creators and help digest were 120 and 108 lines when they listed every option of every command.
    expect(sizes.find((size) => size.line === 'help creators')?.lines).toBeLessThanOrEqual(12);
    expect(sizes.find((size) => size.line === 'help digest')?.lines).toBeLessThanOrEqual(12);
    expect(h.requests()).toEqual([]);
  });
});

describe('every option, behind the card', () => {
  it('help creators filters lists the creator filters under their headings, each once', async () => {
    const page = await printed('help creators filters');
    const headings = Object.values(GROUP_HEADINGS).map((heading) => page.indexOf(`\n${heading}\n`));
    expect(headings.every((at) => at > 0)).toBe(true);
    expect([...headings].sort((a, b) => a - b)).toEqual(headings);
    const search = registry.command('creators', 'search');
    for (const [name, spec] of Object.entries(search?.params ?? {})) {
      expect(page.match(new RegExp(`(^|\\n| · )${peopleName(name, spec)}: `, 'g')), name).toHaveLength(1);
    }
    expect(await printed('help creators search')).toContain('more options: /scout help creators filters');
  });

  it('each option of a command with headings has one', () => {
    for (const [command, groups] of Object.entries(GROUPED)) {
      const [family = '', name = ''] = command.split(' ');
      const def = registry.command(family, name);
      expect(def, command).toBeDefined();
      const options = Object.keys(def?.params ?? {});
      expect(
        options.filter((option) => groups[option] === undefined),
        command,
      ).toEqual([]);
      expect(
        Object.keys(groups).filter((option) => !options.includes(option)),
        command,
      ).toEqual([]);
    }
  });

  it('every command lists each option on its options page, by a name that reaches that option', async () => {
    for (const def of commands) {
      const page = await printed(`help ${def.family} ${def.name} options`);
      const shown = Object.entries(def.params).map(([name, spec]) => ({ name, as: peopleName(name, spec) }));
      expect(new Set(shown.map((option) => option.as)).size, `${def.family} ${def.name}`).toBe(shown.length);
      for (const option of shown) {
        expect(resolveOption(def.params, option.as)?.name, option.as).toBe(option.name);
        expect(page, `${def.family} ${def.name} ${option.as}`).toMatch(
          new RegExp(`(^|\\n| · )${option.as}: `),
        );
      }
    }
  });
});

describe('help in people’s words', () => {
  /** The service's spellings of options: camelCase names and aliases, and the names of a range's bounds. */
  const spellings = new Set(
    commands.flatMap((def) =>
      Object.entries(def.params).flatMap(([name, spec]) => [
        ...[name, ...(spec.aliases ?? [])].filter((word) => /[a-z][A-Z]/.test(word)),
        ...(spec.kind === 'range' ? [spec.min, spec.max] : []),
      ]),
    ),
  );
  /** Words of values that read as camelCase but are names (a product). */
  const NAMES = new Set(['iPhone']);

  it('shows no camelCase key, UPPER_CASE value or service jargon', async () => {
    const found: string[] = [];
    for (const line of ['help', ...HELP_LINES, ...VALUES_LINES]) {
      const answer = await printed(line);
      const words = answer.match(/[A-Za-z][A-Za-z0-9_]*/g) ?? [];
      for (const word of words) {
        const camel = /^[a-z]+[A-Z]/.test(word) && !NAMES.has(word);
        if (camel || spellings.has(word) || /^[A-Z][A-Z0-9]*_[A-Z0-9_]+$/.test(word))
          found.push(`${line}: ${word}`);
      }
      for (const jargon of [/contract alias/, /live name/, /\bv1\b/])
        if (jargon.test(answer)) found.push(`${line}: ${jargon.source}`);
    }
    expect(found).toEqual([]);
  });

  it('writes examples with the names people type, each running as written', async () => {
    const examples = await printed('help creators search examples');
    expect(examples).toContain(
      '/scout creators search hashtags:vegan has-email:yes sort:followers order:desc',
    );
    for (const def of commands) {
      const shown = (await printed(`help ${def.family} ${def.name} examples`))
        .split('\n')
        .filter((line) => line.startsWith('/scout '));
      expect(shown, `${def.family} ${def.name}`).toHaveLength(def.examples.length);
      for (const example of shown) {
        const { def: read, tokens } = resolveText(registry, example);
        expect(`${read.family} ${read.name}`, example).toBe(`${def.family} ${def.name}`);
        const raw = bindTokens(read.params, tokens);
        // A secret (an API key) left out is asked for in a private form.
        if (Object.values(read.params).some((spec) => spec.secret === true)) continue;
        expect(read.schema.safeParse(raw).success, example).toBe(true);
      }
    }
  });
});

describe('one command’s help', () => {
  it('is a card with Form, which opens its form, and Examples, which shows its examples', async () => {
    const answer = await h.app.dispatcher.text({
      actor: LOCAL_ACTOR,
      channelId: 'c',
      text: 'help creators search',
    });
    const [card] = answer.nodes.filter((node): node is CardNode => node.type === 'card');
    expect(card?.title).toBe('/scout creators search');
    expect(card?.actions.map((button) => button.label)).toEqual(['Form', 'Examples']);
    const search = registry.command('creators', 'search');
    expect(card?.actions[0]?.actionId).toBe(search === undefined ? '' : commandFormId(search));
    // The terminal prints the same card, its buttons numbered; pressing Examples shows the examples.
    const text = await printed('help creators search');
    expect(text).toContain('[1] Form  [2] Examples');
    const pressed = await printed('2');
    expect(pressed).toContain('Examples of /scout creators search');
    expect(pressed).toContain('/scout creators search category:Fitness er:>3');
    // Its id carries all it needs: pressed where nothing was stored (another replica, a restart), it answers the same.
    const examples = card?.actions[1]?.actionId ?? '';
    const again = await h.app.dispatcher.action({
      actor: LOCAL_ACTOR,
      channelId: 'elsewhere',
      token: examples,
    });
    expect(JSON.stringify(again)).toContain('Examples of /scout creators search');
  });

  it('an answer button runs only a line that needs nothing but itself', async () => {
    const refused = await h.app.dispatcher.action({
      actor: LOCAL_ACTOR,
      channelId: 'c',
      token: 'scout.answer:creators+search+category:Fitness',
    });
    expect(JSON.stringify(refused)).toContain('This button no longer works');
    expect(h.requests()).toEqual([]);
  });

  it('a family of one command is that command’s card; a family of several lists them', async () => {
    expect(await printed('help viral')).toBe(await printed('help viral search'));
    const creators = await printed('help creators');
    for (const def of registry.family('creators')?.commands ?? [])
      expect(creators).toContain(`/scout creators ${def.name}: `);
    expect(creators).not.toContain('[1]');
    expect(await printed('help creators nosuch')).toContain('/scout creators has no command "nosuch"');
    expect(await printed('help creators search nosuch')).toContain('its options or its examples');
  });
});
