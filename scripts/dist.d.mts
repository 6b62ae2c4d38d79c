/** The types of dist.mjs, for the TypeScript that uses it (the start benchmark, the build test). */

/** Whether dist/ holds a compiled bot, and whether it is older than what it is compiled from. */
export type DistState = 'missing' | 'stale' | 'fresh';

/** The project folder: the one holding package.json, src/ and dist/. */
export declare const PROJECT: string;

/** 'missing' without dist/main.js, 'stale' when src/, package.json or tsconfig*.json changed after it, else 'fresh'. */
export declare function distState(root?: string): DistState;

/** Compiles src/ to dist/ with tsc -p tsconfig.build.json, replacing dist/ only when the build succeeds. */
export declare function build(root?: string): void;

/** Builds dist/ when it is missing or stale, saying so through `report` (standard error); the state it found. */
export declare function ensureBuilt(root?: string, report?: (line: string) => void): DistState;
