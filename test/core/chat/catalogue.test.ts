/**
 * The chat port's catalogue over the real app graph: data only (no handler, nothing that runs), frozen, copied from
 * the declarations rather than sharing their objects, and saying of each command what its declaration says.
 */
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import type { Catalogue, CatalogueCommand } from '../../../src/core/chat/index.js';
import { hasForm } from '../../../src/core/command/forms/index.js';
import { peopleName } from '../../../src/core/command/people-names.js';
import { type Harness, startHarness } from '../../helpers/harness.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.stop();
});

/** Every value reachable from `root` through own properties (array items included), `root` first. */
function reachable(root: unknown): unknown[] {
  const seen = new Set<unknown>();
  const queue: unknown[] = [root];
  while (queue.length > 0) {
    const value = queue.pop();
    if (seen.has(value)) continue;
    seen.add(value);
    if (value !== null && typeof value === 'object') {
      for (const key of Reflect.ownKeys(value)) {
        const descriptor = Object.getOwnPropertyDescriptor(value, key);
        // A getter is a function too.
        queue.push(descriptor?.get, descriptor?.set, descriptor?.value);
      }
    }
  }
  return [...seen];
}

/** The function types anywhere in `T`'s properties (array items included); never when there is none. */
type FunctionsIn<T> = T extends (...args: never[]) => unknown
  ? T
  : T extends readonly (infer Item)[]
    ? FunctionsIn<Item>
    : T extends object
      ? { [K in keyof T]-?: FunctionsIn<T[K]> }[keyof T]
      : never;

describe('the chat port’s catalogue', () => {
  it('holds no function anywhere, and is frozen all the way down', () => {
    const values = reachable(h.app.chat.catalogue);
    expect(values.length).toBeGreaterThan(100);
    expect(values.filter((value) => typeof value === 'function')).toEqual([]);
    const objects = values.filter((value) => value !== null && typeof value === 'object');
    expect(objects.filter((value) => !Object.isFrozen(value))).toEqual([]);
  });

  it('shares no object with the declarations it was copied from', () => {
    const declared = new Set(reachable(h.app.registry.families));
    const shared = reachable(h.app.chat.catalogue).filter(
      (value) => value !== null && typeof value === 'object' && declared.has(value),
    );
    expect(shared).toEqual([]);
  });

  it('says of each command what its declaration says', () => {
    const { families } = h.app.chat.catalogue;
    expect(families.map((f) => f.name)).toEqual(h.app.registry.families.map((f) => f.name));
    for (const family of h.app.registry.families) {
      const listed = families.find((f) => f.name === family.name);
      expect(listed?.description).toBe(family.description);
      expect(listed?.commands.map((c) => c.name)).toEqual(family.commands.map((c) => c.name));
      for (const def of family.commands) {
        expect(listed?.commands.find((c) => c.name === def.name)).toEqual({
          family: def.family,
          name: def.name,
          description: def.description,
          permission: def.permission,
          params: def.params,
          names: Object.fromEntries(
            Object.entries(def.params).map(([param, spec]) => [param, peopleName(param, spec)]),
          ),
          form: hasForm(def),
        });
      }
    }
  });

  it('is typed without a handler or any other function', () => {
    expectTypeOf<FunctionsIn<Catalogue>>().toBeNever();
    expectTypeOf<CatalogueCommand>().not.toHaveProperty('run');
    const [command] = h.app.chat.catalogue.families[0]?.commands ?? [];
    // @ts-expect-error a catalogue entry carries no handler
    expect(command?.run).toBeUndefined();
  });
});
