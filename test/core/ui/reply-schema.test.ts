import { describe, expect, it } from 'vitest';
import { file, notice, type Reply, reply, text } from '../../../src/core/ui/index.js';
import { REPLY_NODE_TYPES } from '../../../src/core/ui/model.js';
import { readStoredReply, storedReply } from '../../../src/core/ui/reply-schema.js';
import { nullNodes, worstCaseNodes, worstCaseReply } from './fixtures.js';

/** A reply as the store keeps it and reads it back: JSON text. */
const roundTrip = (answer: Reply) => readStoredReply(JSON.parse(JSON.stringify(storedReply(answer))));

describe('the stored reply schema', () => {
  it('reads back every node type the builders make, worst case and all-null', () => {
    expect(Object.keys(worstCaseNodes()).sort()).toEqual([...REPLY_NODE_TYPES].sort());
    const worst = worstCaseReply();
    expect(roundTrip(worst)).toEqual(worst);
    const empty = reply(nullNodes(), { visibility: 'author' });
    expect(roundTrip(empty)).toEqual(empty);
  });

  it("reads back a reply's files byte for byte", () => {
    const bytes = Uint8Array.from({ length: 300 }, (_, i) => (i * 7) % 256);
    // A view into a larger buffer: only its own bytes are kept.
    const view = new Uint8Array(bytes.buffer, 10, 200);
    const answer = reply([text('export')], {
      files: [
        file('contacts.csv', view, { mimeType: 'text/csv' }),
        file('chart.png', bytes, { mimeType: 'image/png', title: 'Spend', display: 'image' }),
      ],
    });
    const read = roundTrip(answer);
    expect(read).toEqual(answer);
    expect(read?.files?.[0]?.bytes).toBeInstanceOf(Uint8Array);
    expect(read?.files?.[0]?.bytes).toHaveLength(200);
  });

  it('refuses what is not a reply of the model, whole', () => {
    const good = reply([notice('info', 'done')]);
    const broken: unknown[] = [
      null,
      'done',
      [],
      { nodes: [] },
      { ...good, visibility: 'everyone' },
      { ...good, nodes: [{ type: 'carousel', items: [] }] },
      { ...good, nodes: [{ type: 'notice', level: 'loud', spans: [] }] },
      { ...good, nodes: [{ type: 'text', spans: [{ kind: 'blink', text: 'x' }] }] },
      { ...good, nodes: [{ type: 'buttons', buttons: [{ label: 'Go', style: 'primary' }] }] },
      { ...good, files: [{ name: 'a.csv', mimeType: 'text/csv', title: 'a', bytes: { 0: 65 } }] },
      { ...good, files: [{ name: 'a.csv', mimeType: 'text/csv', title: 'a', bytes: 'not base64!' }] },
    ];
    for (const stored of broken) expect(readStoredReply(stored), JSON.stringify(stored)).toBeUndefined();
    expect(readStoredReply(JSON.parse(JSON.stringify(good)))).toEqual(good);
  });
});
