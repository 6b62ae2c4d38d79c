/** Seeded per-team data: CRM lists and contacts, agent projects and their conversation histories. */

import { InternalError } from '../../core/errors.js';
import { CRM_STATUSES } from '../../core/service/enums.js';
import { createRandom, createWeighted, hashString, type Random } from '../random.js';
import { DAY_MS, isoDate, isoLocal, isoTimestamp } from '../time.js';
import type {
  AgentMessage,
  AgentProject,
  CreatorProfile,
  CrmContactRecord,
  CrmListRecord,
} from './records.js';
import { CATEGORY_TOPICS } from './vocab.js';

/** Everything one team owns in the sandbox; mutated by CRM operations and arriving replies. */
export interface TeamState {
  readonly teamId: string;
  readonly ownerName: string;
  readonly lists: CrmListRecord[];
  readonly contacts: CrmContactRecord[];
  readonly projects: AgentProject[];
  readonly messages: AgentMessage[];
  /** The team's own stream for ids and choices made after creation (deterministic per request order). */
  readonly random: Random;
}

const LIST_NAMES = [
  'Spring Skincare Launch',
  'Fitness Ambassadors',
  'Back to School',
  'Holiday Gift Guide',
  'Gaming Week',
  'Eco Living Series',
  'Travel Creators Q3',
  'Foodie Partnerships',
] as const;

const REPLIES = [
  'Hi! Thanks for reaching out. What budget do you have in mind for this?',
  'Sounds fun, can you send me more details about the deliverables?',
  'Thanks, but I am fully booked this month. Maybe next quarter!',
  'My rate is $450 per video, usage rights extra. Happy to chat.',
  'Love the brand! I can do one reel and three stories.',
  'Can you ship the product first so I can try it?',
  'Please contact my manager at the address in my bio.',
] as const;

const pickStatus = createWeighted(CRM_STATUSES, [35, 25, 15, 10, 10, 5]);

/** A UUID-shaped id from a seeded stream. */
export function uuidFrom(random: Random): string {
  return `${random.hex(8)}-${random.hex(4)}-4${random.hex(3)}-${random.pick(['8', '9', 'a', 'b'])}${random.hex(3)}-${random.hex(12)}`;
}

function preview(body: string): string {
  return body.length > 120 ? `${body.slice(0, 117)}...` : body;
}

/** Builds a contact for a creator in a list; used by seeding and by the add operation. */
export function newContact(
  random: Random,
  listId: string,
  creator: CreatorProfile,
  status: string,
  at: number,
): CrmContactRecord {
  return {
    id: uuidFrom(random),
    list_id: listId,
    user_id: creator.user_id,
    status,
    contact_email: creator.email ?? '',
    handle: creator.handle,
    instagram_handle: creator.source === 'instagram' ? creator.handle : null,
    tiktok_handle: creator.source === 'tiktok' ? creator.handle : null,
    first_contact_date: null,
    last_contact_date: null,
    response_date: null,
    proposed_rate: null,
    agreed_rate: null,
    content_deliverables: '',
    notes: '',
    active: true,
    date_created: isoLocal(at),
    date_updated: isoLocal(at),
  };
}

interface Mailbox {
  id: string;
  email: string;
}

/** The creator context saved with every message of a conversation. */
type CreatorContext = Pick<
  AgentMessage,
  'creator_id' | 'creator_name' | 'creator_email' | 'creator_platform'
>;

interface MessageContext {
  team: TeamState;
  projectId: string;
  mailbox: Mailbox;
  creator: CreatorContext;
}

