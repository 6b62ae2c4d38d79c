/**
 * The calls of one key waiting for their turn, in the order they start: people's calls (priority `user`) take
 * turns person by person, each person's own calls in the order they came (round robin over per-person queues), so
 * one person's twenty-page export does not hold up a colleague's single search; background calls wait, in the
 * order they came, behind every person's. A person who joins takes the last turn of the current round.
 */
import type { Priority } from './types.js';

/** The person of people's calls made without one: they share a single turn, as one more person would. */
export const ANONYMOUS_PERSON = '';

/** What the queue needs to know of a waiting call. */
export interface Waiting {
  readonly priority: Priority;
  /** An opaque key of who waits; ignored for background calls. */
  readonly person: string;
}

/** Waiting calls in turn order. */
export interface FairQueue<E extends Waiting> {
  /** Adds a call behind its person's earlier calls (background: behind every call). */
  push(entry: E): void;
  /** Takes the call of `priority` whose turn it is, or null when none of that priority waits. */
  take(priority: Priority): E | null;
  /** Takes a call out wherever it stands; false when it is not waiting (any more). */
  remove(entry: E): boolean;
  /** Calls waiting, of one priority or of both. */
  count(priority?: Priority): number;
  /** For every waiting call, how many calls will start before it if nobody else joins. */
  ahead(): Map<E, number>;
}

/** Creates an empty queue. */
export function createFairQueue<E extends Waiting>(): FairQueue<E> {
  /** Each waiting person's calls, oldest first. */
  const lanes = new Map<string, E[]>();
  /** Persons with calls waiting, the one whose turn is next first. */
  const ring: string[] = [];
  const background: E[] = [];
  let people = 0;

  const take = (priority: Priority): E | null => {
    if (priority === 'background') return background.shift() ?? null;
    const person = ring.shift();
    if (person === undefined) return null;
    const lane = lanes.get(person) as E[];
    const entry = lane.shift() as E;
    people--;
    // Served, the person goes to the end of the round; a person with nothing left leaves it.
    if (lane.length > 0) ring.push(person);
    else lanes.delete(person);
    return entry;
  };

  return {
    push(entry) {
      if (entry.priority === 'background') {
        background.push(entry);
        return;
      }
      const lane = lanes.get(entry.person);
      if (lane === undefined) {
        lanes.set(entry.person, [entry]);
        ring.push(entry.person);
      } else {
        lane.push(entry);
      }
      people++;
    },
    take,
    remove(entry) {
      if (entry.priority === 'background') {
        const at = background.indexOf(entry);
        if (at < 0) return false;
        background.splice(at, 1);
        return true;
      }
      const lane = lanes.get(entry.person);
      const at = lane?.indexOf(entry) ?? -1;
      if (lane === undefined || at < 0) return false;
      lane.splice(at, 1);
      people--;
      if (lane.length === 0) {
        lanes.delete(entry.person);
        ring.splice(ring.indexOf(entry.person), 1);
      }
      return true;
    },
    count(priority) {
      if (priority === 'user') return people;
      if (priority === 'background') return background.length;
      return people + background.length;
    },
    ahead() {
      const places = new Map<E, number>();
      const sizes = ring.map((person) => (lanes.get(person) as E[]).length);
      for (const [turn, person] of ring.entries()) {
        for (const [own, entry] of (lanes.get(person) as E[]).entries()) {
          // Before a person's call number `own` (from 0) start: their own earlier calls, `own` calls of each person
          // after them in the round and one more of each before them (the current round's), as far as each has.
          let before = own;
          for (const [other, size] of sizes.entries()) {
            if (other !== turn) before += Math.min(size, own + (other < turn ? 1 : 0));
          }
          places.set(entry, before);
        }
      }
      for (const [at, entry] of background.entries()) places.set(entry, people + at);
      return places;
    },
  };
}
