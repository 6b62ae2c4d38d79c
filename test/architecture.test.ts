import { readdirSync, readFileSync } from 'node:fs';
import { posix } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { FAMILIES } from '../src/commands/index.js';

const src = new URL('../src/', import.meta.url);
const files = (readdirSync(src, { recursive: true }) as string[]).filter((f) => f.endsWith('.ts'));
/** A path under src/ with forward slashes, whatever the platform's separator. */
const slashed = (file: string) => file.split('\\').join('/');
/** Module specifiers a file imports, as written. */
const specifiersOf = (file: string) =>
  [...readFileSync(new URL(file, src), 'utf8').matchAll(/(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g)].map(
    (m) => m[1] ?? '',
  );
/** A relative specifier of `file` resolved to its path under src/ (e.g. core/ui/model.js). */
const resolved = (file: string, spec: string) => posix.join(posix.dirname(slashed(file)), spec);
/** Module specifiers a file imports; relative ones resolved to paths under src/ (e.g. core/ui/model.js). */
const importsOf = (file: string) =>
  specifiersOf(file).map((spec) => (spec.startsWith('.') ? resolved(file, spec) : spec));
/** The files under src/ a file imports: its relative imports, resolved. */
const localImportsOf = (file: string) =>
  specifiersOf(file)
    .filter((spec) => spec.startsWith('.'))
    .map((spec) => resolved(file, spec));

/**
 * The text of each string and template literal of a TypeScript source (a template's parts between its
 * substitutions each on their own); comments are not literals.
 */
function literalsOf(source: string): string[] {
  const texts: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node)) texts.push(node.text);
    ts.forEachChild(node, visit);
  };
  ts.forEachChild(ts.createSourceFile('source.ts', source, ts.ScriptTarget.Latest, true), visit);
  return texts;
}

/**
 * What an adapter may import of src/ besides its own folder: the chat port, the reply model, the outbound contract,
 * the logger and the error base. Everything else of the app reaches it through ChatCore.
 */
const ADAPTERS_MAY_IMPORT: readonly RegExp[] = [
  /^core\/chat\//,
  /^core\/ui\//,
  /^core\/(outbound|logger|errors)\.js$/,
];

/** The node of the core import graph a file under src/ belongs to: a folder of src/core, or a file directly in it. */
const coreNodeOf = (path: string): string => {
  const [, top = ''] = path.split('/');
  return `core/${top.replace(/\.[jt]s$/, '')}`;
};

/**
 * The import graph between the nodes of src/core (each folder, and each file directly in it, such as credits.ts),
 * every import counted, type-only ones too: a type named across a cycle ties the two layers together as much as a
 * value does. Each edge keeps the imports that make it, to name them when a rule fails.
 */
function coreGraph(): Map<string, Map<string, string[]>> {
  const graph = new Map<string, Map<string, string[]>>();
  for (const file of files.map(slashed).filter((f) => f.startsWith('core/'))) {
    const from = coreNodeOf(file);
    const edges = graph.get(from) ?? new Map<string, string[]>();
    graph.set(from, edges);
    for (const path of localImportsOf(file).filter((p) => p.startsWith('core/'))) {
      const to = coreNodeOf(path);
      if (to !== from) edges.set(to, [...(edges.get(to) ?? []), `${file} imports ${path}`]);
    }
  }
  return graph;
}

/** Each cycle of an import graph, with every import within it named, to show where to cut it. */
function cycleReports(graph: ReadonlyMap<string, ReadonlyMap<string, readonly string[]>>): string[] {
  return cyclesOf(graph).map((cycle) =>
    [
      cycle.join(' ↔ '),
      ...cycle.flatMap((from) =>
        [...(graph.get(from) ?? [])].filter(([to]) => cycle.includes(to)).flatMap(([, why]) => why),
      ),
    ].join('\n  '),
  );
}

