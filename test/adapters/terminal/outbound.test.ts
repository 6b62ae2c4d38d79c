import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createTerminalOutbound } from '../../../src/adapters/terminal/outbound.js';
import type { TextAction } from '../../../src/core/ui/index.js';
import { button, buttons, mention, notice, reply, text } from '../../../src/core/ui/index.js';

describe('the terminal outbound', () => {
  it('prints posts with numbered buttons and threads later posts under the first', async () => {
    const output = new PassThrough();
    let printed = '';
    output.on('data', (chunk: Buffer) => {
      printed += chunk.toString('utf8');
    });
    const seen: (readonly TextAction[])[] = [];
    const outbound = createTerminalOutbound({ output, onActions: (actions) => seen.push(actions) });
    const channel = { platform: 'terminal' as const, workspaceId: 'local', channelId: 'general' };
    const first = await outbound.post(
      channel,
      reply([text('New reply from Ana'), buttons(button('Show conversation', 'notify.conversation:abc'))]),
    );
    const second = await outbound.post(channel, reply([text('Another reply')]), { inThreadOf: first });
    expect(first).toEqual({ platform: 'terminal', channelId: 'general', messageId: '1', threadId: '1' });
    expect(second).toEqual({ platform: 'terminal', channelId: 'general', messageId: '2', threadId: '1' });
    expect(printed).toContain('── post 1 in #general ──\nNew reply from Ana');
    expect(printed).toContain('[1] Show conversation');
    expect(printed).toContain('── post 2 in #general, thread of post 1 ──\nAnother reply');
    expect(seen).toHaveLength(1);
    expect(seen[0]?.[0]).toMatchObject({ index: 1, actionId: 'notify.conversation:abc' });
  });

  it('prints a mention as @id', async () => {
    const output = new PassThrough();
    let printed = '';
    output.on('data', (chunk: Buffer) => {
      printed += chunk.toString('utf8');
    });
    const outbound = createTerminalOutbound({ output });
    const channel = { platform: 'terminal' as const, workspaceId: 'local', channelId: 'general' };
    await outbound.post(
      channel,
      reply([notice('warning', ['The digest of ', mention('ana'), ' was skipped.'])]),
    );
    expect(printed).toContain('Warning: The digest of @ana was skipped.');
  });
});
