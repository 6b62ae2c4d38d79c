import { describe, expect, it } from 'vitest';
import { ANONYMOUS_PERSON, createPersonOrder } from '../../../src/core/service/person-queue.js';
import type { Priority } from '../../../src/core/service/types.js';

interface Call {
  name: string;
  priority: Priority;
  person: string;
}
const call = (name: string, person: string, priority: Priority = 'user'): Call => ({
  name,
  person,
  priority,
});

/** Takes every call in the order they start: people first, then background. */
function drain(queue: ReturnType<typeof createPersonOrder<Call>>): string[] {
  const order: string[] = [];
  for (let next = queue.take('user') ?? queue.take('background'); next !== null; ) {
    order.push(next.name);
    next = queue.take('user') ?? queue.take('background');
  }
  return order;
}

describe('person order', () => {
  it('serves people turn by turn, each person in the order they asked', () => {
    const queue = createPersonOrder<Call>();
    for (let i = 1; i <= 20; i++) queue.push(call(`a${i}`, 'A'));
    queue.push(call('b1', 'B'));
    queue.push(call('c1', 'C'));
    queue.push(call('b2', 'B'));
    expect(drain(queue).slice(0, 7)).toEqual(['a1', 'b1', 'c1', 'a2', 'b2', 'a3', 'a4']);
  });

  it('puts a person who joins after others were served at the end of the round', () => {
    const queue = createPersonOrder<Call>();
    for (let i = 1; i <= 5; i++) queue.push(call(`a${i}`, 'A'));
    expect(queue.take('user')?.name).toBe('a1');
    queue.push(call('b1', 'B'));
    // A's second call was in the round already: B's single one comes right after it.
    expect(drain(queue)).toEqual(['a2', 'b1', 'a3', 'a4', 'a5']);
  });

  it('keeps background calls behind every person, in the order they came', () => {
    const queue = createPersonOrder<Call>();
    queue.push(call('g1', 'A', 'background'));
    queue.push(call('a1', 'A'));
    queue.push(call('g2', 'B', 'background'));
    queue.push(call('b1', 'B'));
    queue.push(call('a2', 'A'));
    expect(queue.count('user')).toBe(3);
    expect(queue.count('background')).toBe(2);
    expect(drain(queue)).toEqual(['a1', 'b1', 'a2', 'g1', 'g2']);
    expect(queue.count()).toBe(0);
  });

  it('lets calls without a person share one turn', () => {
    const queue = createPersonOrder<Call>();
    for (const name of ['x1', 'x2', 'x3']) queue.push(call(name, ANONYMOUS_PERSON));
    queue.push(call('a1', 'A'));
    expect(drain(queue)).toEqual(['x1', 'a1', 'x2', 'x3']);
  });

  it('takes a call out wherever it stands, and a person with none left out of the round', () => {
    const queue = createPersonOrder<Call>();
    const a1 = call('a1', 'A');
    const b1 = call('b1', 'B');
    const g1 = call('g1', 'G', 'background');
    for (const c of [a1, call('a2', 'A'), b1, call('c1', 'C'), g1]) queue.push(c);
    expect(queue.remove(b1)).toBe(true);
    expect(queue.remove(b1)).toBe(false);
    expect(queue.remove(g1)).toBe(true);
    expect(queue.count()).toBe(3);
    expect(queue.ahead().has(b1)).toBe(false);
    expect(drain(queue)).toEqual(['a1', 'c1', 'a2']);
  });

  it('counts ahead of every call exactly the calls that start before it', () => {
    // Queues built by pseudo-random pushes, takes and removals: each call's count is its place in the drain.
    for (let trial = 1; trial <= 60; trial++) {
      let seed = trial;
      const random = () => {
        seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
        return seed / 2_147_483_648;
      };
      const queue = createPersonOrder<Call>();
      const waiting: Call[] = [];
      for (let step = 0; step < trial * 3; step++) {
        const roll = random();
        if (roll < 0.6) {
          const priority = random() < 0.2 ? 'background' : 'user';
          const c = call(`c${step}`, `p${Math.floor(random() * 4)}`, priority);
          queue.push(c);
          waiting.push(c);
        } else if (roll < 0.8) {
          const taken = queue.take('user') ?? queue.take('background');
          if (taken) waiting.splice(waiting.indexOf(taken), 1);
        } else if (waiting.length > 0) {
          const [gone] = waiting.splice(Math.floor(random() * waiting.length), 1);
          expect(queue.remove(gone as Call)).toBe(true);
        }
      }
      const ahead = queue.ahead();
      const order = drain(queue);
      expect(order).toHaveLength(waiting.length);
      expect(order.map((name) => ahead.get(waiting.find((c) => c.name === name) as Call))).toEqual(
        order.map((_, i) => i),
      );
    }
  });
});
