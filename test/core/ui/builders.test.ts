import { describe, expect, it } from 'vitest';
import {
  button,
  buttons,
  card,
  codeBlock,
  divider,
  fields,
  image,
  isActionId,
  jsonBlock,
  notice,
  pager,
  reply,
  select,
  text,
} from '../../../src/core/ui/builders.js';
import {
  ACTION_ID_MAX,
  BUTTON_LABEL_MAX,
  CARD_FIELDS_MAX,
  CARD_LINE_MAX,
  CARD_SHORT_TEXT_MAX,
  CARD_TITLE_MAX,
  CODE_BLOCK_MAX,
  FIELD_LABEL_MAX,
  FIELD_VALUE_MAX,
  OPTION_DESCRIPTION_MAX,
  OPTION_LABEL_MAX,
  PLACEHOLDER_MAX,
} from '../../../src/core/ui/limits.js';
import { bold } from '../../../src/core/ui/markup.js';
import { HOSTILE, LONG_HOSTILE, LONGEST_TOKEN, unsafeChars } from './fixtures.js';

describe('action tokens', () => {
  it('accepts short printable tokens up to the limit', () => {
    expect(isActionId('crm.add:abc123')).toBe(true);
    expect(isActionId(LONGEST_TOKEN)).toBe(true);
    expect(LONGEST_TOKEN.length).toBe(ACTION_ID_MAX);
  });

  it('rejects empty, long, spaced or non-ASCII tokens', () => {
    expect(isActionId('')).toBe(false);
    expect(isActionId(`${LONGEST_TOKEN}x`)).toBe(false);
    expect(isActionId('has space')).toBe(false);
    expect(isActionId('emoji😀')).toBe(false);
    expect(isActionId('line\nbreak')).toBe(false);
    expect(() => button('Go', 'x'.repeat(101))).toThrow(/1-100 printable ASCII/);
  });
});

describe('reply', () => {
  it('defaults to author visibility and skips falsy nodes', () => {
    const r = reply([text('a'), null, undefined, false, divider()]);
    expect(r).toEqual({ visibility: 'author', nodes: [text('a'), divider()] });
    expect('replace' in r).toBe(false);
  });

  it('carries channel visibility and replace', () => {
    expect(reply([], { visibility: 'channel', replace: true })).toEqual({
      nodes: [],
      visibility: 'channel',
      replace: true,
    });
  });
});

describe('text and notice', () => {
  it('builds spans from strings and styled parts', () => {
    expect(text('Found ', bold('12'), '\ncreators').spans).toEqual([
      { kind: 'plain', text: 'Found ' },
      { kind: 'bold', text: '12' },
      { kind: 'plain', text: '\ncreators' },
    ]);
  });

  it('builds notices with an optional single-line reference', () => {
    expect(notice('warning', 'Careful')).toEqual({
      type: 'notice',
      level: 'warning',
      spans: [{ kind: 'plain', text: 'Careful' }],
    });
    const n = notice('error', [bold('Nope')], { reference: LONG_HOSTILE });
    expect(n.reference?.length).toBeLessThanOrEqual(100);
    expect(n.reference).not.toContain('\n');
  });
});

describe('fields', () => {
  it('formats numbers, dashes missing values and caps lengths', () => {
    const node = fields([
      { label: 'Budget', value: 1234.5, inline: true },
      { label: 'Empty', value: null },
      { label: 'Blank', value: '   ' },
      { label: LONG_HOSTILE, value: LONG_HOSTILE },
    ]);
    expect(node.fields[0]).toEqual({ label: 'Budget', value: '1,234.5', inline: true });
    expect(node.fields[1]).toEqual({ label: 'Empty', value: '—' });
    expect(node.fields[2]?.value).toBe('—');
    const long = node.fields[3];
    expect(long?.label.length).toBeLessThanOrEqual(FIELD_LABEL_MAX);
    expect(long?.label).not.toContain('\n');
    expect(long?.value.length).toBeLessThanOrEqual(FIELD_VALUE_MAX);
    expect(long?.value).toContain('\n');
    expect(unsafeChars(long?.value ?? '')).toEqual([]);
  });

  it('rejects an empty or oversized fields node', () => {
    expect(() => fields([])).toThrow(RangeError);
    expect(() => fields(Array.from({ length: 11 }, () => ({ label: 'a', value: 'b' })))).toThrow(
      /1-10 fields/,
    );
  });
});

