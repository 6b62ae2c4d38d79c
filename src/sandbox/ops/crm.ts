/**
 * CRM operations (shape B errors): lists and contacts of the key's team. Free, but they need an active
 * subscription (403 otherwise). Validation failures answer 422, unknown lists and contacts 404.
 */
import { CRM_STATUSES } from '../../core/service/enums.js';
import type { CreatorProfile, CrmContactRecord, CrmListRecord } from '../data/records.js';
import { newContact, type TeamState, uuidFrom } from '../data/teams.js';
import type { World } from '../data/world.js';
import { SandboxHttpError } from '../server/http.js';
import { canonical, createBodyReader, createQueryReader } from '../server/input.js';
import type { Operation, OperationContext, OperationResult } from '../server/router.js';
import { isoLocal } from '../time.js';

/** Most ids one add (and one membership check) takes. */
export const MAX_LIST_IDS = 500;

const invalid = (message: string) => new SandboxHttpError(422, message);

function ok(response: unknown): OperationResult {
  return { body: { message: 'OK', response } };
}

function listView(team: TeamState, list: CrmListRecord) {
  const contacts = team.contacts.filter((c) => c.list_id === list.id && c.active);
  return {
    ...list,
    contact_count: contacts.length,
    to_outreach_count: contacts.filter((c) => c.status === 'TO_OUTREACH').length,
  };
}

function contactView(world: World, contact: CrmContactRecord) {
  const creator = world.creator(contact.user_id);
  return {
    ...contact,
    influencer: creator
      ? {
          user_id: creator.user_id,
          handle: creator.handle,
          nickname: creator.nickname,
          source: creator.source,
          followers: creator.followers,
          engagement_rate: creator.engagement_rate,
          email: creator.email,
          country: creator.country,
          main_category: creator.main_category,
          avatar_url: creator.avatar_url,
        }
      : null,
  };
}

function findList(team: TeamState, listId: string): CrmListRecord {
  const list = team.lists.find((l) => l.id === listId && l.active);
  if (!list) throw new SandboxHttpError(404, `List ${listId} not found`);
  return list;
}

function readStatus(value: unknown, name = 'status'): string | undefined {
  if (value === undefined || value === null) return undefined;
  const status = typeof value === 'string' ? canonical(CRM_STATUSES, value) : undefined;
  if (!status) throw invalid(`${name} must be one of ${CRM_STATUSES.join(', ')}`);
  return status;
}

/** Reads `userIds` (strings or integers, 1..500) of an add or a check. */
function readUserIds(body: Record<string, unknown>): (string | number)[] {
  const ids = body.userIds;
  if (!Array.isArray(ids)) throw invalid('userIds is required: an array of creator ids');
  if (ids.length < 1 || ids.length > MAX_LIST_IDS) {
    throw invalid(`userIds must hold between 1 and ${MAX_LIST_IDS} ids, got ${ids.length}`);
  }
  for (const id of ids) {
    if (typeof id !== 'string' && !(typeof id === 'number' && Number.isSafeInteger(id) && id >= 0)) {
      throw invalid('userIds entries must be strings or non-negative integers');
    }
  }
  return ids as (string | number)[];
}

