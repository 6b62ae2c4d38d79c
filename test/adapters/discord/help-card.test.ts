/**
 * Help of one command on Discord, through discord.js against the fake gateway and REST: a compact card (the command,
 * its most used options, its cost and where every option is) with Form and Examples buttons, laid out as Discord's
 * renderer lays out any card; Examples answers with the command's examples, and Form opens the command's modal.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeMessage } from '../../fakes/discord-fake.js';
import { answered, type Bot, callback, createWorld, KEY, messageOf, slash, type World } from './harness.js';

type Component = {
  type: number;
  label?: string;
  custom_id?: string;
  components?: Component[];
  accessory?: Component;
};

/** Every button of a message, however its components nest (action rows, containers, section accessories). */
function buttonsOf(message: FakeMessage): Array<{ label: string; id: string }> {
  const found: Array<{ label: string; id: string }> = [];
  const walk = (components: readonly Component[]) => {
    for (const component of components) {
      if (component.type === 2 && component.custom_id !== undefined)
        found.push({ label: component.label ?? '', id: component.custom_id });
      walk([
        ...(component.components ?? []),
        ...(component.accessory === undefined ? [] : [component.accessory]),
      ]);
    }
  };
  walk((message.components ?? []) as Component[]);
  return found;
}

/** Presses the button labelled `label` of `message`. */
function pressed(message: FakeMessage, label: string) {
  const button = buttonsOf(message).find((b) => b.label === label);
  expect(button, label).toBeDefined();
  return world.fake.interact(3, { custom_id: button?.id, component_type: 2 }, { message });
}

let world: World;
let bot: Bot;

beforeAll(async () => {
  world = await createWorld();
  bot = await world.startBot({ databasePath: ':memory:' });
});

afterAll(async () => {
  await world?.stop();
});

describe('help of one command on Discord', () => {
  it('is a card with Form and Examples; Examples shows the examples, Form opens the form', async () => {
    expect(bot.app.registry.command('creators', 'search')).toBeDefined();
    const asked = slash(world.fake, 'help', 'show', [
      { type: 3, name: 'topic', value: 'creators' },
      { type: 3, name: 'command', value: 'search' },
    ]);
    const help = await messageOf(world.fake.waitFor(answered(asked.token), 'help answered'));
    const shown = JSON.stringify(help);
    expect(shown).toContain('/scout creators search');
    expect(shown).toContain('/scout help creators filters');
    expect(buttonsOf(help).map((b) => b.label)).toEqual(['Form', 'Examples']);
    expect(buttonsOf(help)[0]?.id).toBe('scout.form-of:creators.search');

    const examples = pressed(help, 'Examples');
    const answer = await messageOf(world.fake.waitFor(answered(examples.token), 'examples answered'));
    expect(JSON.stringify(answer)).toContain('Examples of /scout creators search');

    const form = pressed(help, 'Form');
    const modal = await world.fake.waitFor(callback(form.id), 'form opened');
    expect(modal.body).toMatchObject({ type: 9 });
    expect(world.sandbox.requests(KEY)).toEqual([]);
  });
});
