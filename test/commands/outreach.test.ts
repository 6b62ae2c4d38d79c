import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCommandJson } from '../../src/adapters/discord/commands.js';
import { helpFamily } from '../../src/commands/help.js';
import { outreachFamily } from '../../src/commands/outreach.js';
import type { SandboxAgentMessage } from '../../src/sandbox/index.js';
import { discordBot } from '../helpers/discord-command.js';
import { type Harness, startHarness, TEST_KEY, TEST_TEAM } from '../helpers/harness.js';

interface Project {
  id: string;
  name: string;
  status: string;
  campaign_id: string | null;
  total_emails_sent: number;
}
interface Contacted {
  creator_email: string;
  creator_id: string;
  creator_name: string;
  sent_messages_count: number;
  reply_messages_count: number;
  last_subject: string;
  project_ids: string[];
}
interface PageBody<T> {
  data: T[];
  total: number;
}

let h: Harness;
let now = Date.UTC(2026, 2, 2, 12);

/** Ground truth straight from the sandbox over HTTP (these requests are excluded from the counts below). */
async function direct<T>(path: string, query: Record<string, string | number> = {}): Promise<T> {
  const url = new URL(`${h.sandbox.url}${path}`);
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, String(v));
  const res = await request(url, { headers: { 'x-ty-api-key': TEST_KEY, accept: 'application/json' } });
  const body = (await res.body.json()) as { response: T };
  return body.response;
}

const projects = async () => (await direct<{ data: Project[] }>('/api/v1/agent/projects')).data;
const messages = (query: Record<string, string | number> = {}) =>
  direct<PageBody<SandboxAgentMessage>>('/api/v1/agent/messages', { perPage: 100, ...query });

/** Runs `line` and returns its output with the requests it caused. */
async function run(line: string) {
  const before = h.requests().length;
  const out = await h.type(line);
  return { out, sent: h.requests().slice(before) };
}

const agentCalls = (sent: ReturnType<Harness['requests']>, path: string) =>
  sent.filter((r) => r.path === `/api/v1/agent/${path}`);

/** The times of the numbered message headers of a conversation, in printed order. */
function conversationTimes(out: string): number[] {
  return [...out.matchAll(/^\d+\. [→←] (?:To|From) .*? · (\d{4}-\d\d-\d\d \d\d:\d\d) UTC/gm)].map((m) =>
    Date.parse(`${(m[1] as string).replace(' ', 'T')}:00Z`),
  );
}

beforeAll(async () => {
  h = await startHarness({
    families: [outreachFamily, helpFamily],
    sandbox: { now: () => now, rateLimitPerMinute: 100_000 },
  });
});

afterAll(async () => {
  await h.stop();
});

describe('outreach projects', () => {
  it('lists every project with status, counters and the linked campaign by name', async () => {
    const all = await projects();
    const lists = (await direct<{ data: Array<{ id: string; name: string }> }>('/api/v2/crm/lists')).data;
    const { out, sent } = await run('/scout outreach');
    expect(agentCalls(sent, 'projects')).toHaveLength(1);
    expect(out).toContain(`Agent projects · ${all.length}`);
    for (const project of all.slice(0, 4)) {
      // Projects and their campaigns by name: a named project needs no id to be typed.
      expect(out).toContain(`${project.name} · ${project.status}\n`);
      expect(out).not.toContain(project.id);
      expect(out).toContain(`Emails sent: ${project.total_emails_sent}`);
      const list = lists.find((l) => l.id === project.campaign_id);
      if (list !== undefined) expect(out).toContain(`Campaign: ${list.name} · `);
      if (list !== undefined) expect(out).not.toContain(list.id);
    }
    expect(all.some((p) => p.campaign_id !== null)).toBe(true);
  });

  it('opens the messages and the contacted creators of a project by its buttons', async () => {
    const all = await projects();
    await run('outreach projects');
    const contacted = await run('contacted 1');
    expect(agentCalls(contacted.sent, 'contacted-creators')[0]?.query).toMatchObject({
      projectId: all[0]?.id,
      page: '1',
    });
    expect(contacted.out).toContain('Contacted creators');
    await run('outreach projects');
    const listed = await run('messages 2');
    expect(agentCalls(listed.sent, 'messages')[0]?.query).toMatchObject({ projectId: all[1]?.id, page: '1' });
    expect(listed.out).toContain('Outreach messages');
  });
});

