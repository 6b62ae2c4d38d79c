import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_ACTOR } from '../../../src/adapters/terminal/shell.js';
import { FAMILIES } from '../../../src/commands/index.js';
import type { Reply } from '../../../src/core/ui/index.js';
import { type Harness, startHarness } from '../../helpers/harness.js';

/** mulberry32: a small seeded generator, so a failure is reproducible from its seed. */
function random(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const HOSTILE = [
  '"',
  "'",
  '“',
  ':',
  '=',
  '::',
  '\u0000',
  '\u202e',
  '🧪',
  '👩‍👩‍👧',
  '<@U123>',
  '<script>',
  '$' + '{process.exit()}',
  "'; DROP TABLE credit_ledger; --",
  '../../etc/passwd',
  '-1',
  '1e309',
  'NaN',
  '0x10',
  '10k-1k',
  '>>3',
  '%',
  '__proto__',
  'constructor',
  'a'.repeat(300),
  '\n',
  '\t',
  ',,,',
];

function words(): string[] {
  const found = new Set<string>(['/scout', 'help', 'next', 'confirm']);
  for (const family of FAMILIES) {
    found.add(family.name);
    for (const command of family.commands) {
      found.add(command.name);
      for (const [name, spec] of Object.entries(command.params)) {
        found.add(`${name}:`);
        for (const alias of spec.aliases ?? []) found.add(`${alias}:`);
      }
    }
  }
  return [...found];
}

function generate(next: () => number, vocabulary: readonly string[]): string {
  const parts: string[] = [];
  const count = 1 + Math.floor(next() * 7);
  for (let i = 0; i < count; i++) {
    const roll = next();
    if (roll < 0.45) parts.push(vocabulary[Math.floor(next() * vocabulary.length)] as string);
    else if (roll < 0.8) parts.push(HOSTILE[Math.floor(next() * HOSTILE.length)] as string);
    else
      parts.push(
        String.fromCodePoint(
          ...Array.from({ length: 1 + Math.floor(next() * 8) }, () => Math.floor(next() * 0x2fff)),
        ),
      );
    // Glue a value onto a key now and then: `followers:` + `10k-1k`.
    if (next() < 0.3 && parts.length > 1) parts.push(`${parts.pop() ?? ''}${parts.pop() ?? ''}`);
  }
  return parts.join(next() < 0.8 ? ' ' : '');
}

const isError = (reply: Reply) =>
  reply.nodes.some((node) => node.type === 'notice' && (node.level === 'error' || node.level === 'warning'));

let h: Harness;
beforeAll(async () => {
  // A cap of 0 means any paid command is refused: the fuzzer may wander into valid commands but spends nothing.
  h = await startHarness({ rateLimitPerMinute: 100_000, settings: { defaultDailyCap: 0 } });
});
afterAll(() => h.stop());

describe('command parser fuzzing', () => {
  it('answers thousands of random and hostile inputs, never crashing, sending nothing for the rejected ones', async () => {
    const vocabulary = words();
    const next = random(20261121);
    let rejected = 0;
    for (let i = 0; i < 3000; i++) {
      const line = generate(next, vocabulary);
      const before = h.requests().length;
      const answer = await h.app.dispatcher.text({ actor: LOCAL_ACTOR, channelId: 'fuzz', text: line });
      expect(answer.nodes.length, line).toBeGreaterThan(0);
      expect(JSON.stringify(answer), line).not.toMatch(/Something went wrong/);
      if (isError(answer)) {
        rejected += 1;
        // A refused command may have read the team's lists to resolve a name, or run the free creator search
        // before the cap stopped the profiles it would buy, but never sent a paid operation.
        const free = (r: { path: string; method: string }) =>
          r.method === 'GET' &&
          (r.path.startsWith('/api/v2/crm/lists') || r.path === '/api/v2/creators/search');
        const sent = h.requests().slice(before);
        expect(
          sent.filter((r) => !free(r)),
          line,
        ).toEqual([]);
      }
    }
    expect(rejected).toBeGreaterThan(2000);
    expect(await h.spentToday()).toBe(0);
    expect(h.sandbox.credits('harness-key-0001')).toBe(100_000);
  });
});
