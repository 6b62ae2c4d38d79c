/** New creator replies: chosen threads of a team receive inbound messages (timer or addInboundReply). */

import { SandboxHttpError } from '../server/http.js';
import type { AgentMessage } from './records.js';
import { appendReply, type TeamState } from './teams.js';

/** Narrows which conversation receives a reply. */
export interface InboundReplyOptions {
  /** Reply in this thread. */
  threadId?: string;
  /** Reply in a conversation of this project. */
  projectId?: string;
  /** Reply from this creator (case-insensitive email). */
  creatorEmail?: string;
  /** Text of the reply; a canned answer otherwise. */
  body?: string;
}

/** Adds an inbound reply at `at` to a conversation of the team and returns the saved message. */
export function addReply(team: TeamState, at: number, options: InboundReplyOptions = {}): AgentMessage {
  const email = options.creatorEmail?.toLowerCase();
  const candidates = new Map<string, { replied: boolean }>();
  for (const m of team.messages) {
    if (options.threadId !== undefined && m.thread_id !== options.threadId) continue;
    if (options.projectId !== undefined && m.project_id !== options.projectId) continue;
    if (email !== undefined && m.creator_email.toLowerCase() !== email) continue;
    const entry = candidates.get(m.thread_id);
    if (m.direction === 'outbound' && m.status !== 'failed' && !entry)
      candidates.set(m.thread_id, { replied: false });
    if (m.direction === 'inbound' && entry) entry.replied = true;
  }
  if (candidates.size === 0)
    throw new SandboxHttpError(
      400,
      `Team ${team.teamId} has no conversation matching ${JSON.stringify(options)}`,
    );
  const threads = [...candidates.entries()];
  const replied = threads.filter(([, t]) => t.replied);
  const waiting = threads.filter(([, t]) => !t.replied);
  // Some replies continue a thread that already has answers, the others open the conversation up.
  const pool = replied.length > 0 && (waiting.length === 0 || team.random.chance(0.35)) ? replied : waiting;
  const [threadId] = team.random.pick(pool);
  return appendReply(team, threadId, at, options.body);
}