function message(
  context: MessageContext,
  fields: Pick<
    AgentMessage,
    'direction' | 'subject' | 'body' | 'status' | 'thread_id' | 'conversation_id'
  > & {
    at: number;
    parent: AgentMessage | null;
    followUp: number;
  },
): AgentMessage {
  const random = context.team.random;
  return {
    id: random.hex(24),
    project_id: context.projectId,
    conversation_id: fields.conversation_id,
    gmail_account_id: context.mailbox.id,
    sender_email: context.mailbox.email,
    direction: fields.direction,
    ...context.creator,
    subject: fields.subject,
    body: fields.body,
    body_preview: preview(fields.body),
    status: fields.status,
    sent_at: fields.status === 'failed' ? null : isoTimestamp(fields.at),
    replied_at: null,
    failed_at: fields.status === 'failed' ? isoTimestamp(fields.at) : null,
    date_created: isoTimestamp(fields.at),
    date_updated: isoTimestamp(fields.at),
    thread_id: fields.thread_id,
    message_id: `<${random.hex(20)}@mail.example.com>`,
    parent_message_id: fields.parent?.message_id ?? null,
    is_follow_up: fields.followUp > 0,
    follow_up_number: fields.followUp,
    metadata: {
      workflow: fields.direction === 'inbound' ? 'reply' : fields.followUp > 0 ? 'follow_up' : 'initial',
    },
  };
}

/** Marks the latest outbound message of a thread as replied to. */
function markReplied(messages: AgentMessage[], threadId: string, at: number): void {
  const outbound = messages.filter(
    (m) => m.thread_id === threadId && m.direction === 'outbound' && m.status !== 'failed',
  );
  const last = outbound[outbound.length - 1];
  if (!last) return;
  last.status = 'replied';
  last.replied_at = isoTimestamp(at);
  last.date_updated = isoTimestamp(at);
}

/** Appends an inbound reply to a thread: the shared step of seeding and of replies arriving later. */
export function appendReply(team: TeamState, threadId: string, at: number, body?: string): AgentMessage {
  const thread = team.messages.filter((m) => m.thread_id === threadId);
  const first = thread[0];
  const last = thread[thread.length - 1];
  const project = team.projects.find((p) => p.id === first?.project_id);
  if (!first || !last || !project) throw new InternalError(`No conversation with thread id ${threadId}`);
  const context: MessageContext = {
    team,
    projectId: project.id,
    mailbox: { id: first.gmail_account_id, email: first.sender_email },
    creator: {
      creator_id: first.creator_id,
      creator_name: first.creator_name,
      creator_email: first.creator_email,
      creator_platform: first.creator_platform,
    },
  };
  const reply = message(context, {
    direction: 'inbound',
    subject: first.subject.startsWith('Re: ') ? first.subject : `Re: ${first.subject}`,
    body: body ?? team.random.pick(REPLIES),
    status: 'received',
    thread_id: threadId,
    conversation_id: first.conversation_id,
    at,
    parent: last,
    followUp: 0,
  });
  markReplied(team.messages, threadId, at);
  team.messages.push(reply);
  project.total_responses += 1;
  project.date_updated = isoTimestamp(at);
  return reply;
}

interface ConversationPlan {
  team: TeamState;
  project: AgentProject;
  mailbox: Mailbox;
  creator: CreatorProfile;
  start: number;
  createdAt: number;
}

