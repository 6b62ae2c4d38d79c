/**
 * Readiness: named checks (the database, its storage, each configured platform) run on every `GET /readyz`. A check
 * answers null when its part is ready, else a few words saying what is wrong.
 */

/** How long one check may take before it counts as failed. */
export const CHECK_TIMEOUT_MS = 2_000;

/** One check: null when ready, else why not ("not connected", "storage full: ..."). */
export type ReadinessCheck = () => string | null | Promise<string | null>;

/** What `GET /readyz` answers: ready when every check is; each check's result, "ok" or why not. */
export interface ReadinessReport {
  ready: boolean;
  checks: Record<string, string>;
}

/** The checks of one app. */
export interface Readiness {
  /** Adds (or replaces) the check called `name`; returns the function that removes it. */
  add(name: string, check: ReadinessCheck): () => void;
  /** Removes the check called `name`, whoever added it. */
  remove(name: string): void;
  /** Runs every check now, together; a check that throws fails with its message. */
  report(): Promise<ReadinessReport>;
}

/** Creates an empty set of checks. */
export function createReadiness(): Readiness {
  const checks = new Map<string, ReadinessCheck>();
  return {
    add(name, check) {
      checks.set(name, check);
      return () => {
        if (checks.get(name) === check) checks.delete(name);
      };
    },
    remove(name) {
      checks.delete(name);
    },
    async report() {
      const entries = [...checks];
      const problems = await Promise.all(
        entries.map(async ([, check]) => {
          let timer: NodeJS.Timeout | undefined;
          // A part that does not answer (a database whose network froze) is not ready; the report still comes.
          const late = new Promise<string>((resolve) => {
            timer = setTimeout(() => resolve(`no answer within ${CHECK_TIMEOUT_MS} ms`), CHECK_TIMEOUT_MS);
          });
          try {
            return await Promise.race([Promise.resolve(check()), late]);
          } catch (error) {
            return `check failed: ${error instanceof Error ? error.message : String(error)}`;
          } finally {
            clearTimeout(timer);
          }
        }),
      );
      const results: Record<string, string> = {};
      for (const [index, [name]] of entries.entries()) results[name] = problems[index] ?? 'ok';
      return { ready: problems.every((problem) => problem === null), checks: results };
    },
  };
}
