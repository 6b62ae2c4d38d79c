/** Tables on Discord: aligned text in code blocks of whole rows, within an embed's description. */
import { describe, expect, it } from 'vitest';
import { DISCORD } from '../../../src/adapters/discord/limits.js';
import { renderDiscord, TRUNCATED_NOTE } from '../../../src/adapters/discord/render.js';
import { numberCell, personCell, reply, table } from '../../../src/core/ui/index.js';
import { worstCaseTable } from '../../core/ui/fixtures.js';

const descriptions = (r: ReturnType<typeof renderDiscord>) =>
  r.messages.flatMap((m) => m.embeds.map((e) => e.description ?? ''));

describe('tables on Discord', () => {
  it('shows a compact table: the caption in bold, then aligned rows in a code block', () => {
    const built = table({
      caption: 'Spend by person',
      columns: [{ label: 'Person' }, { label: 'Credits', numeric: true }],
      rows: [
        ['Ana', numberCell('12', 12)],
        ['Bo', numberCell('5', 5)],
      ],
    });
    expect(descriptions(renderDiscord(reply([built])))).toEqual([
      '**Spend by person**\n```\nPerson  Credits\n──────  ───────\nAna          12\nBo            5\n```',
    ]);
  });

  it('names people by mention after their aligned cells, since a mention in a code block shows its id', () => {
    const built = table({
      caption: 'Team this month, by person',
      columns: [{ label: 'Person' }, { label: 'Credits', numeric: true }, { label: 'Calls', numeric: true }],
      rows: [
        [personCell('123456789012345678'), numberCell('120', 120), numberCell('3', 3)],
        [personCell('not-a-snowflake'), numberCell('5', 5), numberCell('1', 1)],
      ],
    });
    expect(descriptions(renderDiscord(reply([built])))).toEqual([
      '**Team this month, by person**\n`Credits  Calls` Person\n`    120      3` <@123456789012345678>\n`      5      1` \\@not\\-a\\-snowflake',
    ]);
  });

  it('splits a long table into embeds of whole rows, each with its header and fences, within the limits', () => {
    const all = descriptions(renderDiscord(reply([worstCaseTable()])));
    expect(all.length).toBeGreaterThan(1);
    for (const description of all) {
      expect(description.length).toBeLessThanOrEqual(DISCORD.EMBED_DESCRIPTION_MAX);
      expect(description.match(/```/g)).toHaveLength(2);
      expect(description.split('\n')[3]).toMatch(/^[─ ]+$/);
    }
    const rendered = renderDiscord(reply([worstCaseTable()]));
    expect(rendered.messages.at(-1)?.content).toBe(TRUNCATED_NOTE);
  });

  it('shows all 100 rows of a list-sized table', () => {
    const built = table({
      caption: 'Contacts',
      columns: [{ label: 'Name' }, { label: 'Status' }, { label: 'Followers', numeric: true }],
      rows: Array.from({ length: 100 }, (_, i) => [
        `Creator number ${i}`,
        'Negotiating',
        numberCell('12.5k', 12_500),
      ]),
    });
    const all = descriptions(renderDiscord(reply([built])));
    expect(all.reduce((n, d) => n + d.split('\n').length - 5, 0)).toBe(100);
  });
});
