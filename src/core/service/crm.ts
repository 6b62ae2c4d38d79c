/** Outreach CRM (v2): lists of the key owner's team, and the creators (contacts) inside them. */

import { z } from 'zod';
import { CRM_STATUSES } from './enums.js';
import { encodeQuery, segment } from './http.js';
import { choice, decimal, email, idList, idValue, text, wholeNumber } from './input-kit.js';
import { bool, id, num, record, snakePage, snakePageNumbers, str, toPage, unwrap } from './response-kit.js';
import { bindOperation, type Operation, type OperationContext, runOperation } from './runner.js';
import type { CallOptions, Page, ServiceResult } from './types.js';

const status = () => choice(CRM_STATUSES);
const listId = () => text();

/** Input of create list: the list name and optional details. */
export const crmCreateListInput = z.strictObject({
  name: text(),
  websiteId: text().optional(),
  description: z.string().optional(),
  budget: decimal(0).optional(),
});

/** Input of get list. */
export const crmGetListInput = z.strictObject({ listId: listId() });

/** Input of update list: at least one of `name` and `description`. */
export const crmUpdateListInput = z
  .strictObject({ listId: listId(), name: text().optional(), description: z.string().optional() })
  .refine((value) => value.name !== undefined || value.description !== undefined, {
    message: 'needs name or description to change',
    path: ['name'],
  });

/** Input of list creators: page size as `perPage`, `per_page` or `limit` (1 to 500), sent as `per_page`. */
export const crmListCreatorsInput = z
  .strictObject({
    listId: listId(),
    page: wholeNumber(1).optional(),
    perPage: wholeNumber(1, 500).optional(),
    per_page: wholeNumber(1, 500).optional(),
    limit: wholeNumber(1, 500).optional(),
    status: status().optional(),
  })
  .superRefine((value, ctx) => {
    const given = (['perPage', 'per_page', 'limit'] as const).filter((key) => value[key] !== undefined);
    if (given.length > 1) {
      ctx.addIssue({
        code: 'custom',
        path: [given[1] ?? 'limit'],
        message: `cannot be given together with ${given[0]}`,
      });
    }
  })
  .transform(({ perPage, per_page, limit, ...rest }) => ({ ...rest, perPage: perPage ?? per_page ?? limit }));

const SINGLE_CREATOR_FIELDS = ['contactEmail', 'proposedRate', 'instagramHandle', 'tiktokHandle'] as const;

/** Input of add creators: 1 to 500 ids; the contact and deal fields only with exactly one id. */
export const crmAddCreatorsInput = z
  .strictObject({
    listId: listId(),
    userIds: idList(1, 500),
    status: status().optional(),
    notes: z.string().optional(),
    contactEmail: email().optional(),
    proposedRate: decimal(0).optional(),
    instagramHandle: text().optional(),
    tiktokHandle: text().optional(),
  })
  .superRefine((value, ctx) => {
    if (value.userIds.length === 1) return;
    for (const field of SINGLE_CREATOR_FIELDS) {
      if (value[field] !== undefined) {
        ctx.addIssue({
          code: 'custom',
          path: [field],
          message: 'is allowed only when userIds holds exactly one id',
        });
      }
    }
  });

/** Input of check membership. */
export const crmCheckCreatorsInput = z.strictObject({ listId: listId(), userIds: idList(1) });

/** Input of remove creator: the list and the creator id. */
export const crmRemoveCreatorInput = z.strictObject({ listId: listId(), userId: idValue() });

/** Contact and deal fields of update contact besides `status`, in the add operation's camelCase. */
const CONTACT_FIELDS = [
  'notes',
  'contactEmail',
  'proposedRate',
  'agreedRate',
  'contentDeliverables',
  'instagramHandle',
  'tiktokHandle',
] as const;

/**
 * Input of update contact: `status`, `notes` and `contactEmail` are the contract's known fields; the deal fields
 * follow the contact's own fields (`proposed_rate`, `agreed_rate`, `content_deliverables`). At least one is needed.
 */