function seedConversation(plan: ConversationPlan): void {
  const { team, project, creator } = plan;
  const random = team.random;
  const context: MessageContext = {
    team,
    projectId: project.id,
    mailbox: plan.mailbox,
    creator: {
      creator_id: creator.user_id,
      creator_name: creator.nickname,
      creator_email: creator.email ?? '',
      creator_platform: creator.source,
    },
  };
  const threadId = random.hex(16);
  const conversationId = random.hex(24);
  const subject = project.subject_override ?? `Collab idea: ${project.name} x ${creator.handle}`;
  const first = creator.nickname.split(' ')[0] ?? creator.nickname;
  const failed = random.chance(0.05);
  const opening = message(context, {
    direction: 'outbound',
    subject,
    body: `Hi ${first}, we love your ${creator.main_category.toLowerCase()} content and would like to work with you on ${project.name}. Interested? Best, ${team.ownerName}`,
    status: failed ? 'failed' : 'sent',
    thread_id: threadId,
    conversation_id: conversationId,
    at: plan.start,
    parent: null,
    followUp: 0,
  });
  team.messages.push(opening);
  if (failed) return;
  const latest = plan.createdAt - 3_600_000;
  let last = opening;
  let at = plan.start;
  if (random.chance(0.4)) {
    at += random.float(0.2, 4) * DAY_MS;
    if (at > latest) return;
    appendReply(team, threadId, at);
    if (random.chance(0.4)) {
      at += random.float(0.1, 2) * DAY_MS;
      if (at > latest) return;
      last = team.messages[team.messages.length - 1] as AgentMessage;
      team.messages.push(
        message(context, {
          direction: 'outbound',
          subject: `Re: ${subject}`,
          body: `Thanks ${first}! Our offer is a flat fee plus product. Could you share your availability? ${team.ownerName}`,
          status: 'sent',
          thread_id: threadId,
          conversation_id: conversationId,
          at,
          parent: last,
          followUp: 0,
        }),
      );
      at += random.float(0.2, 3) * DAY_MS;
      if (random.chance(0.5) && at <= latest) appendReply(team, threadId, at);
    }
    return;
  }
  const followUps = random.int(0, 2);
  for (let n = 1; n <= followUps; n++) {
    at += 3 * DAY_MS;
    if (at > latest) return;
    last = message(context, {
      direction: 'outbound',
      subject: `Re: ${subject}`,
      body: `Hi ${first}, just following up on my last email about ${project.name}. ${team.ownerName}`,
      status: 'sent',
      thread_id: threadId,
      conversation_id: conversationId,
      at,
      parent: last,
      followUp: n,
    });
    team.messages.push(last);
  }
  if (followUps > 0 && random.chance(0.2)) {
    at += random.float(0.2, 2) * DAY_MS;
    if (at <= latest) appendReply(team, threadId, at);
  }
}

function seedLists(team: TeamState, createdAt: number, emailed: readonly CreatorProfile[]): void {
  const random = team.random;
  const names: string[] = random.sample(LIST_NAMES, 3);
  names.push('Summer Pilot (archived)');
  names.forEach((name, index) => {
    const created = createdAt - random.float(20, 90) * DAY_MS;
    const list: CrmListRecord = {
      id: uuidFrom(random),
      name,
      website_id: `web_${random.hex(12)}`,
      description: `Creators for the ${name} campaign.`,
      budget: random.int(10, 200) * 100,
      start_date: isoDate(created + 7 * DAY_MS),
      end_date: random.chance(0.5) ? isoDate(created + 90 * DAY_MS) : null,
      team_id: team.teamId,
      active: index < 3,
      date_created: isoLocal(created),
      date_updated: isoLocal(created),
    };
    team.lists.push(list);
    for (const creator of random.sample(emailed, random.int(8, 20))) {
      const added = created + random.float(0, 10) * DAY_MS;
      const contact = newContact(random, list.id, creator, pickStatus(random), added);
      if (contact.status !== 'TO_OUTREACH') {
        contact.first_contact_date = isoLocal(added + DAY_MS);
        contact.last_contact_date = isoLocal(added + random.float(1, 8) * DAY_MS);
      }
      if (['NEGOTIATING', 'WORKING', 'DONE'].includes(contact.status)) {
        contact.response_date = isoLocal(added + random.float(2, 9) * DAY_MS);
        contact.proposed_rate = random.int(1, 20) * 50;
      }
      if (contact.status === 'WORKING' || contact.status === 'DONE') {
        contact.agreed_rate = contact.proposed_rate;
        contact.content_deliverables = '1 video, 2 stories';
      }
      contact.active = random.chance(0.9);
      team.contacts.push(contact);
    }
  });
}

