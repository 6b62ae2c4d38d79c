/**
 * What only the terminal's Outbound does: how it prints a post, and how many keys it remembers. Its keys, threads
 * and restarts are the Outbound contract's (test/contracts/terminal-outbound.test.ts).
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createTerminalOutbound, KEYS_REMEMBERED } from '../../../src/adapters/terminal/outbound.js';
import type { Shown } from '../../../src/adapters/terminal/pages.js';
import { button, buttons, card, mention, notice, reply, text } from '../../../src/core/ui/index.js';

const channel = { platform: 'terminal' as const, workspaceId: 'local', channelId: 'general' };

/** An output that keeps what was printed. */
function screen(): { output: PassThrough; printed: () => string } {
  const output = new PassThrough();
  let printed = '';
  output.on('data', (chunk: Buffer) => {
    printed += chunk.toString('utf8');
  });
  return { output, printed: () => printed };
}

describe('the terminal outbound', () => {
  it('prints a post under a header, with its buttons numbered, through the shell that shows it', async () => {
    const { output, printed } = screen();
    const seen: Shown[] = [];
    const outbound = createTerminalOutbound({
      output,
      shell: {
        printPost: (posted, shown) => {
          output.write(posted);
          if (shown.actions.length > 0) seen.push(shown);
        },
      },
      run: 'k2x9',
    });
    const first = await outbound.post(
      channel,
      reply([text('New reply from Ana'), buttons(button('Show conversation', 'notify.conversation:abc'))]),
    );
    await outbound.post(channel, reply([text('Another reply')]), { inThreadOf: first });
    expect(first).toEqual({
      platform: 'terminal',
      channelId: 'general',
      messageId: '1@k2x9',
      threadId: '1@k2x9',
    });
    expect(printed()).toContain('── post 1 in #general ──\nNew reply from Ana');
    expect(printed()).toContain('[1] Show conversation');
    expect(printed()).toContain('── post 2 in #general, thread of post 1 ──\nAnother reply');
    expect(seen).toHaveLength(1);
    expect(seen[0]?.actions[0]).toMatchObject({ index: 1, actionId: 'notify.conversation:abc' });
  });

  it('numbers the cards of a page it posts, as replies do, and hands the page to the shell', async () => {
    const { output, printed } = screen();
    const seen: Shown[] = [];
    const outbound = createTerminalOutbound({
      output,
      shell: {
        printPost: (posted, shown) => {
          output.write(posted);
          seen.push(shown);
        },
      },
    });
    const post = (n: number) =>
      card({ title: `@post${n}`, actions: [button('Find creator', `viral.find:p${n}`)] });
    await outbound.post(channel, reply([text('Your digest'), post(1), post(2)]));
    expect(printed()).toContain('1. @post1\n  [1] Find creator\n\n2. @post2\n  [2] Find creator');
    expect(seen[0]?.page?.cards.map((buttons) => buttons.map((b) => b.actionId))).toEqual([
      ['viral.find:p1'],
      ['viral.find:p2'],
    ]);
  });

  it('names a thread begun by an earlier process by its whole id', async () => {
    const { output, printed } = screen();
    const outbound = createTerminalOutbound({ output, run: 'b' });
    const earlier = {
      platform: 'terminal' as const,
      channelId: 'general',
      messageId: '4@a',
      threadId: '4@a',
    };
    const posted = await outbound.post(channel, reply([text('Later reply')]), { inThreadOf: earlier });
    expect(posted).toEqual({ platform: 'terminal', channelId: 'general', messageId: '1@b', threadId: '4@a' });
    expect(printed()).toContain('── post 1 in #general, thread of post 4@a ──\nLater reply');
  });

  it('prints a mention as @id', async () => {
    const { output, printed } = screen();
    const outbound = createTerminalOutbound({ output });
    await outbound.post(
      channel,
      reply([notice('warning', ['The digest of ', mention('ana'), ' was skipped.'])]),
    );
    expect(printed()).toContain('Warning: The digest of @ana was skipped.');
  });

  it('remembers the last keys only: the oldest is printed again, a recent one is not', async () => {
    const { output, printed } = screen();
    const outbound = createTerminalOutbound({ output, run: 'r' });
    const post = (n: number) =>
      outbound.post(channel, reply([text(`Reply ${n}.`)]), { key: `key:${n}`, mayHaveLanded: true });
    for (let n = 0; n <= KEYS_REMEMBERED; n += 1) await post(n);
    const count = (n: number) => printed().split(`Reply ${n}.\n`).length - 1;
    // Key 0 is the one forgotten to make room for the last.
    expect((await post(1)).messageId).toBe('2@r');
    expect((await post(KEYS_REMEMBERED)).messageId).toBe(`${KEYS_REMEMBERED + 1}@r`);
    expect([count(1), count(KEYS_REMEMBERED)]).toEqual([1, 1]);
    expect((await post(0)).messageId).toBe(`${KEYS_REMEMBERED + 2}@r`);
    expect(count(0)).toBe(2);
  });
});
