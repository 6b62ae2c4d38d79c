/**
 * Names of several words without quotes: an option declared `trailing` (a list, a project) takes the bare words
 * that follow it up to the next `key:value`, wherever no other option takes bare words; quoted names read as
 * before. Through the parser on the real declarations, then end to end through the dispatcher and the sandbox.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAMILIES } from '../../../src/commands/index.js';
import { bindTokens, joinedName } from '../../../src/core/command/bind.js';
import { StrayWordsError } from '../../../src/core/command/params.js';
import { createRegistry } from '../../../src/core/command/registry.js';
import { resolveText } from '../../../src/core/command/routing.js';
import { type Harness, startHarness } from '../../helpers/harness.js';

const registry = createRegistry(FAMILIES);

/** The command a line runs and the input it binds to. */
function bound(line: string) {
  const { def, tokens } = resolveText(registry, line);
  const input = bindTokens(def.params, tokens);
  return { command: `${def.family} ${def.name}`, input, joined: joinedName(input) };
}

describe('a trailing name', () => {
  it.each([
    ['list Spring Launch', 'list show', { list: 'Spring Launch' }],
    ['list show Spring Launch', 'list show', { list: 'Spring Launch' }],
    [
      'list show Spring Launch page:2 perPage:25',
      'list show',
      { list: 'Spring Launch', page: 2, perPage: 25 },
    ],
    ['list show page:2 Spring Launch', 'list show', { list: 'Spring Launch', page: 2 }],
    ['list export Spring Launch', 'list export', { list: 'Spring Launch' }],
    ['lists create Summer Push', 'lists create', { name: 'Summer Push' }],
    [
      'lists create Summer Push budget:5000 about:"Q2 launch"',
      'lists create',
      { name: 'Summer Push', budget: 5000, description: 'Q2 launch' },
    ],
    ['lists create name:Summer Push budget:5000', 'lists create', { name: 'Summer Push', budget: 5000 }],
    ['lists get Spring Launch', 'lists get', { list: 'Spring Launch' }],
    [
      'lists rename Spring Launch name:Summer Push',
      'lists rename',
      { list: 'Spring Launch', name: 'Summer Push' },
    ],
    [
      'lists rename "Spring Launch" Summer Push',
      'lists rename',
      { list: 'Spring Launch', name: 'Summer Push' },
    ],
    [
      'lists describe Spring Launch description:Creators for the Q2 launch',
      'lists describe',
      { list: 'Spring Launch', description: 'Creators for the Q2 launch' },
    ],
    [
      'lists describe "Spring Launch" Creators for the Q2 launch',
      'lists describe',
      { list: 'Spring Launch', description: 'Creators for the Q2 launch' },
    ],
    [
      'list update Spring Launch creator:@ana notes:"Call Monday"',
      'list update',
      { list: 'Spring Launch', creator: '@ana', notes: 'Call Monday' },
    ],
    [
      'list remove Spring Launch creator:tiktok_1',
      'list remove',
      { list: 'Spring Launch', creator: 'tiktok_1' },
    ],
    ['notify project:Spring Launch outreach', 'notify on', { projectId: 'Spring Launch outreach' }],
    ['notify off project:Spring Launch outreach', 'notify off', { projectId: 'Spring Launch outreach' }],
    [
      'outreach messages project:Spring Launch outreach direction:inbound perPage:20',
      'outreach messages',
      { projectId: 'Spring Launch outreach', direction: 'inbound', perPage: 20 },
    ],
    [
      'outreach contacted project:Spring Launch outreach page:2',
      'outreach contacted',
      { projectId: 'Spring Launch outreach', page: 2 },
    ],
  ])('%s needs no quotes', (line, command, input) => {
    expect(bound(line)).toMatchObject({ command, input });
    expect(bound(line).input).toEqual(input);
  });

  it.each([
    ['list "Spring Launch"', { list: 'Spring Launch' }],
    ['list show “Spring Launch” page:2', { list: 'Spring Launch', page: 2 }],
    ['list export "Spring Launch"', { list: 'Spring Launch' }],
    ['lists create "Summer Push" budget:5', { name: 'Summer Push', budget: 5 }],
    ["lists create name:'Summer Push'", { name: 'Summer Push' }],
    ['lists get list:"Spring Launch"', { list: 'Spring Launch' }],
    ['notify project:"Spring Launch outreach"', { projectId: 'Spring Launch outreach' }],
  ])('%s, quoted, reads as before', (line, input) => {
    expect(bound(line).input).toEqual(input);
    expect(bound(line).joined).toBeNull();
  });

  it('says which option took several bare words, and only when it did', () => {
    expect(bound('list Spring Launch').joined).toBe('list');
    expect(bound('lists create Summer Push budget:5').joined).toBe('name');
    expect(bound('list Spring').joined).toBeNull();
    // Words after a `key:value` of a trailing name go on with it: they are not bare words of their own.
    expect(bound('lists create name:Summer Push').joined).toBeNull();
  });

  it('takes one word where other words follow the name, which then needs quotes', () => {
    expect(bound('list add "Spring Launch" tiktok_1 tiktok_2').input).toEqual({
      list: 'Spring Launch',
      userIds: ['tiktok_1', 'tiktok_2'],
    });
    expect(bound('list check "Spring Launch" tiktok_1').input).toEqual({
      list: 'Spring Launch',
      userIds: ['tiktok_1'],
    });
    expect(bound('list update "Spring Launch" @ana notes:hi').input).toEqual({
      list: 'Spring Launch',
      creator: '@ana',
      notes: 'hi',
    });
    expect(bound('list add Spring Launch tiktok_1').input).toEqual({
      list: 'Spring',
      userIds: ['Launch', 'tiktok_1'],
    });
  });

  it('leaves bare words where no option takes them to plain words', () => {
    expect(() => bound('notify me of new replies')).toThrow(StrayWordsError);
    expect(() => bound('lists of the team')).toThrow(StrayWordsError);
  });

  it('is declared on every option that names a list or a project', () => {
    for (const family of registry.families) {
      for (const def of family.commands) {
        for (const [name, spec] of Object.entries(def.params)) {
          const names = [name, ...(spec.aliases ?? [])];
          const isName =
            spec.kind === 'text' && (spec.completedFrom === 'crm-lists' || names.includes('project'));
          if (isName)
            expect(spec.kind === 'text' && spec.trailing, `${def.family} ${def.name} ${name}`).toBe(true);
        }
      }
    }
  });
});

