/**
 * Creator ids of `list add` and `list check` separated by spaces, commas and new lines in any mix: typed in the
 * text syntax (terminal, Slack), quoted as one value, and in Discord's one string option through the real
 * discord.js client and the fake gateway.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_ACTOR } from '../../src/adapters/terminal/shell.js';
import { listFamily, listsFamily } from '../../src/commands/lists.js';
import { discordBot } from '../helpers/discord-command.js';
import { type Harness, startHarness } from '../helpers/harness.js';

const ADD = /\/creators$/;
const CHECK = /\/creators\/check$/;

describe('in the text syntax', () => {
  const LIST = 'Ids Text';
  let h: Harness;
  let ids: string[];

  /** What `work` answered, and the bodies of the requests to `path` it caused. */
  async function sent<T>(path: RegExp, work: () => Promise<T>) {
    const before = h.requests().length;
    const result = await work();
    const bodies = h
      .requests()
      .slice(before)
      .filter((r) => path.test(r.path))
      .map((r) => r.body);
    return { result, bodies };
  }

  beforeAll(async () => {
    h = await startHarness({ families: [listsFamily, listFamily], sandbox: { rateLimitPerMinute: 10_000 } });
    expect(await h.type(`lists create "${LIST}"`)).toContain('Created the list');
    ids = (await h.app.service.creators.search({ perPage: 10 })).data.items;
    expect(ids.length).toBeGreaterThanOrEqual(6);
  });

  afterAll(async () => {
    await h.stop();
  });

  it('adds ids given as one quoted value, separated by spaces and commas', async () => {
    const [a, b, c] = ids;
    const { result, bodies } = await sent(ADD, () => h.type(`list add "${LIST}" userIds:"${a} ${b}, ${c}"`));
    expect(bodies).toEqual([{ userIds: [a, b, c] }]);
    expect(result).toContain(`Added 3 creators to ${LIST}.`);
    expect(result).not.toMatch(/already there|not a creator id/);
  });

  it('adds and checks ids on several lines, as a pasted column arrives in a slash command', async () => {
    const [, , , d, e, f] = ids;
    const add = await sent(ADD, () =>
      h.app.dispatcher.text({
        actor: LOCAL_ACTOR,
        channelId: 'terminal',
        text: `list add "${LIST}" "${d}\n${e},\n${f}"`,
      }),
    );
    expect(add.bodies).toEqual([{ userIds: [d, e, f] }]);
    const check = await sent(CHECK, () => h.type(`list check "${LIST}" "${ids[0]} ${f}" ,tiktok_nobody1`));
    expect(check.bodies).toEqual([{ userIds: [ids[0], f, 'tiktok_nobody1'] }]);
    expect(check.result).toContain(`${LIST} · 2 of 3 checked are in the list`);
  });

  it('sends each id once, saying which were given more than once', async () => {
    const [a, b] = ids;
    const add = await sent(ADD, () => h.type(`list add "${LIST}" ${a} ${b} ${a},${a} email:ana@example.com`));
    expect(add.bodies).toEqual([]);
    expect(add.result).toContain('needs exactly one creator id (you gave 2)');
    const again = await sent(ADD, () => h.type(`list add "${LIST}" ${a} ${a} userIds:${a}`));
    expect(again.bodies).toEqual([{ userIds: [a] }]);
    expect(again.result).toContain(`Given more than once, sent once: ${a}.`);
    expect(again.result).toContain(`Nothing was added to ${LIST}: 1 was already there.`);
    const check = await sent(CHECK, () => h.type(`list check "${LIST}" ${b} ${a} ${b}`));
    expect(check.bodies).toEqual([{ userIds: [b, a] }]);
    expect(check.result).toContain(`${LIST} · 2 of 2 checked are in the list`);
  });

  it('still refuses a list without ids, sending nothing', async () => {
    const { result, bodies } = await sent(/./, () => h.type(`list check "${LIST}" userIds:" , "`));
    expect(result).toMatch(/^Error: /);
    expect(bodies).toEqual([]);
  });
});

describe('on Discord, where the ids are one string option', () => {
  const LIST = 'Ids Discord';
  const discord = discordBot();
  let ids: string[];

  beforeAll(async () => {
    const { service } = discord.bot.app;
    await service.crm.createList({ name: LIST });
    ids = (await service.creators.search({ perPage: 10 })).data.items;
    expect(ids.length).toBeGreaterThanOrEqual(6);
  });

  /** Runs `/scout list <sub>` with the list and the ids option: the answer, and the bodies sent to `path`. */
  async function run(sub: string, value: string, path: RegExp) {
    const { answer, sent } = await discord.run('list', sub, [
      { type: 3, name: 'list', value: LIST },
      { type: 3, name: 'user-ids', value },
    ]);
    return { answer, bodies: sent.filter((r) => path.test(r.path)).map((r) => r.body) };
  }

  it('list add takes ids separated by spaces, commas and new lines', async () => {
    const [a, b, c, d] = ids;
    const { answer, bodies } = await run('add', `${a} ${b},${c}\n${d}`, ADD);
    expect(bodies).toEqual([{ userIds: [a, b, c, d] }]);
    expect(answer).toContain(`Added 4 creators to ${LIST}`);
  });

  it('list add sends each id once, saying which were given more than once', async () => {
    const [, , , , a, b] = ids;
    const { answer, bodies } = await run('add', `${a} ${a}\n${b},${a}`, ADD);
    expect(bodies).toEqual([{ userIds: [a, b] }]);
    // Discord's renderer escapes markdown characters (`\:`): the text as a person reads it.
    const shown = answer.replaceAll('\\\\', '');
    expect(shown).toContain(`Added 2 creators to ${LIST}`);
    expect(shown).toContain(`Given more than once, sent once: ${a}.`);
  });

  it('list check takes ids separated by spaces', async () => {
    const [a, b] = ids;
    const { answer, bodies } = await run('check', `${a} ${b} tiktok_nobody2`, CHECK);
    expect(bodies).toEqual([{ userIds: [a, b, 'tiktok_nobody2'] }]);
    expect(answer).toContain('2 of 3 checked are in the list');
  });
});