/** The CRM operations. */
export function crmOperations(): Operation[] {
  let bySuffix: Map<string, CreatorProfile> | undefined;
  // Integer ids name the numeric part of `<platform>_<digits>` ids.
  const resolve = (world: World, id: string | number): CreatorProfile | undefined => {
    if (typeof id === 'string') return world.creator(id.trim());
    bySuffix ??= new Map(
      world.creators().flatMap((c) => {
        const digits = /_(\d+)$/.exec(c.user_id)?.[1];
        return digits ? [[digits, c] as const] : [];
      }),
    );
    return bySuffix.get(String(id));
  };
  const guarded =
    (handle: (context: OperationContext, team: TeamState) => OperationResult) =>
    (context: OperationContext): OperationResult => {
      if (!context.account.subscriptionActive) {
        throw new SandboxHttpError(403, 'CRM operations need an active subscription');
      }
      return handle(context, context.team());
    };

  return [
    {
      method: 'GET',
      pattern: '/api/v2/crm/lists',
      family: 'B',
      handle: guarded(({ query }, team) => {
        createQueryReader(query, 422).rejectUnknown([]);
        const data = team.lists.filter((l) => l.active).map((l) => listView(team, l));
        return ok({ data, total: data.length });
      }),
    },
    {
      method: 'POST',
      pattern: '/api/v2/crm/lists',
      family: 'B',
      handle: guarded((context, team) => {
        const body = createBodyReader(context.body(), 422);
        body.rejectUnknown(['name', 'websiteId', 'description', 'budget']);
        const name = body.string('name')?.trim();
        if (!name) throw invalid('name is required: a non-empty string');
        const stamp = isoLocal(context.now);
        const list: CrmListRecord = {
          id: uuidFrom(team.random),
          name,
          website_id: body.string('websiteId') ?? '',
          description: body.string('description') ?? '',
          budget: body.number('budget', { min: 0 }) ?? 0,
          start_date: null,
          end_date: null,
          team_id: team.teamId,
          active: true,
          date_created: stamp,
          date_updated: stamp,
        };
        team.lists.push(list);
        return ok(listView(team, list));
      }),
    },
    {
      method: 'GET',
      pattern: '/api/v2/crm/lists/:list_id',
      family: 'B',
      handle: guarded(({ params }, team) => ok(listView(team, findList(team, params.list_id ?? '')))),
    },
    {
      method: 'PATCH',
      pattern: '/api/v2/crm/lists/:list_id',
      family: 'B',
      handle: guarded((context, team) => {
        const list = findList(team, context.params.list_id ?? '');
        const body = createBodyReader(context.body(), 422);
        body.rejectUnknown(['name', 'description']);
        const name = body.string('name');
        const description = body.string('description');
        if (name === undefined && description === undefined) throw invalid('Send name and/or description');
        if (name !== undefined && name.trim() === '') throw invalid('name must not be empty');
        if (name !== undefined) list.name = name.trim();
        if (description !== undefined) list.description = description;
        list.date_updated = isoLocal(context.now);
        return ok(listView(team, list));
      }),
    },
    {
      method: 'GET',
      pattern: '/api/v2/crm/lists/:list_id/creators',
      family: 'B',
      handle: guarded(({ params, query, world }, team) => {
        const list = findList(team, params.list_id ?? '');
        const reader = createQueryReader(query, 422);
        reader.rejectUnknown(['page', 'per_page', 'limit', 'status']);
        const page = reader.integer('page', { min: 1 }) ?? 1;
        const perPage =
          reader.integer('per_page', { min: 1, max: 500 }) ??
          reader.integer('limit', { min: 1, max: 500 }) ??
          100;
        const status = readStatus(reader.string('status'));
        const contacts = team.contacts.filter(
          (c) => c.list_id === list.id && c.active && (status === undefined || c.status === status),
        );
        const totalPages = Math.ceil(contacts.length / perPage);
        return ok({
          data: contacts.slice((page - 1) * perPage, page * perPage).map((c) => contactView(world, c)),
          page,
          per_page: perPage,
          next_page: page < totalPages ? page + 1 : 0,
          total_pages: totalPages,
          total: contacts.length,
        });
      }),
    },
    {
      method: 'POST',
      pattern: '/api/v2/crm/lists/:list_id/creators',
      family: 'B',
      handle: guarded((context, team) => addCreators(context, team, resolve)),
    },
    {
      method: 'POST',
      pattern: '/api/v2/crm/lists/:list_id/creators/check',
      family: 'B',
      handle: guarded((context, team) => {
        const list = findList(team, context.params.list_id ?? '');
        const body = createBodyReader(context.body(), 422);
        body.rejectUnknown(['userIds']);
        const ids = readUserIds(body.raw);
        const data = ids.map((raw) => {
          const userId = resolve(context.world, raw)?.user_id ?? String(raw);
          const contact = team.contacts.find(
            (c) => c.list_id === list.id && c.user_id === userId && c.active,
          );
          return {
            user_id: userId,
            exists: contact !== undefined,
            contact_id: contact?.id ?? null,
            status: contact?.status ?? null,
            date_added: contact?.date_created ?? null,
            date_updated: contact?.date_updated ?? null,
          };
        });
        return ok({ data, total: data.length });
      }),
    },
    {
      method: 'DELETE',
      pattern: '/api/v2/crm/lists/:list_id/creators/:user_id',
      family: 'B',
      handle: guarded(({ params, now }, team) => {
        const list = findList(team, params.list_id ?? '');
        const userId = params.user_id ?? '';
        const contact = team.contacts.find((c) => c.list_id === list.id && c.user_id === userId && c.active);
        if (!contact) throw new SandboxHttpError(404, `Creator ${userId} is not in list ${list.id}`);
        contact.active = false;
        contact.date_updated = isoLocal(now);
        return ok({ list_id: list.id, user_id: userId, removed: true });
      }),
    },
    {
      method: 'PATCH',
      pattern: '/api/v2/crm/contacts/:contact_id',
      family: 'B',
      handle: guarded((context, team) => updateContact(context, team)),
    },
  ];
}

const SINGLE_ONLY = ['contactEmail', 'proposedRate', 'instagramHandle', 'tiktokHandle'] as const;