describe('buttons', () => {
  it('caps labels and defaults the style', () => {
    const b = button(LONG_HOSTILE, 'a.b');
    expect(b.label.length).toBeLessThanOrEqual(BUTTON_LABEL_MAX);
    expect(b.label).not.toContain('\n');
    expect(b.style).toBe('secondary');
    expect('disabled' in b).toBe(false);
    expect(button('Go', 'a.c', { style: 'danger', disabled: true })).toEqual({
      label: 'Go',
      actionId: 'a.c',
      style: 'danger',
      disabled: true,
    });
  });

  it('rejects blank labels and bad tokens', () => {
    expect(() => button(' \n ', 'a.b')).toThrow(/label/);
    expect(() => button('Go', 'bad token')).toThrow(RangeError);
  });

  it('holds one to five buttons with distinct tokens', () => {
    const five = Array.from({ length: 5 }, (_, i) => button(`B${i}`, `b.${i}`));
    expect(buttons(...five).buttons).toHaveLength(5);
    expect(() => buttons()).toThrow(/1-5 buttons/);
    expect(() => buttons(...five, button('B5', 'b.5'))).toThrow(/1-5 buttons/);
    expect(() => buttons(button('A', 'same'), button('B', 'same'))).toThrow(/Duplicate/);
  });
});

describe('card', () => {
  it('keeps the parts it is given, in order, and leaves out the rest', () => {
    expect(
      card({
        title: 'Spring',
        link: { url: 'https://example.com/spring', label: 'List' },
        subtitle: 'CRM',
        body: ['First line', null, '  ', 'Second\nline'],
        image: { url: 'https://img.example.com/a.png', alt: 'Cover' },
        fields: [
          { label: 'Contacts', value: 1234, inline: true },
          { label: 'Budget', value: null },
        ],
        footnote: 'Updated today',
        actions: [button('Open', 'l.open')],
      }),
    ).toEqual({
      type: 'card',
      title: 'Spring',
      link: { url: 'https://example.com/spring', label: 'List' },
      subtitle: 'CRM',
      body: ['First line', 'Second line'],
      image: { url: 'https://img.example.com/a.png', alt: 'Cover' },
      fields: [
        { label: 'Contacts', value: '1,234', inline: true },
        { label: 'Budget', value: '—' },
      ],
      footnote: 'Updated today',
      actions: [{ label: 'Open', actionId: 'l.open', style: 'secondary' }],
    });
    expect(card({ title: 'Bare' })).toEqual({
      type: 'card',
      title: 'Bare',
      link: null,
      subtitle: null,
      body: [],
      image: null,
      fields: [],
      footnote: null,
      actions: [],
    });
  });

  it('drops unsafe link and image URLs and names a blank title with a dash', () => {
    const unsafe = card({
      title: ' \n ',
      link: { url: 'javascript:alert(1)', label: 'Profile' },
      image: { url: 'data:image/png;base64,AAAA', alt: 'x' },
    });
    expect(unsafe).toMatchObject({ title: '—', link: null, image: null });
    expect(card({ title: 't', link: { url: null, label: 'Video' } }).link).toBeNull();
  });

  it('cleans and caps every part of hostile content', () => {
    const built = card({
      title: LONG_HOSTILE,
      link: { url: 'https://example.com/', label: LONG_HOSTILE },
      subtitle: LONG_HOSTILE,
      body: [LONG_HOSTILE, HOSTILE],
      image: { url: 'https://img.example.com/a.png', alt: LONG_HOSTILE },
      fields: [{ label: LONG_HOSTILE, value: LONG_HOSTILE }],
      footnote: LONG_HOSTILE,
    });
    expect(built.title.length).toBeLessThanOrEqual(CARD_TITLE_MAX);
    expect(built.subtitle?.length).toBeLessThanOrEqual(CARD_SHORT_TEXT_MAX);
    expect(built.footnote?.length).toBeLessThanOrEqual(CARD_LINE_MAX);
    expect(built.body).toHaveLength(2);
    for (const line of [built.title, built.subtitle, built.footnote, built.link?.label, ...built.body]) {
      expect(unsafeChars(line ?? '', true)).toEqual([]);
    }
    for (const line of built.body) expect(line.length).toBeLessThanOrEqual(CARD_LINE_MAX);
    expect(built.fields[0]?.value.length).toBeLessThanOrEqual(FIELD_VALUE_MAX);
  });

  it('rejects more fields than one section holds and more buttons than one row', () => {
    const many = Array.from({ length: CARD_FIELDS_MAX + 1 }, (_, i) => ({ label: `F${i}`, value: i }));
    expect(() => card({ title: 't', fields: many })).toThrow(RangeError);
    expect(() => card({ title: 't', fields: many.slice(1) })).not.toThrow();
    const six = Array.from({ length: 6 }, (_, i) => button(`B${i}`, `b.${i}`));
    expect(() => card({ title: 't', actions: six })).toThrow(RangeError);
    expect(() => card({ title: 't', actions: [button('A', 'x.1'), button('B', 'x.1')] })).toThrow(
      /Duplicate action token/,
    );
  });
});

