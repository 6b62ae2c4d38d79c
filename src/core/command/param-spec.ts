/** The declaration of a command's options: each option's kind, aliases and help (params.ts reads them). */

/** What every kind of option declares. */
export interface ParamBase {
  /** One line for help and for platform option descriptions. */
  description: string;
  /** Other names people may type for this option (`niche` for `nichesToPromote`). */
  aliases?: readonly string[];
  /** Bare words fill this option (the first positional option takes the first word, and so on). */
  positional?: boolean;
  /** Every remaining bare word goes to this option, as a list. */
  rest?: boolean;
  required?: boolean;
  /** An example value for help. */
  example?: string;
  /**
   * A secret (an API key): never a platform option and never echoed; chat adapters ask for it in a private form
   * when it was not given.
   */
  secret?: boolean;
  /**
   * How much people use the option, which orders a command's form and chooses the options a platform registers
   * first; unranked options come between the two ranks, as declared.
   */
  rank?: OptionRank;
}

/**
 * `{ common: n }`: one of what people filter by most, shown right after the required and positional options, a lower
 * n sooner (compared within one command only). `'paging'`: sorting and paging, set now and then, shown last.
 */
export type OptionRank = { readonly common: number } | 'paging';

/** The values of a choice option: the allowed values, other spellings of them, and how help names them. */
export interface ChoiceValues {
  values: readonly string[];
  /** Other spellings people type (codes, short forms), each mapped to the allowed value it means. */
  synonyms?: Readonly<Record<string, string>>;
  /** The allowed values in words, where a list would be too long: `any country name or code`. */
  valuesText?: string;
}

/** The kinds of option a command can declare. */
export type ParamSpec = ParamBase &
  (
    | {
        kind: 'text';
        /** Values the service is known to take, offered as people type; any other value is accepted too. */
        known?: readonly string[];
        /** A person, by mention or user id, or one of the `also` words (`everyone`): forms offer a person picker. */
        person?: { also?: readonly string[] };
        /** The value names one of the team's CRM lists: completed from the service as it is typed. */
        completedFrom?: 'crm-lists';
        /**
         * A name of several words (a list, a project): the bare words after it, up to the next `key:value`, are
         * part of it, so it needs no quotes, wherever no other option takes bare words (see bind.ts).
         */
        trailing?: boolean;
      }
    /** `min` and `max`: the whole numbers accepted, where the command takes fewer than its schema would. */
    | { kind: 'integer'; min?: number; max?: number }
    | { kind: 'number' /** accepts a trailing % sign */; percent?: boolean }
    | { kind: 'boolean' }
    | ({ kind: 'choice' } & ChoiceValues)
    /** A comma list of allowed values; `join` sends it as one comma-joined string instead of an array. */
    | ({ kind: 'choices'; join?: boolean } & ChoiceValues)
    /** A comma list of free words. */
    | { kind: 'texts'; join?: boolean }
    | RangeSpec
  );

/**
 * `10k-100k`, `>=10k`, `>10k`, `<=1m`, `<1m`, `10k+`, `=5`: sets the `min` and/or `max` field, which are the
 * service's own names of the two bounds (`followersMin`, `followersMax`); those names set one bound each.
 */
export interface RangeSpec {
  kind: 'range';
  min: string;
  max: string;
  /** Whole numbers: `>n` is at least n+1 and `<n` at most n-1. On decimals they read as at least / at most n. */
  integer: boolean;
  /** A percentage, from 0 to 100; a trailing % sign is accepted. */
  percent?: boolean;
  /** The service reads a bound of 0 as no bound, so a maximum of 0 cannot be searched. */
  zeroIsUnset?: boolean;
  /**
   * The top of a bounded scale (a percentage's is 100): a bound above it is out of range, and a maximum at it
   * filters nothing.
   */
  top?: number;
}

/** A command's option table, keyed by the option's canonical name (the contract's own parameter name). */
export type ParamTable = Readonly<Record<string, ParamSpec>>;
