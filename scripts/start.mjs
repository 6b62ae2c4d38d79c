/**
 * `npm start`: compiles src/ to dist/ when dist/ is missing or older than its sources, then runs the compiled bot in
 * this very process. No tsx and no second process: signals, standard input and output, and the exit code are the
 * bot's own, as with `node dist/main.js`.
 */
import { ensureBuilt } from './dist.mjs';

try {
  ensureBuilt();
} catch (error) {
  process.stderr.write(
    `Scout could not be compiled: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
}
await import('../dist/main.js');
