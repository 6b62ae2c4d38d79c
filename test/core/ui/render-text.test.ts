import { describe, expect, it } from 'vitest';
import { contactRow, listRow } from '../../../src/commands/lists/crm-cards.js';
import {
  bold,
  button,
  buttons,
  code,
  codeBlock,
  creatorCard,
  divider,
  fields,
  image,
  link,
  mention,
  notice,
  pager,
  REPLY_NODE_TYPES,
  type Reply,
  type ReplyNode,
  renderText,
  reply,
  select,
  text,
  viralPostCard,
} from '../../../src/core/ui/index.js';
import {
  HOSTILE,
  LONG_HOSTILE,
  NOW,
  nullNodes,
  present,
  unsafeChars,
  worstCaseCards,
  worstCaseNodes,
  worstCaseReply,
} from './fixtures.js';

describe('renderText on each node type', () => {
  it('renders a text node as plain text', () => {
    const out = renderText(
      reply([text('Found ', bold('12'), ' in ', code('Beauty'), ' ', link('docs', 'https://d.example/'))]),
    );
    expect(out).toEqual({ text: 'Found 12 in Beauty docs (https://d.example/)', actions: [] });
  });

  it('puts inline fields three to a line and indents multi-line values', () => {
    const out = renderText(
      reply([
        fields([
          { label: 'A', value: 1, inline: true },
          { label: 'B', value: 2, inline: true },
          { label: 'C', value: 3, inline: true },
          { label: 'D', value: 4, inline: true },
          { label: 'Notes', value: 'line one\nline two' },
        ]),
      ]),
    );
    expect(out.text).toBe('A: 1 · B: 2 · C: 3\nD: 4\nNotes: line one\n  line two');
  });

  it('renders a creator card with its numbered actions', () => {
    const card = creatorCard(
      {
        handle: 'jane',
        nickname: 'Jane',
        source: 'tiktok',
        followers: 1_250_000,
        engagement_rate: 0.034,
        avg_views: 250_000,
        avg_likes: 12_500,
        country: 'United States',
        language: 'english',
        main_category: 'Beauty & Personal Care',
        best_promotion_niches: ['skincare', 'makeup'],
        email: 'jane@example.com',
      },
      {
        fetchedAt: NOW - 2 * 86_400_000,
        now: NOW,
        actions: [button('Add to list', 'crm.add:1', { style: 'primary' }), button('Details', 'cr.view:1')],
      },
    );
    const out = renderText(reply([card]));
    expect(out.text).toBe(
      [
        '@jane · Jane (TikTok)',
        '  Followers: 1.3M · Engagement: 3.4% · Avg views: 250K',
        '  Avg likes: 12.5K · Country: United States · Language: english',
        '  Category: Beauty & Personal Care · Email: on file',
        '  Niches: skincare, makeup',
        '  Profile: https://www.tiktok.com/@jane',
        '  Data: 2 days old',
        '  [1] Add to list  [2] Details',
      ].join('\n'),
    );
    expect(out.text).not.toContain('jane@example.com');
    expect(out.actions).toEqual([
      { index: 1, actionId: 'crm.add:1', label: 'Add to list', kind: 'button' },
      { index: 2, actionId: 'cr.view:1', label: 'Details', kind: 'button' },
    ]);
  });

  it('renders a viral post card', () => {
    const out = renderText(
      reply([
        viralPostCard({
          creatorUsername: 'maker',
          caption: 'Wait for it',
          hook: 'You will not believe',
          views: 4_000_000,
          viralityScore: 0.55,
          videoUrl: 'https://v.example/1',
          createdAt: '2026-03-01T10:00:00Z',
        }),
      ]),
    );
    expect(out.text).toBe(
      [
        '@maker',
        '  Wait for it',
        '  Hook: You will not believe',
        '  Views: 4M · Likes: — · Comments: —',
        '  Shares: — · Virality: 0.55 (Highly viral) · Category: —',
        '  Country: — · Music: — · Posted: 2026-03-01',
        '  Video: https://v.example/1',
      ].join('\n'),
    );
  });

  it('renders list and contact rows', () => {
    const out = renderText(
      reply([
        listRow(
          { name: 'Spring', description: 'Skincare', contact_count: 12, to_outreach_count: 3, budget: 5000 },
          { actions: [button('Open', 'crm.open:l1')] },
        ),
        contactRow({
          handle: 'bob',
          status: 'working',
          contact_email: 'bob@example.com',
          notes: 'Call Monday',
        }),
      ]),
    );
    expect(out.text).toBe(
      [
        'Spring',
        '  Skincare',
        '  Contacts: 12 · To outreach: 3 · Budget: 5,000',
        '  Dates: —',
        '  [1] Open',
        '',
        '@bob',
        '  Notes: Call Monday',
        '  Status: Working · Email: bob@example.com · Proposed: —',
        '  Agreed: — · Deliverables: — · Last contact: —',
      ].join('\n'),
    );
  });

  it('prefixes notices by level and appends the reference', () => {
    const out = renderText(
      reply([
        notice('info', 'Working on it'),
        notice('success', 'Added'),
        notice('warning', 'Low credits'),
        notice('error', ['Bad ', code('--followers')], { reference: 'req-42' }),
      ]),
    );
    expect(out.text).toBe(
      'Info: Working on it\n\nDone: Added\n\nWarning: Low credits\n\nError: Bad --followers (ref: req-42)',
    );
  });

  it('numbers buttons, skipping disabled ones', () => {
    const out = renderText(
      reply([
        buttons(
          button('Yes', 'c.yes', { style: 'primary' }),
          button('Gone', 'c.gone', { disabled: true }),
          button('No', 'c.no'),
        ),
      ]),
    );
    expect(out.text).toBe('[1] Yes  [-] Gone  [2] No');
    expect(out.actions.map((a) => a.actionId)).toEqual(['c.yes', 'c.no']);
  });

  it('says how to choose several options of a multi-select, by their numbers', () => {
    const creators = (multiple: boolean) =>
      select({
        placeholder: 'Choose creators to add…',
        actionId: 'creators.choose',
        options: [
          { label: '@ana', value: 'u1' },
          { label: '@bo', value: 'u2' },
          { label: '@cy', value: 'u3' },
        ],
        ...(multiple ? { multiple: true } : {}),
      });
    const out = renderText(reply([buttons(button('Go', 'k.go')), creators(true)]));
    expect(out.text.split('\n')[2]).toBe('[2] Choose creators to add… (choose several: 2.1,2.2)');
    expect(renderText(reply([creators(false)])).text.split('\n')[0]).toBe('[1] Choose creators to add…');
  });

  it('numbers a select and its options', () => {
    const out = renderText(
      reply([
        select({
          placeholder: 'Choose a list',
          actionId: 'crm.pick',
          options: [
            { label: 'Spring', value: 'l1', description: '12 contacts' },
            { label: 'Fall', value: 'l2' },
          ],
          selected: 'l2',
        }),
      ]),
    );
    expect(out.text).toBe('[1] Choose a list\n    1.1 Spring — 12 contacts\n    1.2 Fall (selected)');
    expect(out.actions).toEqual([
      {
        index: 1,
        actionId: 'crm.pick',
        label: 'Choose a list',
        kind: 'select',
        options: [
          { label: 'Spring', value: 'l1', description: '12 contacts' },
          { label: 'Fall', value: 'l2' },
        ],
      },
    ]);
  });

  it('renders pagers with and without a total and arrows', () => {
    const middle = renderText(
      reply([
        pager({ page: 2, totalPages: 7, prevActionId: 'pg.1', nextActionId: 'pg.3', label: 'Results' }),
      ]),
    );
    expect(middle.text).toBe('Results · Page 2 of 7\n[1] ‹ Previous  [2] Next ›');
    expect(middle.actions.map((a) => [a.label, a.actionId])).toEqual([
      ['Previous', 'pg.1'],
      ['Next', 'pg.3'],
    ]);
    const first = renderText(
      reply([pager({ page: 1, totalPages: null, prevActionId: null, nextActionId: 'pg.2' })]),
    );
    expect(first.text).toBe('Page 1\n[1] Next ›');
    const only = renderText(
      reply([pager({ page: 1, totalPages: 1, prevActionId: null, nextActionId: null })]),
    );
    expect(only).toEqual({ text: 'Page 1 of 1', actions: [] });
  });

  it('renders dividers, images and code blocks', () => {
    const out = renderText(
      reply([
        divider(),
        present(image('https://img.example/a.png', 'Thumbnail')),
        present(image('https://img.example/b.png', 'Alt', { title: 'Cover' })),
        codeBlock('{\n  "a": 1\n}', { title: 'Response' }),
        codeBlock('plain'),
      ]),
    );
    expect(out.text).toBe(
      [
        '─'.repeat(24),
        'Image: Thumbnail <https://img.example/a.png>',
        'Image: Cover <https://img.example/b.png>',
        'Response:\n{\n  "a": 1\n}',
        'plain',
      ].join('\n\n'),
    );
  });
});

