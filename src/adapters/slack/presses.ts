/**
 * Block Kit presses (block_actions): acknowledged first, then the person admitted, and the press opens the typed
 * value's modal, a form's modal, or goes to the element's action, answered through the response_url (in the thread
 * of a reply in a thread).
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { BlockAction, App as BoltApp } from '@slack/bolt';
import { respondWith, type Source } from './deliver.js';
import { failed, type ListenerKit, responseDeadline } from './listener-kit.js';
import { decodeSlackText } from './mrkdwn.js';
import { interactionPerson, outsideReply } from './tenancy.js';
import { conversationOf, threadedRespond, threadOfPress } from './threads.js';
import { TYPE_PREFIX, valueModal } from './value-modal.js';

/** Registers the listener of every Block Kit press. */
export function registerPresses(bolt: BoltApp, kit: ListenerKit): void {
  const { chat, logger, people, fresh, openFormModal, ackTimed, receivedAt, safely } = kit;
  // Block Kit presses only: a legacy attachment's or a dialog's `actions` carry none of the fields read below.
  const press = { type: 'block_actions', action_id: /.+/ } as const;
  bolt.action<BlockAction>(press, async ({ ack, body, action, respond: viaUrl, client, context }) => {
    await ackTimed('action', context, () => ack());
    // A press on a reply in a thread (a DM's, a mention's): new messages go into the thread, not atop the channel.
    const threadTs = threadOfPress(body);
    const pressedIn = body.channel?.id ?? (body.container as { channel_id?: string }).channel_id ?? '';
    const respond =
      threadTs === undefined || pressedIn === ''
        ? viaUrl
        : threadedRespond(viaUrl, client, { channelId: pressedIn, threadTs, userId: body.user.id });
    await nextTurn();
    // Inputs inside our modals are read on submission, not on each change.
    if (body.view !== undefined && body.view.type === 'modal') return;
    const person = interactionPerson(body, context);
    const admitted = await people.admits(client, person).catch((error: unknown) => {
      logger.error({ err: error }, 'Slack action failed');
      return null;
    });
    if (admitted !== true) {
      const answer = admitted === false ? outsideReply() : failed();
      await safely('refusal', null, () => respondWith(respond, answer, fresh));
      return;
    }
    const element = action as {
      action_id: string;
      value?: string;
      selected_option?: { value: string } | null;
      /** A multi_static_select's choices (https://docs.slack.dev/reference/block-kit/block-elements/multi-select-menu-element). */
      selected_options?: ReadonlyArray<{ value: string }> | null;
    };
    const channelId = pressedIn;
    // The conversation of the message pressed (a DM, a DM's or a mention's thread), as its messages name it: what
    // the press answers is what a follow-up typed there acts on. None for a message atop a channel.
    const im = channelId.startsWith('D');
    const conversation =
      channelId === '' || (!im && threadTs === undefined)
        ? undefined
        : conversationOf({ channelId, threadTs, im, userId: body.user.id });
    if (element.action_id.startsWith(TYPE_PREFIX)) {
      // The trigger_id lasts 3 seconds: the modal opens before anything else (but an org's membership question).
      await safely('modal open', respond, async () => {
        const metadata = {
          token: element.action_id.slice(TYPE_PREFIX.length),
          channelId,
          responseUrl: body.response_url ?? null,
        };
        await client.views.open({
          trigger_id: body.trigger_id,
          view: valueModal(metadata, decodeSlackText(element.value ?? 'Choose')),
        });
      });
      return;
    }
    // A form button: its form opens at once; one that opens nothing (expired, another person's) is answered below.
    const presser = {
      platform: 'slack' as const,
      workspaceId: person.tenant.workspaceId,
      userId: person.userId,
    };
    let opened = false;
    await safely('form open', respond, async () => {
      const form = await chat.forms.open({ id: element.action_id }, presser);
      if (form?.status !== 'form') return;
      opened = true;
      await openFormModal(client, respond, body.trigger_id, form, {
        channelId,
        responseUrl: body.response_url ?? null,
        threadTs,
      });
    });
    if (opened) return;
    await safely('action', respond, async () => {
      const value = element.selected_option?.value;
      const choices = element.selected_options?.map((option) => decodeSlackText(option.value));
      const actor = await people.actorOf(client, person);
      const source: Source = {
        message: body.message !== undefined,
        ephemeral: (body.container as { is_ephemeral?: boolean }).is_ephemeral === true,
        choice: value !== undefined || choices !== undefined,
      };
      const answer = await chat.action({
        actor,
        channelId,
        ...(conversation === undefined ? {} : { conversation }),
        token: decodeSlackText(element.action_id),
        event: {
          ...(value === undefined ? {} : { value: decodeSlackText(value) }),
          ...(choices === undefined ? {} : { choices }),
        },
        progress: (interim) =>
          respondWith(respond, { ...interim, replace: false }, { ...source, message: false }),
        deadline: responseDeadline(),
        ...receivedAt(context),
        forms: true,
      });
      await respondWith(respond, answer, source, { client, channelId, threadTs });
    });
  });
}
