/** node-postgres, loaded the first time a PostgreSQL database is opened: a deployment on SQLite never loads it. */
import { createRequire } from 'node:module';
import type pg from 'pg';

let loaded: typeof pg | undefined;

/** The `pg` module. It is CommonJS, so require loads it synchronously and openPostgres stays synchronous. */
export function nodePostgres(): typeof pg {
  loaded ??= createRequire(import.meta.url)('pg') as typeof pg;
  return loaded;
}
