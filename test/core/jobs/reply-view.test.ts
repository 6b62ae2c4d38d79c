/** The post announcing a reply: the project by its name, its id only labelled; the buttons carry the handle. */
import { describe, expect, it } from 'vitest';
import { NOTIFY_KINDS, replyNotification } from '../../../src/core/jobs/reply-view.js';
import type { AgentMessage } from '../../../src/core/service/index.js';
import { renderText } from '../../../src/core/ui/index.js';

const message = {
  id: 'm1',
  thread_id: 't1',
  project_id: '65f0c2a1b3d4e5f6a7b8c9d0',
  creator_id: 'tiktok_7962805115942189270',
  creator_name: 'Ana Lee',
  creator_platform: 'tiktok',
  subject: 'Re: Collab',
  body_preview: 'Happy to talk.',
} as AgentMessage;

function notified(projectName: string | null) {
  const payloads = new Map<string, unknown>();
  const reply = replyNotification(message, {
    projectName,
    handle: 'ana.lee',
    inThread: false,
    token: (kind, payload) => {
      payloads.set(kind, payload);
      return `${kind}:1`;
    },
  });
  return { text: renderText(reply).text, payloads };
}

describe('replyNotification', () => {
  it('names the project; an unknown one is shown by its id, labelled; never the creator id', () => {
    const named = notified('Spring Launch outreach').text;
    expect(named).toContain('Project: Spring Launch outreach');
    expect(named).not.toContain('65f0c2a1b3d4e5f6a7b8c9d0');
    const unknown = notified(null).text;
    expect(unknown).toContain('Project id: 65f0c2a1b3d4e5f6a7b8c9d0');
    expect(`${named}${unknown}`).not.toContain('tiktok_7962805115942189270');
  });

  it('gives "Set status" the handle, so its answer names the creator as the post does', () => {
    const { payloads } = notified('Spring Launch outreach');
    expect(payloads.get(NOTIFY_KINDS.status)).toMatchObject({ creatorName: 'Ana Lee', handle: 'ana.lee' });
  });
});