describe('outreach messages', () => {
  it('sends every filter of the contract, the mailbox under its live name', async () => {
    const inbound = (await messages({ direction: 'inbound' })).data[0] as SandboxAgentMessage;
    const { out, sent } = await run(
      `outreach messages project:${inbound.project_id} email:${inbound.creator_email.toUpperCase()} creatorId:${inbound.creator_id} ` +
        `thread:${inbound.thread_id} mailbox:${inbound.gmail_account_id} direction:inbound status:received followUp:no page:1 perPage:5`,
    );
    const calls = agentCalls(sent, 'messages');
    expect(calls).toHaveLength(1);
    expect(calls[0]?.query).toEqual({
      projectId: inbound.project_id,
      creatorEmail: inbound.creator_email.toUpperCase(),
      creatorId: inbound.creator_id,
      threadId: inbound.thread_id,
      gmailAccountId: inbound.gmail_account_id,
      direction: 'inbound',
      status: 'received',
      isFollowUp: 'false',
      page: '1',
      perPage: '5',
    });
    expect(out).toContain(`1. ← ${inbound.creator_name} <${inbound.creator_email}>`);
    expect(out).toContain(inbound.thread_id);
  });

  it('sends a status the contract has not seen, trimmed, for the service to judge', async () => {
    const { out, sent } = await run('outreach messages status:" bounced "');
    expect(agentCalls(sent, 'messages').map((r) => r.query)).toEqual([
      { status: 'bounced', page: '1', perPage: '10' },
    ]);
    expect(out).not.toMatch(/^Error: /);
  });

  it('suggests the statuses seen when a status other than those matches no message, still sending it', async () => {
    const near = await run('outreach messages status:sen');
    expect(agentCalls(near.sent, 'messages').map((r) => r.query)).toEqual([
      { status: 'sen', page: '1', perPage: '10' },
    ]);
    expect(near.out.trim()).toBe('Info: No messages match these filters. Did you mean "sent"? · status:sen');
    const far = await run('outreach messages status:bounced');
    expect(far.out.trim()).toBe(
      'Info: No messages match these filters. Statuses seen: sent, received, replied, failed. · status:bounced',
    );
    // A status seen that matches nothing needs no suggestion.
    const seen = await run('outreach messages status:failed creatorEmail:nobody@nowhere.example');
    expect(seen.out).toMatch(/^Info: No messages match these filters\. · /);
  });

  it('suggests in help the statuses seen, each of which finds its messages when typed', async () => {
    const page = await h.type('help outreach messages options');
    const said = page.split('\n').flatMap((line) => line.trim().split(' · '));
    expect(said).toContain(
      'status: Stored message status, one word: sent, received, replied, failed or another the service uses',
    );
    for (const status of ['sent', 'received', 'replied', 'failed']) {
      const { out, sent } = await run(`outreach messages status:${status}`);
      expect(agentCalls(sent, 'messages').map((r) => r.query)).toEqual([
        { status, page: '1', perPage: '10' },
      ]);
      expect(out, status).toMatch(/^1\. [→←] /m);
      expect(out, status).not.toMatch(/^(Error|Info): /m);
    }
  });

  it('filters by part of the email and by a project name', async () => {
    const partial = await run('outreach messages contains:EXAMPLE.NET perPage:20');
    expect(agentCalls(partial.sent, 'messages')[0]?.query).toMatchObject({
      creatorEmailContains: 'EXAMPLE.NET',
    });
    const emails = [...partial.out.matchAll(/^\d+\. [→←] .*?<([^>]+)>/gm)].map((m) => m[1] as string);
    expect(emails.length).toBeGreaterThan(0);
    for (const email of emails) expect(email.toLowerCase()).toContain('example.net');

    const project = (await projects())[2] as Project;
    const named = await run(`outreach messages project:"${project.name.toUpperCase()}"`);
    expect(agentCalls(named.sent, 'projects')).toHaveLength(1);
    expect(agentCalls(named.sent, 'messages')[0]?.query).toMatchObject({ projectId: project.id });

    const unknown = await run('outreach messages project:"No Such Campaign"');
    expect(unknown.out).toMatch(/^Error: No agent project is called "No Such Campaign"/);
    expect(unknown.out).toContain(`"${project.name}"`);
    expect(unknown.out).not.toContain(project.id);
    expect(agentCalls(unknown.sent, 'messages')).toHaveLength(0);
  });

  it('heads a list with its filters as people type them: a project by name, yes and no', async () => {
    const project = (await projects())[0] as Project;
    const { out, sent } = await run(
      `outreach messages project:"${project.name}" followUp:no contains:example perPage:2`,
    );
    expect(agentCalls(sent, 'projects')).toHaveLength(1);
    const header = out.split('\n')[0] as string;
    expect(header).toContain(`project:"${project.name}"`);
    expect(header).toContain('follow-up:no');
    expect(header).toContain('contains:example');
    expect(header).not.toMatch(/projectId|followUp|emailContains|false/i);
    expect(header).not.toContain(project.id);
    const contacted = await run(`outreach contacted project:"${project.name}" perPage:2`);
    expect(contacted.out.split('\n')[0]).toBe(`Contacted creators · project:"${project.name}"`);
  });

  it('names platforms as people write them, in lists and conversations', async () => {
    const { out } = await run('outreach contacted perPage:5');
    expect(out).toMatch(/> · (TikTok|Instagram|YouTube|Twitter|LinkedIn|Twitch)\n/);
    expect(out).not.toMatch(/ · (tiktok|instagram|youtube|twitter|linkedin|twitch)\n/);
    const inbound = (await messages({ direction: 'inbound' })).data[0] as SandboxAgentMessage;
    const thread = await run(`outreach conversation ${inbound.thread_id}`);
    expect(thread.out).toMatch(/Platform: (TikTok|Instagram|YouTube|Twitter|LinkedIn|Twitch)/);
  });

  it('pages forwards and back through the service pages', async () => {
    const truth = await messages({ direction: 'outbound', perPage: 4, page: 2 });
    const first = await run('outreach messages direction:outbound perPage:4');
    expect(first.out).toContain(`Messages 1–4 of ${truth.total} · Page 1 of ${Math.ceil(truth.total / 4)}`);
    const second = await run('next');
    expect(agentCalls(second.sent, 'messages')[0]?.query).toMatchObject({
      direction: 'outbound',
      page: '2',
      perPage: '4',
    });
    expect(second.out).toContain(`Messages 5–8 of ${truth.total}`);
    expect(second.out).toContain(`5. → ${truth.data[0]?.creator_name}`);
    const back = await run('previous');
    expect(agentCalls(back.sent, 'messages')[0]?.query).toMatchObject({ page: '1' });
    expect(back.out).toContain('Messages 1–4');
  });

  it('opens the conversation of a message in time order with its Conversation button', async () => {
    const listed = await messages({ direction: 'inbound', perPage: 3 });
    const third = listed.data[2] as SandboxAgentMessage;
    const thread = (await messages({ threadId: third.thread_id })).data;
    await run('outreach messages direction:inbound perPage:3');
    const { out, sent } = await run('conversation 3');
    expect(agentCalls(sent, 'messages')[0]?.query).toEqual({
      threadId: third.thread_id,
      page: '1',
      perPage: '100',
    });
    const times = conversationTimes(out);
    expect(times).toHaveLength(thread.length);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    // The service answers newest first; the conversation must read oldest first.
    expect(thread.length).toBeGreaterThan(1);
    expect(out.indexOf((thread.at(-1) as SandboxAgentMessage).body)).toBeLessThan(
      out.indexOf((thread[0] as SandboxAgentMessage).body),
    );
  });

  it('offers a select instead of buttons on long pages, and the choice opens that conversation', async () => {
    const truth = await messages({ perPage: 30 });
    const { out } = await run('outreach messages perPage:30');
    expect(out).toContain('[1] Conversation: choose one of 1–25');
    expect(out).toContain('[2] Conversation: choose one of 26–30');
    expect(out).not.toMatch(/Conversation 1\b/);
    const picked = await run('1.2');
    expect(agentCalls(picked.sent, 'messages')[0]?.query).toMatchObject({
      threadId: truth.data[1]?.thread_id,
    });
    expect(picked.out).toContain(`Thread: ${truth.data[1]?.thread_id}`);
  });
});

