import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentMessage, AgentProject, Sandbox } from '../../../src/sandbox/index.js';
import { clientFor, startSandbox } from '../fixture.js';

interface Page<T> {
  message: string;
  response: {
    data: T[];
    page: number;
    per_page: number;
    next_page: number;
    total_pages: number;
    total: number;
  };
}
interface Contacted {
  creator_email: string;
  creator_id: string;
  project_ids: string[];
  thread_ids: string[];
  sent_messages_count: number;
  reply_messages_count: number;
  has_replies: boolean;
  last_reply_at: string | null;
}

let sandbox: Sandbox;
const api = () => clientFor(sandbox, 'key-a');
let all: AgentMessage[] = [];

async function messages(query: Record<string, string | number | boolean> = {}): Promise<AgentMessage[]> {
  const out: AgentMessage[] = [];
  let page = 1;
  while (page !== 0) {
    const answer = await api().get<Page<AgentMessage>>('/api/v1/agent/messages', {
      perPage: 100,
      ...query,
      page,
    });
    expect(answer.status).toBe(200);
    out.push(...answer.json.response.data);
    page = answer.json.response.next_page;
  }
  return out;
}

beforeAll(async () => {
  sandbox = await startSandbox({
    rateLimitPerMinute: 10_000,
    keys: [
      { key: 'key-a', teamId: 'team-a', credits: 0 },
      { key: 'key-b', teamId: 'team-b', credits: 0 },
    ],
  });
  all = await messages();
});
afterAll(async () => {
  await sandbox.stop();
});

describe('agent projects', () => {
  it('lists the team projects, linked to its CRM lists, for free', async () => {
    const answer = await api().get<{ message: string; response: { data: AgentProject[] } }>(
      '/api/v1/agent/projects',
    );
    expect(answer.status).toBe(200);
    const projects = answer.json.response.data;
    expect(projects.length).toBeGreaterThanOrEqual(3);
    const lists = await api().get<{ response: { data: { id: string }[] } }>('/api/v2/crm/lists');
    const listIds = lists.json.response.data.map((l) => l.id);
    expect(
      projects.filter((p) => p.campaign_id !== null).every((p) => listIds.includes(p.campaign_id as string)),
    ).toBe(true);
    expect(new Set(projects.map((p) => p.status))).toEqual(new Set(['active', 'paused', 'disabled']));
    const theirs = await clientFor(sandbox, 'key-b').get<{ response: { data: AgentProject[] } }>(
      '/api/v1/agent/projects',
    );
    expect(theirs.json.response.data.map((p) => p.id)).not.toEqual(projects.map((p) => p.id));
    expect(answer.headers['x-ty-credits']).toBe('0');
  });
});

describe('agent messages', () => {
  it('pages through the whole history with the documented members and live field names', async () => {
    const first = await api().get<Page<AgentMessage>>('/api/v1/agent/messages');
    expect(first.json.response).toMatchObject({ page: 1, per_page: 50, total: all.length });
    expect(new Set(all.map((m) => m.id)).size).toBe(all.length);
    expect(all[0]).toHaveProperty('gmail_account_id');
    expect(all.some((m) => m.direction === 'inbound')).toBe(true);
    expect(all.some((m) => m.is_follow_up)).toBe(true);
  });

  it('filters by project, direction, status, follow-up, thread and mailbox (both names)', async () => {
    const project = all[0]?.project_id as string;
    const byProject = await messages({ projectId: project });
    expect(byProject.length).toBe(all.filter((m) => m.project_id === project).length);
    const inbound = await messages({ direction: 'inbound' });
    expect(inbound.length).toBe(all.filter((m) => m.direction === 'inbound').length);
    expect(inbound.every((m) => m.direction === 'inbound' && m.status === 'received')).toBe(true);
    const followUps = await messages({ isFollowUp: true });
    expect(followUps.length).toBeGreaterThan(0);
    expect(followUps.every((m) => m.is_follow_up)).toBe(true);
    const replied = await messages({ status: 'replied' });
    expect(replied.every((m) => m.status === 'replied' && m.replied_at !== null)).toBe(true);
    const thread = inbound[0]?.thread_id as string;
    const inThread = await messages({ threadId: thread });
    expect(inThread.length).toBeGreaterThanOrEqual(2);
    expect(inThread.every((m) => m.thread_id === thread)).toBe(true);
    const mailbox = all[0]?.gmail_account_id as string;
    const live = await messages({ gmailAccountId: mailbox });
    const contract = await messages({ mailboxAccountId: mailbox });
    expect(live.length).toBe(all.filter((m) => m.gmail_account_id === mailbox).length);
    expect(contract.map((m) => m.id)).toEqual(live.map((m) => m.id));
  });

  it('matches emails exactly (creatorEmail or email) and partially, ignoring the partial one when both come', async () => {
    const target = all[0] as AgentMessage;
    const exact = await messages({ creatorEmail: target.creator_email.toUpperCase() });
    expect(exact.length).toBeGreaterThan(0);
    expect(exact.every((m) => m.creator_email === target.creator_email)).toBe(true);
    expect((await messages({ email: target.creator_email })).length).toBe(exact.length);
    const domain = target.creator_email.split('@')[1] as string;
    const partial = await messages({ creatorEmailContains: domain });
    expect(partial.length).toBeGreaterThan(exact.length);
    const both = await messages({ creatorEmail: target.creator_email, creatorEmailContains: 'no-such-text' });
    expect(both.length).toBe(exact.length);
    expect(
      (await messages({ creatorId: target.creator_id })).every((m) => m.creator_id === target.creator_id),
    ).toBe(true);
  });

  it('answers 400 shape C for bad paging or direction', async () => {
    for (const query of [
      { perPage: 101 },
      { page: 0 },
      { direction: 'sideways' },
      { isFollowUp: 'perhaps' },
    ]) {
      const answer = await api().get('/api/v1/agent/messages', query);
      expect(answer.status).toBe(400);
      expect(answer.json).toEqual({ error: expect.any(String) });
    }
  });
});

describe('contacted creators', () => {
  it('aggregates non-failed outbound messages and replies per creator', async () => {
    const answer = await api().get<Page<Contacted>>('/api/v1/agent/contacted-creators', { perPage: 100 });
    const contacted = answer.json.response.data;
    expect(answer.json.response.total).toBe(contacted.length);
    const emails = new Set(
      all.filter((m) => m.direction === 'outbound' && m.status !== 'failed').map((m) => m.creator_email),
    );
    expect(new Set(contacted.map((c) => c.creator_email))).toEqual(emails);
    for (const c of contacted) {
      const sent = all.filter(
        (m) => m.creator_email === c.creator_email && m.direction === 'outbound' && m.status !== 'failed',
      );
      const replies = all.filter((m) => m.creator_email === c.creator_email && m.direction === 'inbound');
      expect(c.sent_messages_count).toBe(sent.length);
      expect(c.reply_messages_count).toBe(replies.length);
      expect(c.has_replies).toBe(replies.length > 0);
      expect(new Set(c.project_ids)).toEqual(new Set(sent.map((m) => m.project_id)));
    }
    expect(contacted.some((c) => c.project_ids.length > 1)).toBe(true);
    const project = contacted[0]?.project_ids[0] as string;
    const filtered = await api().get<Page<Contacted>>('/api/v1/agent/contacted-creators', {
      projectId: project,
      perPage: 2,
    });
    expect(filtered.json.response).toMatchObject({ per_page: 2, page: 1 });
    expect(filtered.json.response.data.every((c) => c.project_ids.includes(project))).toBe(true);
  });
});
