import { describe, expect, expectTypeOf, it } from 'vitest';
import { assertNever, REPLY_NODE_TYPES, type ReplyNodeType } from '../../../src/core/ui/model.js';

describe('model', () => {
  it('lists every node type exactly once', () => {
    expectTypeOf<(typeof REPLY_NODE_TYPES)[number]>().toEqualTypeOf<ReplyNodeType>();
    expect(new Set(REPLY_NODE_TYPES).size).toBe(REPLY_NODE_TYPES.length);
    expect(REPLY_NODE_TYPES).toHaveLength(11);
  });

  it('names the foreign value assertNever receives', () => {
    expect(() => assertNever({ type: 'carousel' } as never, 'node')).toThrow('Unexpected node: "carousel"');
    expect(() => assertNever('odd' as never)).toThrow('Unexpected value: "odd"');
    expect(() => assertNever(undefined as never)).toThrow(TypeError);
  });
});
