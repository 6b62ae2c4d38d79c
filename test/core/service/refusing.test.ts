/**
 * The operations of a tenant without a service account: every call with a valid input is refused with the given
 * error (the dispatcher's says how to connect an account) before it is metered or sent.
 */
import { describe, expect, it } from 'vitest';
import {
  createRefusingApi,
  OPERATIONS,
  type OperationName,
  type ServiceApi,
  ServiceInputError,
} from '../../../src/core/service/index.js';

/** One call of every operation, each with an input its schema accepts. */
const CALLS: Record<OperationName, (api: ServiceApi) => Promise<unknown>> = {
  'creators.search': (api) => api.creators.search({ perPage: 1 }),
  'creators.list': (api) => api.creators.list({ perPage: 1 }),
  'creators.get': (api) => api.creators.get({ userIds: ['c1'] }),
  'crm.listLists': (api) => api.crm.listLists(),
  'crm.createList': (api) => api.crm.createList({ name: 'Launch' }),
  'crm.getList': (api) => api.crm.getList({ listId: 'l1' }),
  'crm.updateList': (api) => api.crm.updateList({ listId: 'l1', name: 'Summer' }),
  'crm.listCreators': (api) => api.crm.listCreators({ listId: 'l1' }),
  'crm.addCreators': (api) => api.crm.addCreators({ listId: 'l1', userIds: ['c1'] }),
  'crm.checkCreators': (api) => api.crm.checkCreators({ listId: 'l1', userIds: ['c1'] }),
  'crm.removeCreator': (api) => api.crm.removeCreator({ listId: 'l1', userId: 'c1' }),
  'crm.updateContact': (api) => api.crm.updateContact({ contactId: 'k1', status: 'Negotiating' }),
  'viral.search': (api) => api.viral.search({ pageSize: 1 }),
  'songs.query': (api) => api.songs.query({ action: 'countries' }),
  'agent.projects': (api) => api.agent.projects(),
  'agent.messages': (api) => api.agent.messages({ perPage: 1 }),
  'agent.contactedCreators': (api) => api.agent.contactedCreators({ perPage: 1 }),
  'videos.search': (api) => api.videos.search({ perPage: 1 }),
  'media.remixImage': (api) => api.media.remixImage({ image_url: 'https://example.com/a.jpg' }),
  'media.remixVideo': (api) => api.media.remixVideo({ video_url: 'https://example.com/a.mp4' }),
};

class Refused extends Error {}

describe('the operations of no account', () => {
  it.each(OPERATIONS)('refuse %s', async (operation) => {
    const api = createRefusingApi(() => new Refused('connect an account first'));
    await expect(CALLS[operation](api)).rejects.toBeInstanceOf(Refused);
  });

  it('refuse calls made together, profiles by id too, each with the refusal itself', async () => {
    const api = createRefusingApi(() => new Refused('connect an account first'));
    const calls = await Promise.allSettled([
      api.creators.get({ userIds: ['c1'] }),
      api.creators.get({ userIds: ['c2'] }),
    ]);
    for (const call of calls) expect((call as PromiseRejectedResult).reason).toBeInstanceOf(Refused);
  });

  it('still say what is wrong with a bad input', async () => {
    const api = createRefusingApi(() => new Refused('connect an account first'));
    await expect(api.songs.query({ action: 'nonsense' } as never)).rejects.toBeInstanceOf(ServiceInputError);
  });
});
