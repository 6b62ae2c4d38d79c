/** The fake Slack refuses the blocks Slack refuses: carousels, cards, data tables, block counts, multi-selects. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeSlack, startFakeSlack } from '../../fakes/slack-api.js';
import { blocksProblem } from '../../fakes/slack-blocks.js';

type Obj = Record<string, unknown>;

const mrkdwn = (text: string) => ({ type: 'mrkdwn', text });
const card = (parts: Obj = {}): Obj => ({ type: 'card', title: mrkdwn('@ana · Ana'), ...parts });
const carousel = (cards: Obj[]): Obj => ({ type: 'carousel', elements: cards });
const cell = (text: string) => ({ type: 'raw_text', text });
const table = (rows: string[][]): Obj => ({ type: 'data_table', rows: rows.map((row) => row.map(cell)) });

let slack: FakeSlack;

beforeAll(async () => {
  slack = await startFakeSlack();
});

afterAll(async () => {
  await slack?.stop();
});

describe('what the fake Slack refuses', () => {
  it('takes a carousel of one to ten cards within the card block limits', () => {
    const full = card({
      hero_image: { type: 'image', image_url: 'https://cdn.example.com/a.png', alt_text: 'a' },
      title: mrkdwn('t'.repeat(150)),
      subtitle: mrkdwn('s'.repeat(150)),
      body: mrkdwn('b'.repeat(200)),
      actions: [{ type: 'button', text: { type: 'plain_text', text: 'Go' }, action_id: 'go' }],
    });
    expect(blocksProblem([carousel([full])])).toBeNull();
    expect(blocksProblem([carousel(Array.from({ length: 10 }, () => full))])).toBeNull();
  });

  it.each([
    ['no card', [carousel([])]],
    ['eleven cards', [carousel(Array.from({ length: 11 }, () => card()))]],
    ['a title of 151', [carousel([card({ title: mrkdwn('t'.repeat(151)) })])]],
    ['a subtitle of 151', [carousel([card({ subtitle: mrkdwn('s'.repeat(151)) })])]],
    ['a body of 201', [carousel([card({ body: mrkdwn('b'.repeat(201)) })])]],
    ['an empty card', [carousel([{ type: 'card' }])]],
    [
      'a hero image not on the web',
      [carousel([card({ hero_image: { type: 'image', image_url: 'ftp://x/a.png' } })])],
    ],
    ['51 blocks', Array.from({ length: 51 }, () => ({ type: 'divider' }))],
    ['a table of a header only', [table([['a']])]],
    ['a table of rows of two widths', [table([['a', 'b'], ['c']])]],
    ['a table with an empty cell', [table([['a'], ['']])]],
    [
      'a table of 21 columns',
      [table([Array.from({ length: 21 }, () => 'h'), Array.from({ length: 21 }, () => 'c')])],
    ],
    ['tables of 10,001 characters', [table([['h'], ['x'.repeat(5000)]]), table([['h'], ['y'.repeat(4999)]])]],
    [
      'a multi-select allowing more than it offers',
      [
        {
          type: 'actions',
          elements: [
            { type: 'multi_static_select', action_id: 'm', options: [{}, {}], max_selected_items: 3 },
          ],
        },
      ],
    ],
  ])('refuses %s', (_, blocks) => {
    expect(blocksProblem(blocks)).not.toBeNull();
  });

  it('answers invalid_blocks through the Web API and a response_url, keeping each refusal', async () => {
    const bad = [carousel(Array.from({ length: 11 }, () => card()))];
    const answer = await fetch(`${slack.apiUrl}chat.postMessage`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer xoxb-test' },
      body: JSON.stringify({ channel: 'C1', text: 'x', blocks: bad }),
    });
    expect(await answer.json()).toMatchObject({ ok: false, error: 'invalid_blocks' });
    const response = await fetch(slack.responseUrl('bad'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'x', blocks: bad }),
    });
    expect(response.status).toBe(400);
    expect(await response.text()).toBe('invalid_blocks');
    expect(slack.responses.filter((r) => r.id === 'bad')).toEqual([]);
    expect(slack.refusals.map((r) => r.method)).toEqual(['chat.postMessage', 'response_url']);
    const good = await fetch(`${slack.apiUrl}chat.postMessage`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer xoxb-test' },
      body: JSON.stringify({ channel: 'C1', text: 'x', blocks: [carousel([card()])] }),
    });
    expect(await good.json()).toMatchObject({ ok: true });
  });
});
