/**
 * Every command with options has a way to its form: the help of one command carries a Form button on every
 * platform. In the terminal, which shows no forms, its press prints the command line to type, as the README says.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAMILIES } from '../../../src/commands/index.js';
import { hasForm } from '../../../src/core/command/forms/index.js';
import { createRegistry } from '../../../src/core/command/registry.js';
import { type Harness, startHarness } from '../../helpers/harness.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});

afterAll(async () => {
  await h.stop();
});

describe('a route to every form', () => {
  it('the help of one command shows a Form button; in the terminal it prints the line to type', async () => {
    const help = await h.type('help songs search');
    expect(help).toContain('[1] Form');
    expect(await h.type('1')).toContain('songs search: type /scout songs search');
    // A command that runs bare offers it too.
    expect(await h.type('help outreach contacted')).toContain('[1] Form');
  });

  it('every command with a form is named by a help that offers it', async () => {
    const registry = createRegistry(FAMILIES);
    const withForms = registry.families.flatMap((family) => family.commands).filter(hasForm);
    expect(withForms.length).toBeGreaterThan(30);
    for (const def of withForms) {
      const help = await h.type(`help ${def.family} ${def.name}`);
      expect(help, `${def.family} ${def.name}`).toMatch(/\[\d+\] Form/);
    }
  });
});
