/**
 * Whether a signed request body has the shape of what Slack sends, before Bolt sees it. Bolt routes a body with
 * its getTypeAndConversation, used here as it is, and then reads fields without checking them: a body of `null`,
 * an `event` of `null` or a `user` of `5` throws inside Bolt, where the request is either never answered or answered
 * 500, and a listener that acknowledged a body would fail on it afterwards. So a body Bolt cannot route, or
 * routes but whose fields that Bolt or Scout's listeners read are missing or mistyped, is answered 400 instead;
 * fields nobody reads are left alone, so new ones Slack adds pass.
 * https://docs.slack.dev/interactivity/handling-user-interaction/#payloads
 */
import type {
  BlockAction,
  EnvelopedEvent,
  SlashCommand,
  ViewClosedAction,
  ViewSubmitAction,
} from '@slack/bolt';
import { z } from 'zod';
import { getTypeAndConversation, IncomingEventType } from './bolt.js';

/** Fields of Bolt's own type of a request, each with its schema: a field Bolt's type does not declare fails to compile. */
type FieldsOf<T> = { [K in keyof T as string extends K ? never : K]?: z.ZodType };

const text = z.string();
const optionalText = z.string().optional();

// Slack's response_url is an absolute https URL; the tests' fake Slack answers on http.
const responseUrl = z.string().refine((value) => {
  try {
    const { protocol } = new URL(value);
    return protocol === 'https:' || protocol === 'http:';
  } catch {
    return false;
  }
}, 'expected an http(s) URL');

const withId = z.looseObject({ id: text });
// Bolt reads `team.id` when a team is given, else `user.team_id`: null is what an org-wide install sends.
const team = z.looseObject({ id: text, enterprise_id: optionalText }).nullable().optional();
const enterprise = withId.nullable().optional();
const user = z.looseObject({ id: text, name: optionalText, username: optionalText, team_id: optionalText });
const channel = withId.optional();
const responseUrls = z.array(z.looseObject({ response_url: responseUrl })).optional();

/** The fields Bolt reads from every interaction (element press, options request, shortcut, modal). */
const interaction = {
  user,
  team,
  enterprise,
  channel,
  response_url: responseUrl.optional(),
  response_urls: responseUrls,
  is_enterprise_install: z.boolean().optional(),
} satisfies FieldsOf<BlockAction> & FieldsOf<ViewSubmitAction>;

/** An options request or a shortcut: only the interaction fields are read. */
const anyInteraction = z.looseObject(interaction);

const selectedOption = z.looseObject({ value: text });

/**
 * A slash command: form fields, each a single string (a repeated field would arrive as an array). In an org-wide
 * install Slack adds `user_team`, the person's own workspace, which Bolt's type does not declare.
 */
const slashCommand = z.looseObject({
  command: text,
  text,
  user_id: text,
  team_id: text,
  channel_id: text,
  response_url: responseUrl,
  trigger_id: text,
  user_name: optionalText,
  user_team: optionalText,
  enterprise_id: optionalText,
  is_enterprise_install: optionalText,
} satisfies FieldsOf<SlashCommand & { user_team?: string }>);

const element = z.looseObject({
  action_id: text,
  block_id: optionalText,
  value: optionalText,
  selected_option: selectedOption.nullable().optional(),
});

const blockActions = z.looseObject({
  ...interaction,
  actions: z.array(element).min(1),
  container: z.looseObject({ channel_id: optionalText, is_ephemeral: z.boolean().optional() }),
  trigger_id: text,
  message: z.looseObject({}).optional(),
  view: z.looseObject({ type: optionalText, app_installed_team_id: optionalText }).optional(),
} satisfies FieldsOf<BlockAction>);

// Other bodies with `actions` (legacy attachments, dialogs): Bolt takes the first action as the payload and
// matches listeners on its `action_id` and `block_id`.
const otherActions = z.looseObject({
  ...interaction,
  type: text,
  actions: z.array(z.looseObject({ action_id: optionalText, block_id: optionalText })).optional(),
});

const stateValue = z.looseObject({
  type: optionalText,
  value: text.nullable().optional(),
  selected_option: selectedOption.nullable().optional(),
  selected_options: z.array(selectedOption).optional(),
});
const state = z.looseObject({ values: z.record(text, z.record(text, stateValue)) });

const viewSubmission = z.looseObject({
  ...interaction,
  view: z.looseObject({
    callback_id: text,
    private_metadata: text,
    type: optionalText,
    app_installed_team_id: optionalText,
    state,
  } satisfies FieldsOf<ViewSubmitAction['view']>),
} satisfies FieldsOf<ViewSubmitAction>);

const viewClosed = z.looseObject({
  ...interaction,
  view: z.looseObject({
    callback_id: text,
    private_metadata: optionalText,
    app_installed_team_id: optionalText,
    state: state.optional(),
  } satisfies FieldsOf<ViewClosedAction['view']>),
} satisfies FieldsOf<ViewClosedAction>);

