import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_ACTOR } from '../../src/adapters/terminal/shell.js';
import { inWords } from '../../src/commands/help-words.js';
import { FAMILIES } from '../../src/commands/index.js';
import { bindTokens } from '../../src/core/command/bind.js';
import { createRegistry } from '../../src/core/command/registry.js';
import { tokenize } from '../../src/core/command/tokenize.js';
import { OPERATIONS } from '../../src/core/service/operations.js';
import { type Harness, startHarness } from '../helpers/harness.js';

const registry = createRegistry(FAMILIES);
const commands = FAMILIES.flatMap((family) => family.commands.map((command) => ({ family, command })));

describe('command declarations', () => {
  it('fit the platforms: descriptions of at most 100 characters, at least one example, a cost', () => {
    for (const { command } of commands) {
      expect(command.description.length, `${command.family} ${command.name}`).toBeLessThanOrEqual(100);
      expect(command.description.length).toBeGreaterThan(0);
      expect(command.examples.length, `${command.family} ${command.name}`).toBeGreaterThan(0);
      expect(command.cost.length).toBeGreaterThan(0);
    }
  });

  it('have examples that parse and validate as written', () => {
    for (const { command } of commands) {
      for (const example of command.examples) {
        const tokens = tokenize(example);
        const family = registry.family(tokens[0]?.value ?? '');
        expect(family?.name, example).toBe(command.family);
        const named =
          tokens[1] !== undefined &&
          tokens[1].key === null &&
          registry.command(command.family, tokens[1].value);
        const rest = named && named.name === command.name ? tokens.slice(2) : tokens.slice(1);
        const raw = bindTokens(command.params, rest);
        // A secret option (an API key) may be left out: chat asks for it in a private form.
        const secrets = Object.entries(command.params).filter(
          ([name, spec]) => spec.secret && !(name in raw),
        );
        if (secrets.length > 0) {
          expect(rest, example).toEqual([]);
          continue;
        }
        const parsed = command.schema.safeParse(raw);
        expect(
          parsed.success,
          `${example}: ${parsed.success ? '' : JSON.stringify(parsed.error.issues)}`,
        ).toBe(true);
      }
    }
  });

  it('reach every operation of the service contract from chat', () => {
    const root = new URL('../../src/commands/', import.meta.url);
    const source = (readdirSync(root, { recursive: true }) as string[])
      .filter((file) => file.endsWith('.ts'))
      .map((file) => readFileSync(new URL(file, root), 'utf8'))
      .join('\n');
    const missing = OPERATIONS.filter((operation) => !source.includes(`service.${operation}(`));
    expect(missing).toEqual([]);
  });
});

describe('/scout help', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.stop());

  it('renders the overview and every family and command in detail, free of charge', async () => {
    const overview = await h.app.dispatcher.text({ actor: LOCAL_ACTOR, channelId: 'c', text: 'help' });
    const overviewText = JSON.stringify(overview);
    for (const family of FAMILIES.filter((f) => f.name !== 'help')) {
      expect(overviewText).toContain(`/scout ${family.name}`);
      const detail = JSON.stringify(
        await h.app.dispatcher.text({ actor: LOCAL_ACTOR, channelId: 'c', text: `help ${family.name}` }),
      );
      expect(detail, family.name).not.toMatch(/Something went wrong|"level":"error"/);
      for (const command of family.commands) {
        expect(detail).toContain(`${family.name} ${command.name}`);
        const one = await h.type(`help ${family.name} ${command.name}`);
        expect(one).toContain(inWords(command.description, command.params));
        expect(one).toContain(`Cost: ${inWords(command.cost, command.params)}`);
      }
    }
    expect(await h.type('help nosuch')).toContain('There is no command "nosuch"');
    expect(h.requests()).toEqual([]);
  });
});

describe('the README', () => {
  /** The rows of the README's command table: `/scout <family> <command>`, what it does, its cost. */
  function tableRows(): Array<{ command: string; does: string; cost: string }> {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8').split('\n');
    const start = readme.indexOf('| command | what it does | cost |');
    expect(start).toBeGreaterThan(0);
    const rows = [];
    for (const line of readme.slice(start + 2)) {
      if (!line.startsWith('|')) break;
      const [command = '', does = '', cost = ''] = line
        .slice(1, -1)
        .split(' | ')
        .map((cell) => cell.trim());
      rows.push({ command: command.replace(/^`|`$/g, ''), does, cost });
    }
    return rows;
  }

  it('lists every command of the registry in its command table, and no other, as declared', () => {
    const rows = tableRows();
    const declared = commands.map(({ command }) => `/scout ${command.family} ${command.name}`);
    expect(rows.map((row) => row.command)).toEqual(declared);
    for (const { command } of commands) {
      const row = rows.find((r) => r.command === `/scout ${command.family} ${command.name}`);
      expect(row?.does, `${command.family} ${command.name}`).toBe(command.description);
      expect(row?.cost, `${command.family} ${command.name}`).toBe(command.cost);
    }
  });
});
