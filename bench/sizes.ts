/**
 * How long Scout's answers are, as people read them: the terminal's lines and characters of `help`, `help creators`
 * and a page of 5 creators, beside the same answers before they were made to fit a screen, and how many Slack
 * messages and blocks, and Discord messages, the page becomes.
 */
import { renderDiscord } from '../src/adapters/discord/render.js';
import { renderSlackMessages } from '../src/adapters/slack/render.js';
import type { App } from '../src/app.js';
import type { Actor } from '../src/core/actor.js';
import { renderText } from '../src/core/ui/index.js';

/** Lines and characters of each answer measured at 4ab6886, before help was cut to a screen and pages to cards. */
const BEFORE: Readonly<Record<string, { lines: number; chars: number }>> = {
  help: { lines: 21, chars: 2141 },
  'help creators': { lines: 120, chars: 10_621 },
  'creators search category:Fitness': { lines: 51, chars: 1754 },
};

const count = (n: number) => n.toLocaleString('en-US');

/** Rows of the benchmark table: each answer's size now and before, and the page on each platform. */
export async function sizeRows(app: App, actor: Actor): Promise<{ name: string; figure: string }[]> {
  const rows: { name: string; figure: string }[] = [];
  for (const [line, before] of Object.entries(BEFORE)) {
    const answer = await app.dispatcher.text({ actor, channelId: 'sizes', text: line });
    const text = renderText(answer).text.trimEnd();
    const lines = text.split('\n').length;
    rows.push({
      name: `answer size: \`${line}\` in the terminal`,
      figure: `${count(lines)} lines, ${count(text.length)} characters (before: ${before.lines} lines, ${count(before.chars)})`,
    });
    if (line.startsWith('creators')) {
      const slack = renderSlackMessages(answer);
      const blocks = slack.reduce((n, message) => n + message.blocks.length, 0);
      const carousels = slack.flatMap((m) => m.blocks).filter((b) => b.type === 'carousel').length;
      const discord = renderDiscord(answer).messages.length;
      rows.push({
        name: `answer size: \`${line}\` on Slack and Discord`,
        figure: `Slack ${slack.length} message, ${blocks} blocks (${carousels} carousel); Discord ${discord} message`,
      });
    }
  }
  return rows;
}