describe('a trailing name through the dispatcher', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ sandbox: { rateLimitPerMinute: 10_000 } });
  });
  afterAll(async () => {
    await h.stop();
  });

  it('creates, reads, renames and describes lists by names without quotes', async () => {
    expect(await h.type('lists create Summer Push budget:5000')).toContain('Created the list Summer Push.');
    const lists = (await h.app.service.crm.listLists()).data.lists;
    expect(lists.find((list) => list.name === 'Summer Push')?.budget).toBe(5000);
    const shown = await h.type('list Summer Push');
    expect(shown).toContain('Summer Push · 0 contacts');
    expect(shown).not.toContain('Understood as');
    expect(await h.type('list show summer push page:1')).toContain('Summer Push · 0 contacts');
    expect(await h.type('list export Summer Push')).toContain('Summer Push has no contacts');
    expect(await h.type('lists get Summer Push')).toContain('Budget: 5,000');
    expect(await h.type('lists describe Summer Push description:For the August push')).toContain(
      'Updated the description of Summer Push.',
    );
    expect(await h.type('lists rename Summer Push name:Autumn Push')).toContain(
      'Renamed Summer Push to Autumn Push.',
    );
    expect(await h.type('list "Autumn Push"')).toContain('Autumn Push · 0 contacts');
  });

  it('takes names with an apostrophe or an emoji as they are, without reading them as plain words', async () => {
    expect(await h.type("lists create O'Brien Picks")).toContain("Created the list O'Brien Picks.");
    const apostrophe = await h.type("list O'Brien Picks");
    expect(apostrophe).toContain("O'Brien Picks · 0 contacts");
    expect(apostrophe).not.toContain('Understood as');
    expect(await h.type('lists create Spring 🌸 Launch')).toContain('Created the list Spring 🌸 Launch.');
    const emoji = await h.type('list Spring 🌸 Launch');
    expect(emoji).toContain('Spring 🌸 Launch · 0 contacts');
    expect(emoji).not.toContain('Understood as');
    // A curly apostrophe (as phones type it) and a word with a period name the list too.
    const curly = await h.type('list O’Brien Picks');
    expect(curly).toContain("O'Brien Picks · 0 contacts");
    expect(curly).not.toContain('Understood as');
    expect(await h.type('lists create St. Patrick Day')).toContain('Created the list St. Patrick Day.');
    expect(await h.type('list St. Patrick Day')).toContain('St. Patrick Day · 0 contacts');
  });

  it('makes no list whose name is longer than a list is opened by, so every list it makes opens', async () => {
    const long = `Long${' list name'.repeat(20)}`;
    expect(await h.type(`lists create ${long}`)).toContain('at most 200 characters');
    expect(await h.type(`lists rename Spring 🌸 Launch name:${long}`)).toContain('at most 200 characters');
    const longest = long.slice(0, 200);
    expect(await h.type(`lists create ${longest}`)).toContain('Created the list');
    expect(await h.type(`list ${longest}`)).toContain('0 contacts');
  });

  it('reads a list name of several words with a status, and exports it as a file', async () => {
    const out = await h.type('list export Fitness Ambassadors');
    expect(out).toMatch(/Fitness-Ambassadors.*\.csv/);
    expect(await h.type('list Fitness Ambassadors page:1 perPage:2')).toContain('Fitness Ambassadors');
  });

  it('names a project of several words without quotes', async () => {
    expect(await h.type('notify project:Fitness Ambassadors outreach')).toContain(
      'Fitness Ambassadors outreach',
    );
    expect(
      await h.type('outreach messages project:Fitness Ambassadors outreach direction:outbound'),
    ).not.toMatch(/Error|not understood/);
    expect(await h.type('notify off project:Fitness Ambassadors outreach')).not.toMatch(
      /Error|not understood/,
    );
  });

  it('leaves a sentence after a family to plain words when it reads as something else', async () => {
    expect(await h.type('list notification channels')).toContain('Understood as /scout notify list.');
    expect(await h.type('list the digests')).toContain('Understood as /scout digest list.');
    const inList = await h.type('list creators in Fitness Ambassadors');
    expect(inList).toContain('Understood as /scout list show list:"Fitness Ambassadors".');
  });
});
