/**
 * The chat port over the real app graph (the sandbox, SQLite): a person's home view, forms opened and submitted,
 * link unfurls, the tenancy door and the sealed installation vault.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_ACTOR } from '../../../src/adapters/terminal/shell.js';
import { createChatCore } from '../../../src/core/chat/create.js';
import type { CompletionField, PersonRef } from '../../../src/core/chat/index.js';
import { createInstallationVault } from '../../../src/core/chat/installations.js';
import { commandFormId, FORM_KIND } from '../../../src/core/command/forms/index.js';
import { createLogger } from '../../../src/core/logger.js';
import { MAIN_CATEGORIES } from '../../../src/core/service/enums.js';
import { createSealer, SealError } from '../../../src/core/tenancy/index.js';
import { FORM_MORE, type FormSpec, formLayout, profileUrl, renderText } from '../../../src/core/ui/index.js';
import { type Harness, startHarness, TEST_KEY } from '../../helpers/harness.js';

let h: Harness;
const me = { platform: 'terminal' as const, workspaceId: 'local', userId: 'me' };
const colleague = { ...me, userId: 'colleague' };
const outsider = { platform: 'slack' as const, workspaceId: 'T-NOT-SERVED', userId: 'U1' };

beforeAll(async () => {
  h = await startHarness({ settings: { repeatWindowMs: 0 } });
});
afterAll(async () => {
  await h?.stop();
});

describe('ChatCore', () => {
  it('reads a person’s home: their spend and cap, the team’s balance, spend and chart, the subscriptions', async () => {
    const before = await h.app.chat.home(me);
    expect(before).toMatchObject({
      kind: 'home',
      spentToday: 0,
      spentThisMonth: 0,
      dailyCap: null,
      connected: true,
      subscriptions: [],
      team: { days: 30, total: 0, chart: null },
    });
    await h.type('notify');
    await h.type('digest 9:00 europe/paris categories:Food top:3');
    await h.type('credits cap everyone 500');
    await h.type('creators profiles category:Fitness perPage:2');
    const after = await h.app.chat.home(me);
    if (after.kind !== 'home') throw new Error('the local person is served');
    const spent = await h.spentToday();
    expect(spent).toBeGreaterThan(0);
    expect(after.spentToday).toBe(spent);
    expect(after.spentThisMonth).toBe(spent);
    expect(after.dailyCap).toBe(500);
    expect(after.balance).toBe(h.sandbox.credits(TEST_KEY));
    expect(after.subscriptions).toEqual([
      { channelId: 'terminal', kind: 'reply notifications', detail: 'every project' },
      { channelId: 'terminal', kind: 'viral digest', detail: 'daily at 09:00 Europe/Paris, top 3' },
    ]);
    expect(after.team.total).toBe(spent);
    expect(after.team.sparkline).toHaveLength(30);
    expect(after.team.chart?.mimeType).toBe('image/png');
  });

  it('shows nothing of any team to someone outside the served tenants', async () => {
    const requests = h.requests().length;
    expect(await h.app.chat.home(outsider)).toEqual({ kind: 'outside' });
    expect(h.requests()).toHaveLength(requests);
  });

  it('opens a command’s form by id, and a stored form for its own person only', async () => {
    const { forms } = h.app.chat;
    const specOf = async (id: string, person: PersonRef) => {
      const opened = await forms.open({ id }, person);
      return opened?.status === 'form' ? opened.spec : null;
    };
    const search = commandFormId({ family: 'creators', name: 'search' });
    expect((await specOf(search, me))?.family).toBe('creators');
    const stored = await h.app.store.actions.create({
      kind: FORM_KIND,
      payload: { family: 'creators', command: 'search', fixed: { country: 'Japan' } },
      actor: me,
      personal: true,
      ttlMs: h.app.chat.settings.elementTtlMs,
      now: h.app.clock.now(),
    });
    expect((await specOf(stored, me))?.fixed).toEqual({ country: 'Japan' });
    expect(await specOf(stored, colleague)).toBeNull();
    expect(await specOf('scout.form:unknown', me)).toBeNull();
  });

  it('says which form a bare line or a command short of options opens', async () => {
    const { forms } = h.app.chat;
    const actor = async () => LOCAL_ACTOR;
    const ofLine = async (line: string) => {
      const opened = await forms.open({ line, actor }, me);
      return opened?.status === 'form' ? opened.spec : null;
    };
    expect((await ofLine('/scout creators'))?.command).toBe('search');
    expect(await ofLine('creators search followers:10k-100k')).toBeNull();
    // A line that opens a form is not answered in an acknowledgement where forms are shown.
    expect(h.app.chat.atOnce('/scout creators', { forms: true })).toBeNull();
    expect(h.app.chat.working('/scout creators', { forms: true })).toBeNull();
    expect(h.app.chat.working('creators search followers:10k-100k', { forms: true })).not.toBeNull();
    const command = {
      family: 'creators',
      command: 'search',
      options: { country: 'Japan' },
      more: '',
      asked: true,
    };
    const opened = await forms.open({ command, actor }, me);
    if (opened?.status !== 'form') throw new Error('the form was asked for');
    expect((await forms.open({ id: opened.id }, me))?.status).toBe('form');
    expect(opened.spec.fields.find((field) => field.name === 'country')?.value).toBe('Japan');
  });

  it('checks a submitted form: a wrong value gets a Fix the form button that keeps it, a right one runs', async () => {
    const { forms } = h.app.chat;
    const id = commandFormId({ family: 'creators', name: 'search' });
    const everyField = (spec: FormSpec) => formLayout(spec, spec.fields.length);
    const wrong = await forms.submit({
      form: id,
      actor: me,
      values: { followers: 'lots' },
      layout: everyField,
      reopen: true,
    });
    if (wrong?.status !== 'wrong' || wrong.reply === null) throw new Error('followers:lots is wrong');
    expect(Object.keys(wrong.errors)).toEqual(['followers']);
    const fix = JSON.stringify(wrong.reply).match(/"(scout\.form:[^"]+)"/)?.[1] ?? '';
    expect(renderText(wrong.reply).text).toContain('Fix the form');
    const again = await forms.open({ id: fix }, me);
    expect(
      again?.status === 'form' ? again.spec.fields.find((f) => f.name === 'followers')?.value : null,
    ).toBe('lots');
    expect(await forms.open({ id: fix }, colleague)).toBeNull();

    const gone = await forms.submit({
      form: commandFormId({ family: 'nothing', name: 'here' }),
      actor: me,
      values: {},
      layout: everyField,
    });
    expect(gone?.status).toBe('gone');
    expect(
      await forms.submit({ form: 'scout.other:unknown', actor: me, values: {}, layout: everyField }),
    ).toBeNull();
    const right = await forms.submit({
      form: { family: 'creators', command: 'search', fixed: {} },
      actor: me,
      values: { followers: '10k-100k', [FORM_MORE]: 'perPage:2' },
      layout: (spec) => formLayout(spec, 3),
    });
    if (right?.status !== 'ok') throw new Error('the form is filled in right');
    expect(right.privately).toBe(false);
    const answer = renderText(await right.run({ actor: LOCAL_ACTOR, channelId: 'terminal' })).text;
    expect(answer).toContain('1-2 of');
  });

  it('opens no secrets form where the deployment’s key is the team’s', async () => {
    const asked: string[] = [];
    const actor = async () => {
      asked.push('actor');
      return LOCAL_ACTOR;
    };
    const { forms } = h.app.chat;
    expect(await forms.open({ line: 'connect key', actor }, me)).toBeNull();
    expect(await forms.open({ line: 'creators search followers:10k-100k', actor }, me)).toBeNull();
    expect(asked).toEqual([]);
  });

  it('unfurls profile links for a connected tenant only, through creators link', async () => {
    const { unfurls } = h.app.chat;
    expect(unfurls.domains).toContain('tiktok.com');
    const url = profileUrl('tiktok', 'someone') as string;
    expect(unfurls.names(url)).toBe(true);
    expect(unfurls.names('https://www.tiktok.com/explore')).toBe(false);
    expect(await unfurls.unfurls(me)).toBe(true);
    expect(await unfurls.unfurls(outsider)).toBe(false);
    const requests = h.requests().length;
    const answer = await unfurls.answer({ actor: LOCAL_ACTOR, channelId: 'terminal' }, url);
    expect(renderText(answer).text).toContain('@someone');
    // Not in the profile cache: an offer to look it up, and nothing bought.
    expect(renderText(answer).text).toContain('Look up');
    expect(h.requests()).toHaveLength(requests);
  });

  it('completes an enumeration prefix first, a comma list’s last item, and free text of options', async () => {
    const live = AbortSignal.timeout(5_000);
    const complete = (command: [string, string], field: CompletionField, typed: string, valueMax = 100) =>
      h.app.chat.complete(
        { actor: me, family: command[0], command: command[1], field, typed },
        { count: 25, valueMax },
        live,
      );
    const categories = await complete(['creators', 'search'], { param: 'mainCategory' }, 'AR');
    const starting = MAIN_CATEGORIES.filter((c) => c.toLowerCase().startsWith('ar'));
    const containing = MAIN_CATEGORIES.filter(
      (c) => !c.toLowerCase().startsWith('ar') && c.toLowerCase().includes('ar'),
    );
    expect(categories.map((c) => c.value)).toEqual([...starting, ...containing].slice(0, 25));
    const food = await complete(['viral', 'search'], { param: 'categories' }, 'Food,fa');
    expect(food.length).toBeGreaterThan(0);
    for (const c of food) expect(c.value).toMatch(/^Food,[^,]+$/);
    expect(food.map((c) => c.value)).not.toContain('Food,Food');
    // Values longer than the platform takes are left out before the count, not cut.
    const short = await complete(['viral', 'search'], { param: 'categories' }, 'Food,', 12);
    expect(short.length).toBeGreaterThan(0);
    for (const c of short) expect(c.value.length).toBeLessThanOrEqual(12);
    const text = await complete(
      ['viral', 'search'],
      { text: ['contentFormats', 'views'] },
      'views:>1m contentFormats:tut',
    );
    expect(text[0]).toEqual({ label: 'views:>1m contentFormats:tut', value: 'views:>1m contentFormats:tut' });
    expect(text).toContainEqual({
      label: 'contentFormats:tutorial',
      value: 'views:>1m contentFormats:tutorial',
    });
    const names = await complete(['viral', 'search'], { text: ['contentFormats', 'views'] }, 'vi');
    expect(names.map((c) => c.value)).toEqual(['vi', 'views:']);
    expect(names[1]?.label).toMatch(/^views: ./);
    // Options by the names people are given; the service's spellings only to someone typing one.
    const formats = await complete(['viral', 'search'], { text: ['contentFormats', 'views'] }, 'form');
    expect(formats.map((c) => c.value)).toEqual(['form', 'format:']);
    const bounds = await complete(['viral', 'search'], { text: ['contentFormats', 'views'] }, 'viewsM');
    expect(bounds.map((c) => c.value)).toEqual(['viewsM', 'viewsMin:', 'viewsMax:']);
    const spelled = await complete(['viral', 'search'], { text: ['contentFormats', 'views'] }, 'contentF');
    expect(spelled.map((c) => c.value)).toEqual(['contentF', 'contentFormats:']);
  });

  it('completes CRM list names from the tenant’s own account, none outside, and gives up when the signal aborts', async () => {
    await h.app.service.crm.createList({ name: 'Spring Launch' });
    const lists = (actor: PersonRef, signal: AbortSignal, typed = 'spr') =>
      h.app.chat.complete(
        { actor, family: 'list', command: 'show', field: { param: 'list' }, typed },
        { count: 25, valueMax: 100 },
        signal,
      );
    expect(await lists(me, AbortSignal.timeout(5_000))).toEqual([
      { label: 'Spring Launch', value: 'Spring Launch' },
    ]);
    const requests = h.requests().length;
    expect(await lists(outsider, AbortSignal.timeout(5_000))).toEqual([]);
    expect(await lists(me, AbortSignal.abort())).toEqual([]);
    expect(h.requests()).toHaveLength(requests);
    // The service holds the answer: the lookup ends with its signal, with no completions.
    h.sandbox.injectFaults(TEST_KEY, { kind: 'timeout' });
    const started = performance.now();
    expect(await lists(me, AbortSignal.timeout(200))).toEqual([]);
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('says who is served, and serves a tenant named in single-team mode', () => {
    const { tenancy } = h.app.chat;
    expect(tenancy.mode).toBe('single');
    expect(tenancy.isServed(me)).toBe(true);
    expect(tenancy.isServed(outsider)).toBe(false);
    tenancy.serve({ platform: 'discord', workspaceId: 'G-NAMED' });
    expect(tenancy.isServed({ platform: 'discord', workspaceId: 'G-NAMED' })).toBe(true);
  });

  it('has no installation vault in single-team mode, and one that seals in many-team mode', async () => {
    expect(h.app.chat.installations).toBeNull();
    const sealer = createSealer('a test key of at least thirty-two characters');
    const built = createChatCore({
      dispatcher: h.app.dispatcher,
      registry: h.app.registry,
      store: h.app.store,
      tenants: h.app.tenants,
      clock: h.app.clock,
      settings: h.app.settings,
      metrics: h.app.metrics,
      readiness: h.app.readiness,
      secrets: h.app.secrets,
      logger: createLogger({ level: 'silent' }),
      sealer,
      profileLinks: { domains: [], names: () => false, command: { family: 'x', command: 'y', option: 'z' } },
    });
    const vault = built.installations;
    if (vault === null) throw new Error('a sealer makes a vault');
    const json = JSON.stringify({ team: { id: 'T1' }, bot: { token: 'xoxb-secret' } });
    expect(await vault.has('T1')).toBe(false);
    await vault.keep('T1', json, h.app.clock.now());
    expect(await vault.has('T1')).toBe(true);
    expect(await vault.open('T1')).toBe(json);
    const sealed = await h.app.store.tenants.slackInstallation('T1');
    expect(sealed).not.toContain('xoxb-secret');
    // A sealed row moved to another id does not open.
    await h.app.store.tenants.putSlackInstallation('T2', sealed as string, h.app.clock.now());
    await expect(createInstallationVault(h.app.store, sealer).open('T2')).rejects.toBeInstanceOf(SealError);
    expect(await vault.remove('T1')).toBe(true);
    expect(await vault.open('T1')).toBeNull();
  });
});
