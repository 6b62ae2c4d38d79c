/** Credit prices of the contract, the cost of a finished call, and an upper bound before a call. */

import type { OperationName } from './operations.js';

/** How an operation is priced. */
export type Price =
  | { kind: 'free' }
  | { kind: 'per-request'; credits: number }
  /** One credit per item returned; `sizeField` and `defaultSize` bound a page before the call. */
  | { kind: 'per-item'; sizeFields: readonly string[]; defaultSize: number; maxSize: number };

const FREE = { kind: 'free' } as const;

/**
 * The pricing table (remix is not priced by the contract, so it counts as free): what a call is metered at, and
 * which operations a client without a meter may call at all (`isFree`).
 */
export const PRICING = {
  'creators.search': FREE,
  'creators.list': { kind: 'per-item', sizeFields: ['perPage'], defaultSize: 10, maxSize: 100 },
  'creators.get': {
    kind: 'per-item',
    sizeFields: ['userIds', 'user_ids'],
    defaultSize: 0,
    maxSize: Infinity,
  },
  'crm.listLists': FREE,
  'crm.createList': FREE,
  'crm.getList': FREE,
  'crm.updateList': FREE,
  'crm.listCreators': FREE,
  'crm.addCreators': FREE,
  'crm.checkCreators': FREE,
  'crm.removeCreator': FREE,
  'crm.updateContact': FREE,
  'viral.search': { kind: 'per-item', sizeFields: ['pageSize'], defaultSize: 12, maxSize: 100 },
  'songs.query': { kind: 'per-request', credits: 10 },
  'agent.projects': FREE,
  'agent.messages': FREE,
  'agent.contactedCreators': FREE,
  'videos.search': { kind: 'per-item', sizeFields: ['perPage'], defaultSize: 20, maxSize: 100 },
  'media.remixImage': FREE,
  'media.remixVideo': FREE,
} as const satisfies Readonly<Record<OperationName, Price>>;

/** An operation the pricing table charges nothing for. */
export type FreeOperation = {
  [K in OperationName]: (typeof PRICING)[K] extends { kind: 'free' } ? K : never;
}[OperationName];

/** Whether the pricing table charges nothing for `operation`. */
export function isFree(operation: OperationName): operation is FreeOperation {
  return PRICING[operation].kind === 'free';
}

/** Credits a finished call cost, given how many items it returned. */
export function costOf(operation: OperationName, itemCount: number): number {
  const price = PRICING[operation];
  if (price.kind === 'free') return 0;
  if (price.kind === 'per-request') return price.credits;
  return itemCount;
}

function sizeOf(value: unknown): number | null {
  if (Array.isArray(value)) return value.length;
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) && n >= 0 ? Math.ceil(n) : null;
}

/**
 * The most credits a call with this input can cost, for the credit guard: the page size (or the number of ids)
 * for per-item operations, the fixed price otherwise.
 */
export function estimateCost(operation: OperationName, input: object = {}): number {
  const price = PRICING[operation];
  if (price.kind === 'free') return 0;
  if (price.kind === 'per-request') return price.credits;
  const fields = input as Readonly<Record<string, unknown>>;
  for (const field of price.sizeFields) {
    const size = sizeOf(fields[field]);
    if (size !== null) return Math.min(size, price.maxSize);
  }
  return price.defaultSize;
}