/** Generates one team's data: a pure function of the seed, team id, creation instant and creators. */
export function generateTeam(
  seed: number,
  teamId: string,
  ownerName: string,
  createdAt: number,
  creators: readonly CreatorProfile[],
  creatorById: ReadonlyMap<string, CreatorProfile>,
): TeamState {
  const random = createRandom(hashString(`team:${teamId}`, seed));
  const team: TeamState = { teamId, ownerName, lists: [], contacts: [], projects: [], messages: [], random };
  const emailed = creators.filter((c) => c.email !== null && c.source !== 'twitch');
  seedLists(team, createdAt, emailed);

  const slug = teamId.toLowerCase().replace(/[^a-z0-9]+/g, '-') || 'team';
  const mailboxes: Mailbox[] = [
    { id: random.hex(24), email: `outreach@${slug}.example.com` },
    { id: random.hex(24), email: `partnerships@${slug}.example.com` },
  ];
  const statuses = ['active', 'active', 'paused', 'disabled'] as const;
  const contacted: CreatorProfile[][] = [];
  statuses.forEach((status, index) => {
    const list = team.lists[index];
    const linked = index < 3 && list ? list : null;
    const created = createdAt - random.float(30, 60) * DAY_MS;
    const categories = random.sample(Object.keys(CATEGORY_TOPICS), 2);
    const project: AgentProject = {
      id: random.hex(24),
      name: linked ? `${linked.name} outreach` : 'Evergreen outreach',
      website: `https://${slug}.example.com`,
      website_id: linked ? linked.website_id : `web_${random.hex(12)}`,
      campaign_id: linked ? linked.id : null,
      status,
      deal_config: {
        type: random.pick(['paid', 'gifted', 'affiliate']),
        currency: 'USD',
        budget_per_creator: random.int(2, 20) * 50,
        deliverables: ['1 short video', '2 stories'],
      },
      target_keywords: categories.flatMap((c) =>
        (CATEGORY_TOPICS[c as keyof typeof CATEGORY_TOPICS] ?? []).slice(0, 1),
      ),
      target_categories: categories,
      target_countries: random.sample(
        ['United States', 'United Kingdom', 'Canada', 'Germany', 'Australia'],
        2,
      ),
      subject_override: random.chance(0.25) ? `Partnership with ${slug}` : null,
      prompt_override: null,
      message_body_override: null,
      total_emails_sent: 0,
      total_responses: 0,
      total_credits_used: 0,
      date_created: isoTimestamp(created),
      date_updated: isoTimestamp(created),
      last_run_at: status === 'disabled' ? null : isoTimestamp(createdAt - random.float(0.1, 2) * DAY_MS),
    };
    team.projects.push(project);
    const fromList = linked
      ? team.contacts
          .filter((c) => c.list_id === linked.id && c.status !== 'TO_OUTREACH')
          .map((c) => creatorById.get(c.user_id))
          .filter((c): c is CreatorProfile => c !== undefined)
      : [];
    // The second project reaches some creators the first already wrote to, so aggregates span projects.
    const shared = index === 1 ? (contacted[0] ?? []).slice(0, 3) : [];
    const extra = random.sample(emailed, Math.max(0, random.int(12, 20) - fromList.length - shared.length));
    const audience = [...new Map([...fromList, ...shared, ...extra].map((c) => [c.user_id, c])).values()];
    contacted.push(audience);
    for (const creator of audience) {
      seedConversation({
        team,
        project,
        mailbox: mailboxes[index % 2] as Mailbox,
        creator,
        start: createdAt - random.float(2, 40) * DAY_MS,
        createdAt,
      });
    }
    const mine = team.messages.filter((m) => m.project_id === project.id);
    project.total_emails_sent = mine.filter(
      (m) => m.direction === 'outbound' && m.status !== 'failed',
    ).length;
    project.total_credits_used = project.total_emails_sent * 2;
  });
  return team;
}
