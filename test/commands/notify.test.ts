import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LOCAL_ACTOR } from '../../src/adapters/terminal/shell.js';
import { listFamily, listsFamily } from '../../src/commands/lists.js';
import { notifyFamily } from '../../src/commands/notify.js';
import { outreachFamily } from '../../src/commands/outreach.js';
import { createReplyPoller } from '../../src/core/jobs/index.js';
import { createLogger } from '../../src/core/logger.js';
import type { Outbound, PostedMessage } from '../../src/core/outbound.js';
import { type Reply, renderText } from '../../src/core/ui/index.js';
import { type Harness, startHarness, TEST_TEAM } from '../helpers/harness.js';

let harness: Harness;
beforeEach(async () => {
  // No repeat window: the tests run the same command twice on purpose.
  harness = await startHarness({
    families: [notifyFamily, outreachFamily, listsFamily, listFamily],
    settings: { repeatWindowMs: 0 },
  });
});
afterEach(async () => {
  await harness.stop();
});

const invocation = { actor: LOCAL_ACTOR, channelId: 'terminal' };

/** Subscribes, lets a reply of `projectId` arrive and returns its notification. */
async function notification(projectId: string): Promise<Reply> {
  const posts: Reply[] = [];
  const outbound: Outbound = {
    platform: 'terminal',
    async post(channel, reply): Promise<PostedMessage> {
      posts.push(reply);
      return {
        platform: 'terminal',
        channelId: channel.channelId,
        messageId: String(posts.length),
        threadId: null,
      };
    },
    async postDirect(): Promise<PostedMessage> {
      throw new Error('The reply poller sends no direct messages.');
    },
  };
  const poller = createReplyPoller({
    app: harness.app,
    outbound: new Map([['terminal', outbound]]),
    logger: createLogger({ level: 'silent' }),
    clock: harness.app.clock,
  });
  await poller.poll();
  await new Promise((resolve) => setTimeout(resolve, 5));
  harness.sandbox.addInboundReply(TEST_TEAM, { projectId, body: 'Happy to talk.' });
  await poller.poll();
  await poller.deliver();
  const [post] = posts;
  if (post === undefined) throw new Error('no notification was posted');
  return post;
}

const press = async (reply: Reply, label: string, value?: string) => {
  const action = renderText(reply).actions.find((a) => a.label === label);
  if (action === undefined) throw new Error(`no ${label} here`);
  return renderText(
    await harness.app.dispatcher.action({
      ...invocation,
      token: action.actionId,
      ...(value === undefined ? {} : { event: { value } }),
    }),
  ).text;
};

describe('/scout notify', () => {
  it('subscribes once, lists and unsubscribes', async () => {
    expect(await harness.type('notify')).toMatch(
      /now gets each new creator reply of every project[\s\S]*\d+ earlier replies exist/,
    );
    expect(await harness.type('notify')).toContain('already gets new replies');
    expect(await harness.type('notify list')).toContain('#terminal (this channel): every project');
    expect(await harness.type('notify off')).toContain(
      'Reply notifications stopped in this channel (1 subscription)',
    );
    expect(await harness.type('notify off')).toContain('no reply notifications to stop');
    expect(await harness.type('notify list')).toContain('No channel of this workspace');
  });

  it('refuses an unknown project before subscribing', async () => {
    expect(await harness.type('notify project:"No such project"')).toContain('No agent project is called');
    expect(await harness.app.store.subscriptions.active()).toEqual([]);
  });

  it('"Set status" explains when the project has no CRM list', async () => {
    const projects = (await harness.app.service.agent.projects()).data.projects;
    const unlinked = projects.find((p) => !p.campaign_id);
    await harness.type('notify');
    const post = await notification(unlinked?.id ?? '');
    expect(await press(post, 'Set status')).toContain('is not linked to a CRM list');
  });

  it('"Set status" updates the creator’s contact in the project’s list', async () => {
    const projects = (await harness.app.service.agent.projects()).data.projects;
    const linked = projects.find((p) => p.campaign_id);
    await harness.type('notify');
    const post = await notification(linked?.id ?? '');
    expect(renderText(post).text).toContain('Happy to talk.');
    const outcome = await press(post, 'Set status');
    if (outcome.includes('is not in')) {
      const add = /\/scout (list add .+)\./.exec(outcome)?.[1];
      expect(await harness.type(add ?? '')).toContain('Added');
      expect(await press(post, 'Set status')).toContain('New status for');
    } else {
      expect(outcome).toContain('New status for');
    }
    expect(await press(post, 'Set status', 'negotiating')).toContain('Updated');
  });

  it('"Set status" names the creator as the notification does, never by the service’s creator id', async () => {
    const projects = (await harness.app.service.agent.projects()).data.projects;
    const linked = projects.find((p) => p.campaign_id);
    await harness.type('notify');
    const post = await notification(linked?.id ?? '');
    const name = /^New reply from (.+)$/m.exec(renderText(post).text)?.[1] as string;
    let outcome = await press(post, 'Set status');
    if (outcome.includes('is not in')) {
      await harness.type(/\/scout (list add .+)\./.exec(outcome)?.[1] ?? '');
      outcome = await press(post, 'Set status');
    }
    expect(outcome).toContain(`New status for ${name} in `);
    expect(outcome).not.toMatch(/(tiktok|instagram|youtube|twitter|linkedin|twitch)_\w+/);
    const updated = await press(post, 'Set status', 'negotiating');
    expect(updated).toMatch(/Updated \S/);
    expect(updated.split('\n')[0]).not.toMatch(/(tiktok|instagram|youtube|twitter|linkedin|twitch)_\w+/);
  });
});