describe('outreach contacted', () => {
  it('shows sent and reply counts and the last subject, with every filter sent', async () => {
    const truth = (await direct<PageBody<Contacted>>('/api/v1/agent/contacted-creators', { perPage: 100 }))
      .data;
    const creator = truth.find((c) => c.reply_messages_count > 0) as Contacted;
    const project = creator.project_ids[0] as string;
    const { out, sent } = await run(
      `outreach contacted email:${creator.creator_email} creatorId:${creator.creator_id} project:${project} page:1 perPage:3`,
    );
    expect(agentCalls(sent, 'contacted-creators')[0]?.query).toEqual({
      creatorEmail: creator.creator_email,
      creatorId: creator.creator_id,
      projectId: project,
      page: '1',
      perPage: '3',
    });
    expect(out).toContain(`1. ${creator.creator_name} <${creator.creator_email}>`);
    const only = await run(`outreach contacted email:${creator.creator_email}`);
    expect(only.out).toContain(`1. ${creator.creator_name} <${creator.creator_email}>`);
    expect(only.out).toContain(
      `Sent ${creator.sent_messages_count} · Replies ${creator.reply_messages_count}`,
    );
    expect(only.out).toContain(`Last: ${creator.last_subject}`);
    const partial = await run('outreach contacted contains:example.org');
    expect(agentCalls(partial.sent, 'contacted-creators')[0]?.query).toMatchObject({
      creatorEmailContains: 'example.org',
    });
  });

  it('pages and opens the messages of a creator', async () => {
    const page2 = await direct<PageBody<Contacted>>('/api/v1/agent/contacted-creators', {
      perPage: 5,
      page: 2,
    });
    await run('outreach contacted perPage:5');
    const second = await run('next');
    expect(agentCalls(second.sent, 'contacted-creators')[0]?.query).toMatchObject({
      page: '2',
      perPage: '5',
    });
    expect(second.out).toContain(`Creators 6–10 of ${page2.total}`);
    expect(second.out).toContain(`6. ${page2.data[0]?.creator_name}`);
    const opened = await run('messages 1');
    expect(agentCalls(opened.sent, 'messages')[0]?.query).toMatchObject({
      creatorEmail: page2.data[0]?.creator_email,
    });
    expect(opened.out).toContain(`<${page2.data[0]?.creator_email}>`);
  });
});

