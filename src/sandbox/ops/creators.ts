/** Creator operations: free v2 search (ids), v1 profiles by filter and v2 profiles by id (1 credit each). */
import { SEARCH_PLATFORMS, V1_PLATFORMS } from '../../core/service/enums.js';
import type { CreatorProfile } from '../data/records.js';
import { SandboxHttpError } from '../server/http.js';
import { isObject } from '../server/input.js';
import type { Operation } from '../server/router.js';
import { parseCreatorQuery, runCreatorQuery } from './creator-query.js';

/** Most ids one creators-get call takes (the live maximum is undocumented). */
export const MAX_GET_IDS = 1000;

function readIds(body: unknown): string[] {
  if (!isObject(body))
    throw new SandboxHttpError(400, 'Send a JSON object with userIds (array of creator ids)');
  const ids = body.userIds ?? body.user_ids;
  if (!Array.isArray(ids) || ids.some((id) => typeof id !== 'string' || id.trim() === '')) {
    throw new SandboxHttpError(400, 'userIds must be an array of creator id strings');
  }
  if (ids.length === 0) throw new SandboxHttpError(400, 'userIds must hold at least one id');
  if (ids.length > MAX_GET_IDS) throw new SandboxHttpError(400, `userIds holds at most ${MAX_GET_IDS} ids`);
  return ids as string[];
}

/** The creator operations. */
export function creatorOperations(): Operation[] {
  const searchable = (all: readonly CreatorProfile[]) => all.filter((c) => c.source !== 'twitch');
  let searchPool: readonly CreatorProfile[] | undefined;
  return [
    {
      method: 'GET',
      pattern: '/api/v2/creators/search',
      family: 'A',
      handle: ({ query, world }) => {
        const parsed = parseCreatorQuery(query, SEARCH_PLATFORMS);
        searchPool ??= searchable(world.creators());
        const page = runCreatorQuery(searchPool, parsed);
        return {
          body: {
            message: 'OK',
            params: parsed.accepted,
            response: {
              data: page.data.map((c) => c.user_id),
              page: parsed.page,
              next_page: page.nextPage,
              total_pages: page.totalPages,
            },
          },
        };
      },
    },
    {
      method: 'GET',
      pattern: '/api/v1/creators',
      family: 'A',
      handle: ({ query, world, account, requireCredits, charge }) => {
        const parsed = parseCreatorQuery(query, V1_PLATFORMS);
        requireCredits(1);
        const page = runCreatorQuery(world.creators(), parsed);
        charge(page.data.length);
        return {
          body: {
            message: 'OK',
            params: parsed.accepted,
            response: {
              data: page.data,
              page: parsed.page,
              next_page: page.nextPage,
              total_pages: page.totalPages,
              total: page.total,
              is_trial: account.trial,
            },
          },
        };
      },
    },
    {
      method: 'POST',
      pattern: '/api/v2/creators/get',
      family: 'A',
      handle: ({ body, world, account, requireCredits, charge }) => {
        const ids = readIds(body());
        requireCredits(1);
        const found = [...new Set(ids)]
          .map((id) => world.creator(id))
          .filter((c): c is CreatorProfile => c !== undefined);
        charge(found.length);
        return {
          body: {
            message: 'OK',
            requestedIds: ids,
            response: {
              data: found,
              page: 1,
              next_page: 0,
              total_pages: found.length > 0 ? 1 : 0,
              total: found.length,
              is_trial: account.trial,
            },
          },
        };
      },
    },
  ];
}
