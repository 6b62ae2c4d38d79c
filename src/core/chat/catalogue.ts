/**
 * The catalogue: the commands as platforms register and describe them (Discord's `/scout` command, Slack's
 * manifest), read-only. It is data only, copied from the declarations and frozen when the chat port is built: names,
 * descriptions, permissions and option tables, never a handler, a schema or anything else that runs a command.
 */

import { hasForm } from '../command/forms/index.js';
import type { ParamSpec } from '../command/params.js';
import { peopleName } from '../command/people-names.js';
import type { CommandRegistry, Permission } from '../command/types.js';

/** `T` read-only all the way down. */
type DeepReadonly<T> = T extends object ? { readonly [K in keyof T]: DeepReadonly<T[K]> } : T;

/** One option of a command as declared: its kind, description, values, bounds, aliases, whether required or secret. */
export type CatalogueParam = DeepReadonly<ParamSpec>;

/** One subcommand of a family. */
export interface CatalogueCommand {
  /** The family, e.g. `creators`. */
  readonly family: string;
  /** The subcommand, e.g. `search`. */
  readonly name: string;
  /** One line for help and platform registration. */
  readonly description: string;
  readonly permission: Permission;
  /** The options, keyed by their canonical name (the one the dispatcher resolves). */
  readonly params: Readonly<Record<string, CatalogueParam>>;
  /** The name people are given for each option (`category` for `mainCategory`): what a platform shows it as. */
  readonly names: Readonly<Record<string, string>>;
  /** Whether the command has a form (it takes an option, and no secret): platforms offer a way to open it. */
  readonly form: boolean;
}

/** A command family and its subcommands. */
export interface CatalogueFamily {
  readonly name: string;
  readonly description: string;
  readonly commands: readonly CatalogueCommand[];
}

/** The commands and their parameters, read-only: for platform registrations and manifests. */
export interface Catalogue {
  readonly families: readonly CatalogueFamily[];
}

/** Freezes a value and everything it holds. */
function deepFreeze<T>(value: T): DeepReadonly<T> {
  if (value !== null && typeof value === 'object') {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value as DeepReadonly<T>;
}

/** The catalogue of `registry`'s commands: a frozen copy, sharing no object with the declarations. */
export function catalogueOf(registry: CommandRegistry): Catalogue {
  return deepFreeze({
    families: registry.families.map((family) => ({
      name: family.name,
      description: family.description,
      commands: family.commands.map((def) => ({
        family: def.family,
        name: def.name,
        description: def.description,
        permission: def.permission,
        // Option tables are plain data: a copy of one that held a function would throw here.
        params: structuredClone(def.params),
        names: Object.fromEntries(
          Object.entries(def.params).map(([param, spec]) => [param, peopleName(param, spec)]),
        ),
        form: hasForm(def),
      })),
    })),
  });
}
