/** The operations of the service, with the HTTP traits the transport needs (method, host, safety, time limit). */

/** Every operation the client can call, in contract order. */
export const OPERATIONS = [
  'creators.search',
  'creators.list',
  'creators.get',
  'crm.listLists',
  'crm.createList',
  'crm.getList',
  'crm.updateList',
  'crm.listCreators',
  'crm.addCreators',
  'crm.checkCreators',
  'crm.removeCreator',
  'crm.updateContact',
  'viral.search',
  'songs.query',
  'agent.projects',
  'agent.messages',
  'agent.contactedCreators',
  'videos.search',
  'media.remixImage',
  'media.remixVideo',
] as const;

/** The name of one operation, such as `creators.search`. */
export type OperationName = (typeof OPERATIONS)[number];

/** An HTTP method used by the service. */
export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** What the transport must know about an operation. */
export interface OperationTraits {
  method: HttpMethod;
  /** `api` requests go to the base URL, `media` requests to the media base URL. */
  host: 'api' | 'media';
  /** True when repeating the request cannot change anything beyond what one request does (reads). */
  repeatable: boolean;
  /** Default time limit of one attempt, in milliseconds. */
  timeoutMs: number;
}

const SEARCH_MS = 15_000;
const PROFILE_MS = 30_000;
const CRM_MS = 15_000;

/** Traits of every operation. */
export const OPERATION_TRAITS: Readonly<Record<OperationName, OperationTraits>> = {
  'creators.search': { method: 'GET', host: 'api', repeatable: true, timeoutMs: SEARCH_MS },
  'creators.list': { method: 'GET', host: 'api', repeatable: true, timeoutMs: PROFILE_MS },
  // A POST that only reads profiles: safe to repeat.
  'creators.get': { method: 'POST', host: 'api', repeatable: true, timeoutMs: PROFILE_MS },
  'crm.listLists': { method: 'GET', host: 'api', repeatable: true, timeoutMs: CRM_MS },
  'crm.createList': { method: 'POST', host: 'api', repeatable: false, timeoutMs: CRM_MS },
  'crm.getList': { method: 'GET', host: 'api', repeatable: true, timeoutMs: CRM_MS },
  'crm.updateList': { method: 'PATCH', host: 'api', repeatable: false, timeoutMs: CRM_MS },
  'crm.listCreators': { method: 'GET', host: 'api', repeatable: true, timeoutMs: CRM_MS },
  'crm.addCreators': { method: 'POST', host: 'api', repeatable: false, timeoutMs: CRM_MS },
  // A POST that only reads membership: safe to repeat.
  'crm.checkCreators': { method: 'POST', host: 'api', repeatable: true, timeoutMs: CRM_MS },
  'crm.removeCreator': { method: 'DELETE', host: 'api', repeatable: false, timeoutMs: CRM_MS },
  'crm.updateContact': { method: 'PATCH', host: 'api', repeatable: false, timeoutMs: CRM_MS },
  'viral.search': { method: 'POST', host: 'api', repeatable: true, timeoutMs: PROFILE_MS },
  'songs.query': { method: 'GET', host: 'api', repeatable: true, timeoutMs: PROFILE_MS },
  'agent.projects': { method: 'GET', host: 'api', repeatable: true, timeoutMs: CRM_MS },
  'agent.messages': { method: 'GET', host: 'api', repeatable: true, timeoutMs: CRM_MS },
  'agent.contactedCreators': { method: 'GET', host: 'api', repeatable: true, timeoutMs: CRM_MS },
  'videos.search': { method: 'GET', host: 'api', repeatable: true, timeoutMs: PROFILE_MS },
  'media.remixImage': { method: 'POST', host: 'media', repeatable: false, timeoutMs: 120_000 },
  'media.remixVideo': { method: 'POST', host: 'media', repeatable: false, timeoutMs: 600_000 },
};