describe('select', () => {
  const options = Array.from({ length: 25 }, (_, i) => ({ label: `${i} ${LONG_HOSTILE}`, value: `v${i}` }));

  it('caps option text and keeps a valid selection', () => {
    const node = select({
      placeholder: LONG_HOSTILE,
      actionId: 's.pick',
      options: options.map((o) => ({ ...o, description: LONG_HOSTILE })),
      selected: 'v3',
    });
    expect(node.placeholder.length).toBeLessThanOrEqual(PLACEHOLDER_MAX);
    expect(node.options).toHaveLength(25);
    for (const option of node.options) {
      expect(option.label.length).toBeLessThanOrEqual(OPTION_LABEL_MAX);
      expect(option.description?.length).toBeLessThanOrEqual(OPTION_DESCRIPTION_MAX);
    }
    expect(node.selected).toBe('v3');
  });

  it('drops a selection that is not an option and falls back on blank labels', () => {
    const node = select({
      placeholder: '',
      actionId: 's.pick',
      options: [{ label: '\n', value: 'only' }],
      selected: 'missing',
    });
    expect('selected' in node).toBe(false);
    expect(node.placeholder).toBe('Choose…');
    expect(node.options[0]?.label).toBe('only');
  });

  it('rejects too many options, duplicate or oversized values', () => {
    expect(() => select({ placeholder: 'p', actionId: 's', options: [] })).toThrow(/1-25 options/);
    expect(() =>
      select({ placeholder: 'p', actionId: 's', options: [...options, { label: 'x', value: 'x' }] }),
    ).toThrow(/1-25 options/);
    expect(() =>
      select({
        placeholder: 'p',
        actionId: 's',
        options: [
          { label: 'a', value: 'same' },
          { label: 'b', value: 'same' },
        ],
      }),
    ).toThrow(/Duplicate/);
    expect(() =>
      select({ placeholder: 'p', actionId: 's', options: [{ label: 'a', value: 'v'.repeat(101) }] }),
    ).toThrow(/1-100/);
  });
});

describe('pager', () => {
  it('keeps tokens and an unknown total', () => {
    expect(pager({ page: 1, totalPages: null, prevActionId: null, nextActionId: 'p.2' })).toEqual({
      type: 'pager',
      page: 1,
      totalPages: null,
      prevActionId: null,
      nextActionId: 'p.2',
    });
  });

  it('rejects impossible pages and bad tokens', () => {
    expect(() => pager({ page: 0, totalPages: 3, prevActionId: null, nextActionId: null })).toThrow(/from 1/);
    expect(() => pager({ page: 1.5, totalPages: 3, prevActionId: null, nextActionId: null })).toThrow(
      RangeError,
    );
    expect(() => pager({ page: 1, totalPages: -1, prevActionId: null, nextActionId: null })).toThrow(
      RangeError,
    );
    expect(() => pager({ page: 2, totalPages: 3, prevActionId: 'p', nextActionId: 'p' })).toThrow(
      /Duplicate/,
    );
    expect(() => pager({ page: 2, totalPages: 3, prevActionId: 'a b', nextActionId: null })).toThrow(
      RangeError,
    );
  });
});

describe('image and code blocks', () => {
  it('accepts only safe image URLs', () => {
    expect(unsafeChars(image('https://example.com/a.png', HOSTILE)?.alt ?? '', true)).toEqual([]);
    expect(image('javascript:alert(1)', 'x')).toBeNull();
    expect(image('https://example.com/a.png', '')?.alt).toBe('image');
  });

  it('caps code blocks and removes control characters', () => {
    const node = codeBlock(LONG_HOSTILE, { title: HOSTILE, language: 'text' });
    expect(node.code.length).toBeLessThanOrEqual(CODE_BLOCK_MAX);
    expect(unsafeChars(node.code)).toEqual([]);
    expect(node.title).not.toContain('\n');
    expect(node.language).toBe('text');
  });

  it('renders JSON values into a bounded block', () => {
    const node = jsonBlock(
      { rows: Array.from({ length: 500 }, (_, i) => ({ i, t: LONG_HOSTILE })) },
      { title: 'Songs' },
    );
    expect(node.language).toBe('json');
    expect(node.title).toBe('Songs');
    expect(node.code.length).toBeLessThanOrEqual(CODE_BLOCK_MAX);
    expect(node.code.startsWith('{\n  "rows": [')).toBe(true);
    expect(jsonBlock([1, 2], { maxChars: 50 }).code).toBe('[1, 2]');
  });
});