describe('renderText on worst-case content', () => {
  it('covers every node type', () => {
    const nodes = worstCaseNodes();
    expect(Object.keys(nodes).sort()).toEqual([...REPLY_NODE_TYPES].sort());
    for (const type of REPLY_NODE_TYPES) {
      const out = renderText(reply([nodes[type]]));
      expect(out.text.length, type).toBeGreaterThan(0);
    }
  });

  it('numbers actions in reading order with unique indexes and tokens', () => {
    const out = renderText(worstCaseReply());
    // 4 enabled buttons on each of 6 holders (5 cards, a button row), one select and two pager arrows.
    expect(out.actions).toHaveLength(6 * 4 + 1 + 2);
    expect(out.actions.map((a) => a.index)).toEqual(out.actions.map((_, i) => i + 1));
    expect(new Set(out.actions.map((a) => a.actionId)).size).toBe(out.actions.length);
    for (const action of out.actions) {
      expect(out.text).toContain(`[${action.index}] `);
      expect(action.actionId.length).toBeLessThanOrEqual(100);
    }
    expect(out.actions.find((a) => a.kind === 'select')?.options).toHaveLength(25);
  });

  it('keeps hostile text inert: no control characters, card values on one line each', () => {
    const out = renderText(worstCaseReply());
    expect(unsafeChars(out.text)).toEqual([]);
    expect(out.text).toContain('*bold* _it_');
    const creator = renderText(reply([worstCaseCards().creator])).text;
    // Title, three inline rows, niches, data age, actions: a hostile handle yields no profile URL line.
    expect(creator.split('\n')).toHaveLength(7);
    const node = worstCaseNodes().card;
    if (node.type !== 'card' || node.link === null) throw new Error('the worst case is a linked card');
    const lines = renderText(reply([node])).text.split('\n');
    // Title (subtitle), the body lines, the fields (multi-line values indented further), link, footnote, actions.
    expect(lines[0]).toBe(`${node.title} (${node.subtitle})`);
    expect(lines.slice(1, 4)).toEqual(node.body.map((line) => `  ${line}`));
    expect(lines.slice(4, -3).every((line) => line.startsWith('  '))).toBe(true);
    expect(lines.slice(-3, -1)).toEqual([`  ${node.link.label}: ${node.link.url}`, `  ${node.footnote}`]);
    expect(lines.at(-1)).toMatch(/^ {2}\[1\] 0 .*\[-\] 4 /);
  });

  it('renders all-null data nodes with dashes instead of failing', () => {
    const out = renderText(reply(nullNodes()));
    expect(out.text).toContain('Unknown creator');
    expect(out.text).toContain('Data: age unknown');
    expect(out.text).toContain('Viral post');
    expect(out.text).toContain('Unnamed list');
    expect(out.text).toContain('Page 1');
    expect(out.text).not.toContain('null');
    expect(out.text).not.toContain('undefined');
    expect(out.actions).toEqual([]);
  });

  it('omits actions for notification text', () => {
    const out = renderText(worstCaseReply(), { actions: false });
    expect(out.actions).toEqual([]);
    expect(out.text).not.toMatch(/\[\d+\] /);
    expect(out.text).toContain('Page 999 of 1000');
  });

  it('re-cleans hand-built text spans', () => {
    const handmade: Reply = {
      visibility: 'author',
      nodes: [{ type: 'text', spans: [{ kind: 'plain', text: HOSTILE }] }],
    };
    expect(unsafeChars(renderText(handmade).text)).toEqual([]);
  });

  it('throws on a node type it does not know', () => {
    const foreign = { type: 'carousel' } as unknown as ReplyNode;
    expect(() => renderText({ visibility: 'author', nodes: [foreign] })).toThrow(
      /Unexpected reply node: "carousel"/,
    );
  });

  it('renders a mention as @id, in text and notices', () => {
    const out = renderText(
      reply([
        notice('success', ['The daily cap of ', mention('bob'), ' is now 6 credits.']),
        text('Scout admins: ', mention('U0BOB'), ', ', mention('123456789012345678'), '.'),
      ]),
    );
    expect(out.text).toBe(
      'Done: The daily cap of @bob is now 6 credits.\n\nScout admins: @U0BOB, @123456789012345678.',
    );
  });

  it('renders long content fully: the text renderer does not cut', () => {
    const out = renderText(reply([text(LONG_HOSTILE)]));
    expect(out.text.length).toBeGreaterThan(10_000);
  });
});
