/**
 * `help values`: every value of an option in full, where a command's help shows the start of a long list; read from
 * the declarations, through the terminal.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAIN_CATEGORIES } from '../../src/core/service/enums.js';
import { type Harness, startHarness } from '../helpers/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h.stop());

describe('help values', () => {
  it('lists every category, where help of creators search says how many there are and where to see them', async () => {
    const help = await h.type('help creators search');
    expect(help).toContain(`(${MAIN_CATEGORIES.length} values: /scout help values category)`);
    const all = await h.type('help values category');
    for (const category of MAIN_CATEGORIES) expect(all).toContain(category);
    expect(all).toContain('/scout creators search');
    expect(h.requests()).toHaveLength(0);
  });

  it('names the options that have values, and suggests one for a near miss', async () => {
    expect(await h.type('help values')).toMatch(/Options with a list of values: .*category.*country/);
    expect(await h.type('help values categry')).toContain('Did you mean "category"');
    expect(await h.type('help values bio')).toContain('is not an option with a list of values');
  });

  it('names statuses in words and options by the names people type', async () => {
    const statuses = await h.type('help values status');
    expect(statuses).toContain('status (6 values)');
    expect(statuses).not.toMatch(/TO_OUTREACH|NEGOTIATING/);
    expect(await h.type('help values hair')).toMatch(/^hair \(\d+ values\)/);
    expect(await h.type('help values')).not.toMatch(/mainCategory|hairColor|sortBy/);
  });
});
