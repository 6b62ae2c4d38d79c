import { readdirSync, readFileSync } from 'node:fs';
import { posix } from 'node:path';
import { describe, expect, it } from 'vitest';

const src = new URL('../src/', import.meta.url);
const files = (readdirSync(src, { recursive: true }) as string[]).filter((f) => f.endsWith('.ts'));
/** Module specifiers a file imports; relative ones resolved to paths under src/ (e.g. core/ui/model.js). */
const importsOf = (file: string) =>
  [...readFileSync(new URL(file, src), 'utf8').matchAll(/(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g)].map(
    (m) => {
      const spec = m[1] ?? '';
      return spec.startsWith('.') ? posix.join(posix.dirname(file.split('\\').join('/')), spec) : spec;
    },
  );

describe('module boundaries', () => {
  it('keeps platform SDKs out of core and commands', () => {
    const offenders = files
      .filter((f) => f.startsWith('core/') || f.startsWith('commands/'))
      .flatMap((f) =>
        importsOf(f)
          .filter(
            (spec) =>
              spec.startsWith('@slack/') || spec.startsWith('discord.js') || spec.startsWith('@discordjs/'),
          )
          .map((spec) => `${f} imports ${spec}`),
      );
    expect(offenders).toEqual([]);
  });

  it('keeps adapters from importing each other', () => {
    const adapters = ['slack', 'discord', 'terminal'];
    const offenders = files
      .filter((f) => f.startsWith('adapters/'))
      .flatMap((f) => {
        const own = f.split('/')[1];
        return importsOf(f)
          .filter((spec) => adapters.some((a) => a !== own && spec.startsWith(`adapters/${a}/`)))
          .map((spec) => `${f} imports ${spec}`);
      });
    expect(offenders).toEqual([]);
  });

  it('keeps core independent of commands, adapters, the sandbox and the composition root', () => {
    const offenders = files
      .filter((f) => f.startsWith('core/'))
      .flatMap((f) =>
        importsOf(f)
          .filter((spec) => /^(commands|adapters|sandbox)\//.test(spec) || /^(app|main)\.js$/.test(spec))
          .map((spec) => `${f} imports ${spec}`),
      );
    expect(offenders).toEqual([]);
  });
});
