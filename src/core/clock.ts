/** Time, injected so tests and jobs can move it. */

/** A source of the current time. */
export interface Clock {
  now(): Date;
}

/** The system clock. */
export const systemClock: Clock = { now: () => new Date() };

/** A clock that stands still until moved; for tests and simulations. */
export function createManualClock(
  start: Date | string | number,
): Clock & { advance(ms: number): void; set(to: Date): void } {
  let current = new Date(start).getTime();
  return {
    now: () => new Date(current),
    advance(ms) {
      current += ms;
    },
    set(to) {
      current = to.getTime();
    },
  };
}
