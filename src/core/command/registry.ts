/** The registry of command families: lookup by family and subcommand, and by element kind. */

import { InternalError } from '../errors.js';
import { fold } from './suggest.js';
import type { ActionDef, CommandDef, CommandFamily, CommandRegistry } from './types.js';

/** Builds the registry, refusing duplicate names so dispatch is never ambiguous. */
export function createRegistry(families: readonly CommandFamily[]): CommandRegistry {
  const byName = new Map<string, CommandFamily>();
  // A name with no letter or digit (help's `?`) folds to nothing: it is kept as typed, so that a word of another
  // script, which folds to nothing too, names no family.
  const keyOf = (name: string) => fold(name) || name.trim();
  const actions = new Map<string, ActionDef<unknown>>();
  for (const family of families) {
    for (const name of [family.name, ...(family.aliases ?? [])]) {
      if (byName.has(keyOf(name))) throw new InternalError(`Command family name used twice: ${name}`);
      byName.set(keyOf(name), family);
    }
    const names = new Set<string>();
    for (const command of family.commands) {
      if (command.family !== family.name)
        throw new InternalError(`${command.name} declares family ${command.family}`);
      if (names.has(command.name))
        throw new InternalError(`Command ${family.name} ${command.name} declared twice`);
      names.add(command.name);
    }
    if (family.defaultCommand !== undefined && !names.has(family.defaultCommand)) {
      throw new InternalError(`Family ${family.name} has no default command ${family.defaultCommand}`);
    }
    for (const action of family.actions ?? []) {
      if (actions.has(action.kind)) throw new InternalError(`Action kind declared twice: ${action.kind}`);
      actions.set(action.kind, action);
    }
  }
  return {
    families,
    family: (name) => byName.get(keyOf(name)),
    command(family, name): CommandDef<unknown> | undefined {
      return byName.get(keyOf(family))?.commands.find((c) => fold(c.name) === fold(name));
    },
    action: (kind) => actions.get(kind),
  };
}