/** The strongly connected components of a graph with more than one node (Tarjan's algorithm): its cycles. */
function cyclesOf(graph: ReadonlyMap<string, ReadonlyMap<string, unknown>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const components: string[][] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node) ?? 0);
    stack.push(node);
    for (const next of graph.get(node)?.keys() ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node) ?? 0, low.get(next) ?? 0));
      } else if (stack.includes(next)) {
        low.set(node, Math.min(low.get(node) ?? 0, index.get(next) ?? 0));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      for (let top = stack.pop(); top !== undefined; top = top === node ? undefined : stack.pop())
        component.push(top);
      if (component.length > 1) components.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return components;
}

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

  it('lets adapters reach the app only through core/chat, besides core/ui, core/outbound, core/logger and core/errors', () => {
    const adapterFiles = files.map(slashed).filter((f) => f.startsWith('adapters/'));
    expect(adapterFiles.length).toBeGreaterThan(0);
    const offenders = adapterFiles.flatMap((f) => {
      const own = `adapters/${f.split('/')[1]}/`;
      return localImportsOf(f)
        .filter((path) => !path.startsWith(own) && !ADAPTERS_MAY_IMPORT.some((allowed) => allowed.test(path)))
        .map((path) => `${f} imports ${path}`);
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

  it('keeps the reply model neutral: core/ui imports of src/ only its own files', () => {
    // Commands, the chat port, the store and the service build replies from core/ui, never the other way round: a
    // renderer needs the model alone, and what a command's form or a domain's card shows is decided with it.
    const offenders = files
      .map(slashed)
      .filter((f) => f.startsWith('core/ui/'))
      .flatMap((f) =>
        localImportsOf(f)
          .filter((path) => !path.startsWith('core/ui/'))
          .map((path) => `${f} imports ${path}`),
      );
    expect(offenders).toEqual([]);
  });

  it('keeps the folders of core free of import cycles: each layer builds on the ones below it', () => {
    // A cycle between two folders (core/command and core/credits, say) makes neither the lower layer: each can only
    // be read, tested and changed with the other. Every import within a cycle is named, to show where to cut it.
    const graph = coreGraph();
    expect(graph.size).toBeGreaterThan(5);
    expect(cycleReports(graph)).toEqual([]);
  });

  it('keeps the files of core free of import cycles, type-only imports included', () => {
    // Files that import each other can only be read and changed together; every import within a cycle is named.
    const graph = new Map<string, Map<string, string[]>>();
    for (const file of files.map(slashed).filter((f) => f.startsWith('core/'))) {
      const from = file.replace(/\.ts$/, '.js');
      const edges = new Map<string, string[]>();
      for (const to of localImportsOf(file).filter((p) => p.startsWith('core/') && p !== from))
        edges.set(to, [`${file} imports ${to}`]);
      graph.set(from, edges);
    }
    expect(graph.size).toBeGreaterThan(50);
    expect(cycleReports(graph)).toEqual([]);
  });

  it('keeps command names out of adapters: what a command shows is declared with it', () => {
    // A string literal naming a family or one of its commands ('creators', 'creators.add', 'list.edit').
    const names = FAMILIES.flatMap((family) => [
      family.name,
      ...family.commands.map((c) => `${family.name}.${c.name}`),
    ]);
    // A command as typed, anywhere in a literal ('list update', `digest add ${channel}`): its family, a space, then
    // one of that family's commands.
    const typed = FAMILIES.map(
      (family) =>
        new RegExp(
          `(?<![\\w-])${family.name}\\s+(${family.commands.map((c) => c.name).join('|')})(?![\\w-])`,
        ),
    );
    const offenders = files
      .filter((f) => slashed(f).startsWith('adapters/'))
      .flatMap((f) => {
        const source = readFileSync(new URL(f, src), 'utf8');
        const literals = literalsOf(source);
        return [
          ...names
            .filter((name) => new RegExp(`['"\`]${name.replace('.', '\\.')}(['"\`.:])`).test(source))
            .map((name) => `${slashed(f)} names ${name}`),
          ...literals.flatMap((text) =>
            typed.flatMap((command) => {
              const found = command.exec(text);
              return found === null ? [] : [`${slashed(f)} names ${found[0]} in ${JSON.stringify(text)}`];
            }),
          ),
        ];
      });
    expect(offenders).toEqual([]);
  });

  it('keeps commands out of adapters’ prose: a line quoting one comes from the core', () => {
    // `/scout creators opens…`, `run /scout help show`; `/scout ${def.family} ${def.name}` names no command itself.
    const quoting = new RegExp(`/scout\\s+(${FAMILIES.map((f) => f.name).join('|')})(?![\\w-])`);
    const offenders = files
      .filter((f) => slashed(f).startsWith('adapters/'))
      .flatMap((f) =>
        literalsOf(readFileSync(new URL(f, src), 'utf8'))
          .filter((text) => quoting.test(text))
          .map((text) => `${slashed(f)} quotes ${JSON.stringify(text)}`),
      );
    expect(offenders).toEqual([]);
  });

  /** Every option name the commands declare, and the files of `area` whose string literals name one. */
  const namingOptions = (area: RegExp, allowed: ReadonlySet<string>) => {
    const options = new Set(
      FAMILIES.flatMap((family) => family.commands.flatMap((c) => Object.keys(c.params))),
    );
    return files
      .filter((f) => area.test(slashed(f)))
      .flatMap((f) =>
        [...new Set(literalsOf(readFileSync(new URL(f, src), 'utf8')))]
          .filter((text) => options.has(text) && !allowed.has(text))
          .map((text) => `${slashed(f)} names the option ${text}`),
      );
  };

  it('keeps option names out of adapters: how an option is registered is declared with it', () => {
    // Words that are option names of some command but mean something else here: a slash command, the event an ack
    // is timed for and a guide's command line ('command'); the kind of the pager's label on Discord ('page').
    const generic = new Set(['command', 'page']);
    expect(namingOptions(/^adapters\//, generic)).toEqual([]);
  });

  it('keeps lists of option names out of forms and the chat port: form order and completions read the declarations', () => {
    // Fields of a declaration ('name', in `Pick<CommandDef, 'family' | 'name'>`) and the kind of a command's own
    // form id ('command'), which are option names of some command too.
    const generic = new Set(['name', 'command']);
    expect(namingOptions(/^core\/(chat|command\/forms)\//, generic)).toEqual([]);
  });

  it('raises only coded errors: no bare Error is thrown, rejected or given as a reason in src', () => {
    // `new Error(...)` or `Error(...)`, not a subclass's name ending in Error (ServiceError, TypeError).
    const bare = /(?<![\w$.])(?:new\s+)?Error\s*\(/;
    const offenders = files.flatMap((f) =>
      readFileSync(new URL(f, src), 'utf8')
        .split('\n')
        .flatMap((line, i) => (bare.test(line) ? [`${slashed(f)}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(offenders).toEqual([]);
  });
});