describe('bad input', () => {
  it.each([
    ['outreach messages direction:sideways', /direction cannot be "sideways"/],
    [
      'outreach messages status:"in progress"',
      /^Error: status must be one word, such as sent, received, replied, failed/m,
    ],
    [
      `outreach messages status:${'x'.repeat(41)}`,
      /^Error: status is too long for a status \(at most 40 characters\)\.$/m,
    ],
    ['outreach messages status:" "', /status needs a value/],
    ['outreach messages perPage:101', /^Error: perPage must be a whole number from 1 to 100\.$/m],
    ['outreach messages page:0', /^Error: page must be a whole number of at least 1\.$/m],
    ['outreach messages email:not-an-email', /^Error: email must be an email address\.$/m],
    ['outreach messages followUp:maybe', /^Error: followUp takes yes or no/m],
    [
      'outreach messages email:a@b.co creatorEmail:c@d.co',
      /email:a@b.co and creatorEmail:c@d.co both set email, to different values/,
    ],
    ['outreach messages colour:red', /Unknown option "colour"/],
    ['outreach contacted perPage:0', /^Error: perPage must be a whole number from 1 to 100\.$/m],
    ['outreach contacted thread:abc', /Unknown option "thread"/],
    ['outreach conversation', /thread is required/],
    ['outreach conversation a b', /not understood here/],
  ])('%s is refused before anything is sent', async (line, message) => {
    const { out, sent } = await run(line);
    expect(out).toMatch(/^Error: /);
    expect(out).toMatch(message);
    expect(sent).toHaveLength(0);
  });

  it('spends no credits: the agent data is free', async () => {
    expect(await h.spentToday()).toBe(0);
  });
});