/** An Events API callback: what Bolt reads of every event, and what Scout's event listeners read. */
const eventCallback = z.looseObject({
  team_id: optionalText,
  enterprise_id: text.nullable().optional(),
  // Bolt reads the first authorization's team, enterprise and install kind.
  authorizations: z
    .array(
      z.looseObject({
        team_id: text.nullable().optional(),
        enterprise_id: text.nullable().optional(),
        is_enterprise_install: z.boolean().optional(),
      }),
    )
    .optional(),
  event: z.looseObject({
    type: text,
    user: z.union([text, withId]).optional(),
    channel: z.union([text, z.looseObject({})]).optional(),
    item: z.looseObject({}).optional(),
    subteam: z.looseObject({}).optional(),
    tab: optionalText,
    tokens: z.looseObject({ bot: z.array(text).optional() }).optional(),
  }),
} satisfies FieldsOf<EnvelopedEvent>);

/** Events Scout listens to, whose fields must be there. */
const scoutEvents = new Map<string, z.ZodType>([
  ['app_home_opened', z.looseObject({ event: z.looseObject({ user: text, tab: text }) })],
  ['tokens_revoked', z.looseObject({ event: z.looseObject({ tokens: z.looseObject({}) }) })],
]);

const record = z.record(z.string(), z.unknown());
const describeIssue = (kind: string, error: z.ZodError): string => {
  const [issue] = error.issues;
  const where = issue === undefined || issue.path.length === 0 ? '' : `${issue.path.join('.')}: `;
  return `${kind}: ${where}${issue?.message ?? 'malformed'}`;
};

/** A kind of request and the schema its body must match. */
type Kind = readonly [kind: string, schema: z.ZodType];

/** The kinds a body must match, by the kind of request Bolt routes it to; null when Bolt routes it nowhere. */
function kindsOf(body: Record<string, unknown>, routed: IncomingEventType | undefined): Kind[] | null {
  switch (routed) {
    case IncomingEventType.Event: {
      const eventType = (body.event as { type?: unknown }).type;
      const specific = typeof eventType === 'string' ? scoutEvents.get(eventType) : undefined;
      const kinds: Kind[] = [['event callback', eventCallback]];
      if (specific !== undefined) kinds.push([`${String(eventType)} event`, specific]);
      return kinds;
    }
    case IncomingEventType.Command:
      return [['slash command', slashCommand]];
    case IncomingEventType.Options:
    case IncomingEventType.Shortcut:
      return [['options request or shortcut', anyInteraction]];
    case IncomingEventType.Action:
      return body.type === 'block_actions' ? [['block actions', blockActions]] : [['action', otherActions]];
    case IncomingEventType.ViewAction:
      return body.type === 'view_submission'
        ? [['view submission', viewSubmission]]
        : [['view closed', viewClosed]];
    default:
      return null;
  }
}

/** The `type`s of bodies Bolt routes on another field (`event`, `actions`): without it, Bolt routes them nowhere. */
const ROUTED_ELSEWHERE = new Map([
  ['event_callback', 'event callback: event: missing'],
  ['block_actions', 'block actions: actions: missing'],
]);

/** How Bolt routes a body; what it throws on (a body of the wrong shape) is returned as the problem. */
function routeOf(
  body: Record<string, unknown>,
): { routed: IncomingEventType | undefined } | { problem: string } {
  try {
    return { routed: getTypeAndConversation(body).type };
  } catch (error) {
    return { problem: `Bolt cannot route it (${(error as Error).message})` };
  }
}

/**
 * What is wrong with a parsed request body, or null when Bolt may have it. Anything that is not an object is
 * wrong; so is an object Bolt cannot route or would route but whose read fields are missing or mistyped, and an
 * object with no kind at all. `ssl_check`, `url_verification` and bodies of a `type` Bolt does not route go to
 * Bolt, which answers them.
 */
export function requestBodyProblem(body: unknown): string | null {
  const top = record.safeParse(body);
  if (!top.success || Array.isArray(body)) return 'the body is not an object';
  const fields = top.data;
  if (fields.ssl_check === '1' || fields.type === 'url_verification') return null;
  if (fields.type !== undefined && typeof fields.type !== 'string') return 'type: expected a string';
  const route = routeOf(fields);
  if ('problem' in route) return route.problem;
  const kinds = kindsOf(fields, route.routed);
  if (kinds === null) {
    if (typeof fields.type !== 'string') return 'the body is none of the requests Slack sends';
    return ROUTED_ELSEWHERE.get(fields.type) ?? null;
  }
  for (const [kind, schema] of kinds) {
    const parsed = schema.safeParse(fields);
    if (!parsed.success) return describeIssue(kind, parsed.error);
  }
  return null;
}
