/**
 * The `/scout` slash command: answered in its acknowledgement when the line needs nothing else (help, a mistake, the
 * working message of a late request); otherwise acknowledged empty, then the person admitted, and the line opens
 * the form core says it opens (its command's own, or its secrets' private form), or runs, answered through the
 * response_url.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { App as BoltApp, Context } from '@slack/bolt';
import { arrivalOf } from './arrival.js';
import { type AckAnswer, ackAnswer, respondWith, type Source } from './deliver.js';
import { type ListenerKit, responseDeadline } from './listener-kit.js';
import { decodeSlackText } from './mrkdwn.js';
import type { Person } from './people.js';
import { commandPerson, outsideReply } from './tenancy.js';

/** What an acknowledgement carries: the final answer, or the working message of work that goes on. */
interface AtOnce {
  ack: AckAnswer;
  final: boolean;
}

/**
 * The answer of a line that needs nothing but the line (help, a mistake in it), or the working message of a
 * request already late for it, for a person Scout knows to be of a served tenant without asking anyone: sent in
 * the acknowledgement itself. Null otherwise.
 */
function answerAtOnce(kit: ListenerKit, text: string, person: Person, context: Context): AtOnce | null {
  const { chat } = kit;
  if (person.belongs.kind !== 'workspace' || !chat.tenancy.isServed(person.tenant)) return null;
  // Bolt found this workspace's installation to authorize the request (many-team mode).
  if (kit.installations !== null && context.botToken === undefined) return null;
  const answer = chat.atOnce(text, { forms: true });
  if (answer !== null) {
    const ack = ackAnswer(answer);
    return ack === null ? null : { ack, final: true };
  }
  // A request that waited this long behind others (a burst) is due its working message: the ack carries it.
  const due = chat.settings.workingNoticeMs;
  const arrived = arrivalOf(context);
  if (due === null || arrived === undefined || performance.now() - arrived < due) return null;
  const working = chat.working(text, { forms: true });
  const ack = working === null ? null : ackAnswer(working);
  return ack === null ? null : { ack, final: false };
}

/** Registers the `/scout` slash command. */
export function registerCommand(bolt: BoltApp, kit: ListenerKit): void {
  const { chat, logger, people, fresh, openFormModal, ackTimed, receivedAt, safely } = kit;
  bolt.command('/scout', async ({ command, ack, respond, client, context }) => {
    const text = decodeSlackText(command.text ?? '');
    const person = commandPerson(command, context);
    let atOnce: AtOnce | null = null;
    try {
      atOnce = answerAtOnce(kit, text, person, context);
    } catch (error) {
      logger.error({ err: error }, 'Slack command could not be answered at once');
    }
    const acked = atOnce?.ack;
    await ackTimed('command', context, () => (acked === undefined ? ack() : ack(acked)));
    if (atOnce?.final === true) return;
    const workingShown = atOnce !== null;
    // The acknowledgements of requests that arrived together go out before the work of any of them.
    await nextTurn();
    await safely('command', respond, async () => {
      if (!(await people.admits(client, person))) {
        await respondWith(respond, outsideReply(), fresh);
        return;
      }
      // The trigger_id lasts 3 seconds; users.info, asked only of a command for admins, is asked at most every 10
      // minutes per person, so the check fits.
      const opened = await chat.forms.open(
        { line: text, actor: () => people.actorOf(client, person) },
        { platform: 'slack', workspaceId: person.tenant.workspaceId, userId: person.userId },
      );
      if (opened?.status === 'refused') {
        await respondWith(respond, opened.reply, fresh);
        return;
      }
      if (opened !== null) {
        await openFormModal(client, respond, command.trigger_id, opened, {
          channelId: command.channel_id,
          responseUrl: command.response_url,
        });
        return;
      }
      const actor = await people.actorOf(client, person);
      const source: Source = { message: false, ephemeral: false };
      const answer = await chat.text({
        actor,
        channelId: command.channel_id,
        text,
        progress: (interim) => respondWith(respond, interim, source),
        deadline: responseDeadline(),
        ...receivedAt(context),
        workingShown,
        forms: true,
      });
      await respondWith(respond, answer, source, { client, channelId: command.channel_id });
    });
  });
}