export const crmUpdateContactInput = z
  .strictObject({
    contactId: text(),
    status: status().optional(),
    notes: z.string().optional(),
    contactEmail: email().optional(),
    proposedRate: decimal(0).optional(),
    agreedRate: decimal(0).optional(),
    contentDeliverables: z.string().optional(),
    instagramHandle: text().optional(),
    tiktokHandle: text().optional(),
  })
  .refine((v) => v.status !== undefined || CONTACT_FIELDS.some((field) => v[field] !== undefined), {
    message: `needs something to change: status or one of ${CONTACT_FIELDS.join(', ')}`,
    path: ['status'],
  });

/** A CRM list; unknown fields are kept. */
export const crmListSchema = z.looseObject({
  id,
  name: str,
  website_id: str,
  description: str,
  budget: num,
  start_date: str,
  end_date: str,
  team_id: str,
  active: bool,
  contact_count: num,
  to_outreach_count: num,
  date_created: str,
  date_updated: str,
});

/** A CRM contact (a creator inside a list); unknown fields are kept. */
export const crmContactSchema = z.looseObject({
  id,
  list_id: str,
  user_id: str,
  status: str,
  contact_email: str,
  handle: str,
  first_contact_date: str,
  last_contact_date: str,
  response_date: str,
  proposed_rate: num,
  agreed_rate: num,
  content_deliverables: str,
  notes: str,
  active: bool,
  date_created: str,
  date_updated: str,
  influencer: record,
});

/** A membership check entry. */
export const crmMembershipSchema = z.looseObject({
  user_id: id,
  exists: z.preprocess((v: unknown) => (v === 'true' ? true : v === 'false' ? false : v), z.boolean()),
  contact_id: str,
  status: str,
  date_added: str,
  date_updated: str,
});

/** A CRM list. */
export type CrmList = z.output<typeof crmListSchema>;
/** A CRM contact. */
export type CrmContact = z.output<typeof crmContactSchema>;
/** A membership check entry. */
export type CrmMembership = z.output<typeof crmMembershipSchema>;

/** The team's active lists. */
export interface CrmLists {
  lists: CrmList[];
  total: number | null;
}

const addBody = z.looseObject({
  data: z.array(crmContactSchema),
  requested_count: num,
  processed_count: num,
  added_count: num,
  created_count: num,
  reactivated_count: num,
  skipped_duplicate_count: num,
  skipped_invalid_count: num,
});

/** What add creators did: the contacts and the service's counters (null when not reported). */
export interface CrmAddResult {
  contacts: CrmContact[];
  requested_count: number | null;
  processed_count: number | null;
  added_count: number | null;
  created_count: number | null;
  reactivated_count: number | null;
  skipped_duplicate_count: number | null;
  skipped_invalid_count: number | null;
}

/** Membership of each id checked. */
export interface CrmCheckResult {
  entries: CrmMembership[];
  total: number | null;
}

const removeBody = z.looseObject({ list_id: str, user_id: str, removed: bool });

/** The outcome of a soft removal. */
export interface CrmRemoveResult {
  list_id: string | null;
  user_id: string | null;
  removed: boolean;
}

const listsBody = z.looseObject({ data: z.array(crmListSchema), total: num });
const contactsBody = z.looseObject({ ...snakePage, data: z.array(crmContactSchema) });
const checkBody = z.looseObject({ data: z.array(crmMembershipSchema), total: num });
const noInput = z.strictObject({});

/** The CRM operations. */
export interface CrmApi {
  /** The team's active lists with creator counts. */
  listLists(options?: CallOptions): Promise<ServiceResult<CrmLists>>;
  createList: Operation<typeof crmCreateListInput, CrmList>;
  getList: Operation<typeof crmGetListInput, CrmList>;
  updateList: Operation<typeof crmUpdateListInput, CrmList>;
  listCreators: Operation<typeof crmListCreatorsInput, Page<CrmContact>>;
  addCreators: Operation<typeof crmAddCreatorsInput, CrmAddResult>;
  checkCreators: Operation<typeof crmCheckCreatorsInput, CrmCheckResult>;
  removeCreator: Operation<typeof crmRemoveCreatorInput, CrmRemoveResult>;
  updateContact: Operation<typeof crmUpdateContactInput, CrmContact>;
}

