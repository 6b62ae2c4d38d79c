/**
 * The Outbound contract in the terminal: what it holds is what it printed, read back from its headers. A restart
 * is a new process printing below the last one (each names its message ids after itself); the terminal keeps no
 * history, so a post that may have been printed before a restart is printed again after it. Within one process
 * the answer (the message id) is made by the adapter itself, so the one way to lose it is for the write to throw
 * once the output has shown the post (a stream reporting a failure of the write it carried out): post() then
 * rejects, and its retry must answer with the post shown, not print it again. The driver checks the post was
 * shown, so the case cannot pass on a post that never reached the screen.
 */
import { Writable } from 'node:stream';
import { expect } from 'vitest';
import { createTerminalOutbound } from '../../src/adapters/terminal/outbound.js';
import type { Outbound } from '../../src/core/outbound.js';
import { describeOutboundContract, type Held } from './outbound.js';

/** A header and the lines under it, as the terminal prints a post. */
const POSTED = /^── (?:post (\d+) in #(\S+?)(?:, thread of post (\S+))?|direct message (\d+) to (@\S+)) ──\n/;

describeOutboundContract('terminal', { remembersAcrossRestart: false }, async () => {
  // What each process printed, in order.
  const runs: Array<{ name: string; printed: string }> = [];
  let outbound: Outbound;
  /** Set while a post's answer is to be lost: the output shows the next write, then fails it. */
  let failAfterShowing = false;
  const startProcess = () => {
    const run = { name: `run${runs.length + 1}`, printed: '' };
    runs.push(run);
    const output = new Writable({
      write(chunk, _encoding, done) {
        run.printed += String(chunk);
        done();
        if (failAfterShowing) {
          // Done with, so later posts are written: only this one's answer is lost.
          failAfterShowing = false;
          throw Object.assign(new Error('write EIO'), { code: 'EIO' });
        }
      },
    });
    outbound = createTerminalOutbound({ output, run: run.name });
  };
  startProcess();
  /** A message id as the process `run` names the post it numbered `n` (a header names another's in full). */
  const idOf = (label: string, run: string) => (label.includes('@') ? label : `${label}@${run}`);
  return {
    get outbound() {
      return outbound;
    },
    channel: { platform: 'terminal', workspaceId: 'local', channelId: 'general' },
    person: { platform: 'terminal', workspaceId: 'local', userId: 'ana' },
    async messages(channelId) {
      const held: Held[] = [];
      for (const run of runs) {
        for (const part of run.printed.split(/\n(?=── )/)) {
          const header = POSTED.exec(part);
          if (header === null) continue;
          const [, post, channel, parent, direct, person] = header;
          // A direct message's channel is its person (`@ana`).
          if ((channel ?? person) !== channelId) continue;
          held.push({
            id: idOf(post ?? direct ?? '', run.name),
            thread: parent === undefined ? null : idOf(parent, run.name),
            text: part.slice(header[0].length),
          });
        }
      }
      return held;
    },
    async restart() {
      startProcess();
    },
    async loseAnswer(post) {
      const shown = runs.map((run) => run.printed).join('').length;
      failAfterShowing = true;
      await post().catch(() => undefined);
      // The terminal took the post: it is on the screen, whatever the write reported.
      expect(failAfterShowing).toBe(false);
      expect(runs.map((run) => run.printed).join('').length).toBeGreaterThan(shown);
    },
    async crash(post, when) {
      // Printing is the landing: a process that died before it printed nothing.
      if (when === 'after landing') await post();
      startProcess();
    },
    async close() {},
  };
});