describe('a long conversation', () => {
  it('reads every page of the thread and shows it oldest first, five at a time', async () => {
    const threadId = (await messages({ direction: 'outbound' })).data[0]?.thread_id as string;
    for (let i = 1; i <= 103; i++) {
      now += 60_000;
      h.sandbox.addInboundReply(TEST_TEAM, { threadId, body: `Reply number ${i}` });
    }
    const total = (await messages({ threadId, perPage: 1 })).total;
    expect(total).toBeGreaterThan(100);
    const { out, sent } = await run(`outreach conversation ${threadId}`);
    expect(agentCalls(sent, 'messages').map((r) => r.query.page)).toEqual(['1', '2']);
    expect(out).toContain(`Messages 1–5 of ${total} · Page 1 of ${Math.ceil(total / 5)}`);
    // The thread's own messages come before the 103 replies added now, so the fifth reply is on page 2 at the earliest.
    expect(out).not.toContain('Reply number 5');
    const times = conversationTimes(out);
    expect(times).toEqual([...times].sort((a, b) => a - b));

    const pages = Math.ceil(total / 5);
    let last = out;
    for (let page = 2; page <= pages; page++) last = (await run('next')).out;
    expect(last).toContain(`Page ${pages} of ${pages}`);
    expect(last).toContain('Reply number 103');
    expect(last.indexOf('Reply number 102')).toBeLessThan(last.indexOf('Reply number 103'));
    const back = await run('previous');
    expect(back.out).toContain(`Page ${pages - 1} of ${pages}`);
  });

  it('answers plainly for a thread without messages', async () => {
    const { out } = await run('outreach conversation 0000000000000000');
    expect(out).toContain('Warning: No messages found in thread 0000000000000000.');
  });
});

describe('outreach messages status on Discord', () => {
  const discord = discordBot();

  it('is a free text option, not a closed list of the statuses seen', async () => {
    const [root] = buildCommandJson(h.app.chat.catalogue);
    type Option = { name: string; options?: Option[]; choices?: unknown[]; description: string };
    const group = (root?.options as Option[] | undefined)?.find((o) => o.name === 'outreach');
    const messages = group?.options?.find((o) => o.name === 'messages');
    const names = messages?.options?.map((o) => o.name) ?? [];
    const status = messages?.options?.find((o) => o.name === 'status');
    // Typed as its own option or in `filters`, a status is free text: never a closed list of choices.
    expect(names).toContain('filters');
    expect(status?.choices).toBeUndefined();
  });

  it('declares the statuses seen, for autocomplete to offer while any other is accepted', () => {
    const status = outreachFamily.commands.find((c) => c.name === 'messages')?.params.status;
    expect(status).toMatchObject({ kind: 'text', known: ['sent', 'received', 'replied', 'failed'] });
  });

  it('suggests the statuses seen when a status typed matches no message', async () => {
    const { answer, sent } = await discord.run('outreach', 'messages', [
      { type: 3, name: 'filters', value: 'status:sen' },
    ]);
    expect(agentCalls(sent, 'messages').map((r) => r.query)).toEqual([
      { status: 'sen', page: '1', perPage: '10' },
    ]);
    expect(answer).toContain('No messages match these filters. Did you mean \\"sent\\"?');
  });

  it('sends a status typed into it', async () => {
    const { answer, sent } = await discord.run('outreach', 'messages', [
      { type: 3, name: 'filters', value: 'status:bounced' },
    ]);
    expect(agentCalls(sent, 'messages').map((r) => r.query)).toEqual([
      { status: 'bounced', page: '1', perPage: '10' },
    ]);
    expect(answer).not.toContain('not a valid status');
  });
});