const listPath = (listId: string) => `/api/v2/crm/lists/${segment(listId)}`;
const decodeList = (body: unknown) => crmListSchema.parse(unwrap(body));
const definedOnly = (value: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined));

/** Creates the CRM operations. */
export function createCrmApi(context: OperationContext): CrmApi {
  return {
    listLists: (options) =>
      runOperation(
        context,
        {
          operation: 'crm.listLists',
          input: noInput,
          request: () => ({ path: '/api/v2/crm/lists' }),
          decode: (body) => {
            const r = listsBody.parse(unwrap(body));
            return { lists: r.data, total: r.total ?? null };
          },
        },
        {},
        options,
      ),
    createList: bindOperation(context, {
      operation: 'crm.createList',
      input: crmCreateListInput,
      request: (input) => ({ path: '/api/v2/crm/lists', body: definedOnly(input) }),
      decode: decodeList,
    }),
    getList: bindOperation(context, {
      operation: 'crm.getList',
      input: crmGetListInput,
      request: (input) => ({ path: listPath(input.listId) }),
      decode: decodeList,
    }),
    updateList: bindOperation(context, {
      operation: 'crm.updateList',
      input: crmUpdateListInput,
      request: ({ listId: target, ...fields }) => ({ path: listPath(target), body: definedOnly(fields) }),
      decode: decodeList,
    }),
    listCreators: bindOperation(context, {
      operation: 'crm.listCreators',
      input: crmListCreatorsInput,
      request: (input) => ({
        path: `${listPath(input.listId)}/creators`,
        query: encodeQuery({ page: input.page, per_page: input.perPage, status: input.status }),
      }),
      decode: (body, input) => {
        const r = contactsBody.parse(unwrap(body));
        return toPage(r.data, snakePageNumbers(r), input.page);
      },
    }),
    addCreators: bindOperation(context, {
      operation: 'crm.addCreators',
      input: crmAddCreatorsInput,
      request: ({ listId: target, ...fields }) => ({
        path: `${listPath(target)}/creators`,
        body: definedOnly(fields),
      }),
      decode: (body) => {
        const { data, ...counts } = addBody.parse(unwrap(body));
        return {
          contacts: data,
          requested_count: counts.requested_count ?? null,
          processed_count: counts.processed_count ?? null,
          added_count: counts.added_count ?? null,
          created_count: counts.created_count ?? null,
          reactivated_count: counts.reactivated_count ?? null,
          skipped_duplicate_count: counts.skipped_duplicate_count ?? null,
          skipped_invalid_count: counts.skipped_invalid_count ?? null,
        };
      },
    }),
    checkCreators: bindOperation(context, {
      operation: 'crm.checkCreators',
      input: crmCheckCreatorsInput,
      request: (input) => ({
        path: `${listPath(input.listId)}/creators/check`,
        body: { userIds: input.userIds },
      }),
      decode: (body) => {
        const r = checkBody.parse(unwrap(body));
        return { entries: r.data, total: r.total ?? null };
      },
    }),
    removeCreator: bindOperation(context, {
      operation: 'crm.removeCreator',
      input: crmRemoveCreatorInput,
      request: (input) => ({ path: `${listPath(input.listId)}/creators/${segment(input.userId)}` }),
      decode: (body, input) => {
        const r = removeBody.parse(unwrap(body));
        // A success answer without the flag still means the soft removal happened.
        return {
          list_id: r.list_id ?? input.listId,
          user_id: r.user_id ?? input.userId,
          removed: r.removed ?? true,
        };
      },
    }),
    updateContact: bindOperation(context, {
      operation: 'crm.updateContact',
      input: crmUpdateContactInput,
      request: ({ contactId, ...fields }) => ({
        path: `/api/v2/crm/contacts/${segment(contactId)}`,
        body: definedOnly(fields),
      }),
      decode: (body) => crmContactSchema.parse(unwrap(body)),
    }),
  };
}
