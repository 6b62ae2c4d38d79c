/** A seeded pseudo-random stream (mulberry32) with the helpers the sandbox data generators need. */
export interface Random {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [min, max], both inclusive. */
  int(min: number, max: number): number;
  /** A float in [min, max). */
  float(min: number, max: number): number;
  /** True with probability p. */
  chance(p: number): boolean;
  /** One element of a non-empty array. */
  pick<T>(items: readonly T[]): T;
  /** Up to n distinct elements, in random order. */
  sample<T>(items: readonly T[], n: number): T[];
  /** A standard normal deviate (Box-Muller). */
  normal(): number;
  /** A log-normal value with the given median and log-space standard deviation. */
  logNormal(median: number, sigma: number): number;
  /** `length` lowercase hexadecimal characters. */
  hex(length: number): string;
  /** `length` decimal digits, the first one non-zero. */
  digits(length: number): string;
}

/** Creates a mulberry32 stream: the same seed always yields the same sequence. */
export function createRandom(seed: number): Random {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number): number => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(items: readonly T[]): T => {
    const item = items[Math.floor(next() * items.length)];
    if (item === undefined) throw new RangeError('pick() needs a non-empty array');
    return item;
  };
  const normal = (): number => {
    const u = 1 - next();
    const v = next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  };
  return {
    next,
    int,
    float: (min, max) => min + next() * (max - min),
    chance: (p) => next() < p,
    pick,
    sample: <T>(items: readonly T[], n: number): T[] => {
      const copy = [...items];
      const out: T[] = [];
      while (out.length < n && copy.length > 0) {
        const [item] = copy.splice(Math.floor(next() * copy.length), 1);
        if (item !== undefined) out.push(item);
      }
      return out;
    },
    normal,
    logNormal: (median, sigma) => median * Math.exp(sigma * normal()),
    hex: (length) => {
      let out = '';
      for (let i = 0; i < length; i++) out += Math.floor(next() * 16).toString(16);
      return out;
    },
    digits: (length) => {
      let out = String(int(1, 9));
      for (let i = 1; i < length; i++) out += String(int(0, 9));
      return out;
    },
  };
}

/** A 32-bit FNV-1a hash of a string, mixed with a seed: derives independent streams from names. */
export function hashString(text: string, seed = 0): number {
  let hash = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}

/** Builds a picker that draws items in proportion to their weights (cumulative table, binary search). */
export function createWeighted<T>(items: readonly T[], weights: readonly number[]): (random: Random) => T {
  if (items.length === 0 || items.length !== weights.length) {
    throw new RangeError('createWeighted() needs as many weights as items, at least one');
  }
  const cumulative: number[] = [];
  let total = 0;
  for (const weight of weights) {
    total += weight;
    cumulative.push(total);
  }
  return (random) => {
    const target = random.next() * total;
    let low = 0;
    let high = cumulative.length - 1;
    while (low < high) {
      const mid = (low + high) >> 1;
      if ((cumulative[mid] ?? 0) > target) high = mid;
      else low = mid + 1;
    }
    return items[low] as T;
  };
}