function addCreators(
  context: OperationContext,
  team: TeamState,
  resolve: (world: World, id: string | number) => CreatorProfile | undefined,
): OperationResult {
  const list = findList(team, context.params.list_id ?? '');
  const body = createBodyReader(context.body(), 422);
  body.rejectUnknown(['userIds', 'status', 'notes', ...SINGLE_ONLY]);
  const ids = readUserIds(body.raw);
  const status = readStatus(body.raw.status) ?? 'TO_OUTREACH';
  const notes = body.string('notes');
  for (const name of SINGLE_ONLY) {
    if (body.raw[name] !== undefined && body.raw[name] !== null && ids.length !== 1) {
      throw invalid(`${name} is only allowed when userIds holds exactly one creator`);
    }
  }
  const contactEmail = body.string('contactEmail');
  const proposedRate = body.number('proposedRate', { min: 0 });
  const instagramHandle = body.string('instagramHandle');
  const tiktokHandle = body.string('tiktokHandle');

  const stamp = isoLocal(context.now);
  const seen = new Set<string>();
  const added: CrmContactRecord[] = [];
  let created = 0;
  let reactivated = 0;
  let duplicates = 0;
  let invalidIds = 0;
  for (const id of ids) {
    const creator = resolve(context.world, id);
    if (!creator) {
      invalidIds++;
      continue;
    }
    const existing = team.contacts.find((c) => c.list_id === list.id && c.user_id === creator.user_id);
    if (seen.has(creator.user_id) || existing?.active) {
      duplicates++;
      continue;
    }
    seen.add(creator.user_id);
    let contact: CrmContactRecord;
    if (existing) {
      existing.active = true;
      existing.status = status;
      existing.date_updated = stamp;
      contact = existing;
      reactivated++;
    } else {
      contact = newContact(team.random, list.id, creator, status, context.now);
      team.contacts.push(contact);
      created++;
    }
    if (notes !== undefined) contact.notes = notes;
    if (contactEmail !== undefined) contact.contact_email = contactEmail;
    if (proposedRate !== undefined) contact.proposed_rate = proposedRate;
    if (instagramHandle !== undefined) contact.instagram_handle = instagramHandle.replace(/^@/, '');
    if (tiktokHandle !== undefined) contact.tiktok_handle = tiktokHandle.replace(/^@/, '');
    added.push(contact);
  }
  list.date_updated = stamp;
  return ok({
    data: added.map((c) => contactView(context.world, c)),
    requested_count: ids.length,
    // Processed: every id that named a real creator (duplicates included), as opposed to skipped invalid ones.
    processed_count: ids.length - invalidIds,
    added_count: created + reactivated,
    created_count: created,
    reactivated_count: reactivated,
    skipped_duplicate_count: duplicates,
    skipped_invalid_count: invalidIds,
  });
}

function updateContact(context: OperationContext, team: TeamState): OperationResult {
  const contactId = context.params.contact_id ?? '';
  const contact = team.contacts.find((c) => c.id === contactId && c.active);
  if (!contact || !team.lists.some((l) => l.id === contact.list_id && l.active)) {
    throw new SandboxHttpError(404, `Contact ${contactId} not found`);
  }
  const body = createBodyReader(context.body(), 422);
  const fields = [
    'status',
    'notes',
    'contactEmail',
    'proposedRate',
    'agreedRate',
    'contentDeliverables',
    'instagramHandle',
    'tiktokHandle',
    'firstContactDate',
    'lastContactDate',
    'responseDate',
  ];
  body.rejectUnknown(fields);
  if (!fields.some((f) => body.raw[f] !== undefined))
    throw invalid(`Send at least one of ${fields.join(', ')}`);
  const status = readStatus(body.raw.status);
  const stamp = isoLocal(context.now);
  if (status !== undefined && status !== contact.status) {
    contact.status = status;
    // Moving along the pipeline stamps the dates a CRM user would otherwise fill in by hand.
    if (status !== 'TO_OUTREACH') {
      contact.first_contact_date ??= stamp;
      contact.last_contact_date = stamp;
    }
    if (['NEGOTIATING', 'WORKING', 'DONE'].includes(status)) contact.response_date ??= stamp;
  }
  const set = <K extends keyof CrmContactRecord>(field: K, value: CrmContactRecord[K] | undefined): void => {
    if (value !== undefined) contact[field] = value;
  };
  set('notes', body.string('notes'));
  set('contact_email', body.string('contactEmail'));
  set('proposed_rate', body.number('proposedRate', { min: 0 }));
  set('agreed_rate', body.number('agreedRate', { min: 0 }));
  set('content_deliverables', body.string('contentDeliverables'));
  set('instagram_handle', body.string('instagramHandle')?.replace(/^@/, ''));
  set('tiktok_handle', body.string('tiktokHandle')?.replace(/^@/, ''));
  set('first_contact_date', body.string('firstContactDate'));
  set('last_contact_date', body.string('lastContactDate'));
  set('response_date', body.string('responseDate'));
  contact.date_updated = stamp;
  return ok(contactView(context.world, contact));
}
