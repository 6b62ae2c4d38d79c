/**
 * Interim messages through the dispatcher: nothing is shown after an answer, whichever way the command ends (a
 * repeat answered from its claim included), and a command's own interim message replaces the working message.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_ACTOR } from '../../../src/adapters/terminal/shell.js';
import type { Reply } from '../../../src/core/ui/index.js';
import { type Harness, startHarness } from '../../helpers/harness.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness({
    settings: { workingNoticeMs: 100 },
    sandbox: { remixDelayMs: 600, replyIntervalMs: 0 },
  });
});

afterAll(async () => {
  await h.stop();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('interim messages through the dispatcher', () => {
  it('shows nothing after the answer of a repeat answered from its claim', async () => {
    const log: string[] = [];
    const run = (tag: string) =>
      h.app.dispatcher.text({
        actor: LOCAL_ACTOR,
        channelId: 'c1',
        text: 'lists create name:Repeated',
        updatesInPlace: true,
        progress: async (shown: Reply) => {
          log.push(`${tag} interim ${JSON.stringify(shown.nodes)}`);
        },
      });
    await run('first');
    log.push('first answer');
    await run('second');
    log.push('second answer');
    await sleep(300);
    expect(log.at(-1)).toBe('second answer');
  });

  it('shows no working message after the command said it is working', async () => {
    const out = await h.type('remix video https://example.com/clip.mp4 speed:1.05');
    expect(out.match(/Remixing the video…/g)).toHaveLength(1);
  });
});
