/**
 * What Slack sends an app, built for tests: the signature headers, a slash command's form, and block_actions and
 * view_submission payloads, for a workspace install or, with `enterpriseId` and `orgWide`, an Enterprise Grid
 * org-wide install (where a person of another organisation in a shared channel names their own team).
 */
import { createHmac, randomUUID } from 'node:crypto';

/** Headers of a request signed like Slack's (v0 HMAC-SHA256 over `v0:ts:body`). */
export function signedHeaders(
  secret: string,
  body: string,
  options: { timestamp?: number; contentType?: string } = {},
): Record<string, string> {
  const timestamp = options.timestamp ?? Math.floor(Date.now() / 1000);
  const signature = `v0=${createHmac('sha256', secret).update(`v0:${timestamp}:${body}`).digest('hex')}`;
  return {
    'X-Slack-Signature': signature,
    'X-Slack-Request-Timestamp': String(timestamp),
    // Bolt treats a body as a form only for exactly this content type.
    'Content-Type': options.contentType ?? 'application/x-www-form-urlencoded',
  };
}

/** The install a request came through, and the person's own team when it differs from the channel's. */
export interface Origin {
  /** The person's own workspace when it differs (a Slack Connect channel shared with another organisation). */
  userTeamId?: string;
  /** The Enterprise Grid org of the workspace the request came from. */
  enterpriseId?: string;
  /** The request came through an org-wide install of `enterpriseId`. */
  orgWide?: boolean;
}

/** The form body of a slash command. */
export function slashCommandBody(
  fields: {
    text: string;
    responseUrl: string;
    userId?: string;
    teamId?: string;
    channelId?: string;
  } & Origin,
): Record<string, string> {
  return {
    token: 'legacy',
    command: '/scout',
    text: fields.text,
    response_url: fields.responseUrl,
    trigger_id: `trigger.${randomUUID()}`,
    user_id: fields.userId ?? 'U0001',
    user_name: 'ana',
    team_id: fields.teamId ?? 'T0001',
    team_domain: 'acme',
    channel_id: fields.channelId ?? 'C0001',
    channel_name: 'general',
    api_app_id: 'A0001',
    // Slack adds user_team when the person's workspace differs from the one the command ran in.
    ...(fields.userTeamId === undefined ? {} : { user_team: fields.userTeamId }),
    ...(fields.enterpriseId === undefined ? {} : { enterprise_id: fields.enterpriseId }),
    ...(fields.orgWide === undefined ? {} : { is_enterprise_install: String(fields.orgWide) }),
  };
}

/** The team, enterprise and install fields of an interaction payload. */
function interactionOrigin(teamId: string, origin: Origin) {
  const enterprise = origin.enterpriseId === undefined ? {} : { enterprise_id: origin.enterpriseId };
  return {
    team: { id: teamId, domain: 'acme', ...enterprise },
    ...(origin.enterpriseId === undefined ? {} : { enterprise: { id: origin.enterpriseId, name: 'Org' } }),
    is_enterprise_install: origin.orgWide === true,
  };
}

/**
 * A block_actions payload for a press of `actionId` (with a select choice when `value` is given; a button
 * carries `buttonValue`, or its action id).
 */
export function blockActionPayload(
  fields: {
    actionId: string;
    responseUrl: string;
    value?: string;
    buttonValue?: string;
    ephemeral?: boolean;
    userId?: string;
    teamId?: string;
    channelId?: string;
  } & Origin,
): Record<string, unknown> {
  const teamId = fields.teamId ?? 'T0001';
  const channelId = fields.channelId ?? 'C0001';
  const action =
    fields.value === undefined
      ? {
          type: 'button',
          action_id: fields.actionId,
          block_id: 'b1',
          value: fields.buttonValue ?? fields.actionId,
          action_ts: '1',
        }
      : {
          type: 'static_select',
          action_id: fields.actionId,
          block_id: 'b1',
          selected_option: { text: { type: 'plain_text', text: 'x' }, value: fields.value },
          action_ts: '1',
        };
  return {
    type: 'block_actions',
    ...interactionOrigin(teamId, fields),
    user: {
      id: fields.userId ?? 'U0001',
      username: 'ana',
      name: 'ana',
      team_id: fields.userTeamId ?? teamId,
    },
    api_app_id: 'A0001',
    token: 'legacy',
    container: {
      type: 'message',
      message_ts: '1700000000.000100',
      channel_id: channelId,
      is_ephemeral: fields.ephemeral === true,
    },
    trigger_id: `trigger.${randomUUID()}`,
    channel: { id: channelId, name: 'general' },
    message: { type: 'message', ts: '1700000000.000100', text: '' },
    response_url: fields.responseUrl,
    actions: [action],
  };
}

/** A view_submission payload for a modal with `values` (block id → action id → value). */
export function viewSubmissionPayload(
  fields: {
    callbackId: string;
    privateMetadata: string;
    values: Record<string, Record<string, unknown>>;
    userId?: string;
    teamId?: string;
  } & Origin,
): Record<string, unknown> {
  const teamId = fields.teamId ?? 'T0001';
  return {
    type: 'view_submission',
    ...interactionOrigin(teamId, fields),
    user: {
      id: fields.userId ?? 'U0001',
      username: 'ana',
      name: 'ana',
      team_id: fields.userTeamId ?? teamId,
    },
    api_app_id: 'A0001',
    token: 'legacy',
    trigger_id: `trigger.${randomUUID()}`,
    view: {
      id: 'V1',
      team_id: teamId,
      type: 'modal',
      callback_id: fields.callbackId,
      private_metadata: fields.privateMetadata,
      blocks: [],
      state: { values: fields.values },
      hash: 'h',
      title: { type: 'plain_text', text: 'x' },
      app_id: 'A0001',
      bot_id: 'BBOT',
      root_view_id: 'V1',
      previous_view_id: null,
      clear_on_close: false,
      notify_on_close: false,
    },
  };
}
