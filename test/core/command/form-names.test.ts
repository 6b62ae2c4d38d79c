/**
 * A form filled in is typed back by the names people type (`category:Fitness`, `has-email:yes`), never the service's
 * (`mainCategory`, `emailExists`) nor a spelling like it (`hasEmail`).
 */
import { describe, expect, it } from 'vitest';
import { creatorsFamily } from '../../../src/commands/creators.js';
import { formCommandLine, formSpec } from '../../../src/core/command/forms/index.js';

const search = creatorsFamily.commands.find((def) => def.name === 'search');

describe('a filled-in form, typed', () => {
  it('names each filled option by the name people type it by', () => {
    if (search === undefined) throw new Error('no creators search');
    const spec = formSpec(search, {
      values: { mainCategory: 'Fitness', emailExists: 'yes', country: 'France' },
    });
    if (spec === null) throw new Error('no form');
    const typed = spec.fields.flatMap((field) => (field.typed === undefined ? [] : [field.typed]));
    expect(typed.sort()).toEqual(['category:Fitness', 'country:France', 'has-email:yes']);
    const line = formCommandLine(search, spec);
    expect(line).toContain(' category:Fitness ');
    expect(line).toContain(' has-email:yes ');
    expect(line).not.toMatch(/mainCategory:|emailExists:|hasEmail:/);
  });
});
