/**
 * Secret options (a service API key) on Discord. They are never command options, whose values the channel may
 * see: the command opens a private form (a modal) as its first answer, and the form's submission runs the command
 * with the options given plus the secrets, answered ephemerally. Core keeps the form (ChatCore.forms.secrets): the
 * modal carries only its id.
 */
import { type ChatInputCommandInteraction, MessageFlags, type ModalSubmitInteraction } from 'discord.js';
import type { Actor, ChatCore, SecretPrompt } from '../../core/chat/index.js';
import { answerPrivately } from './answer.js';
import { modalValues, secretModal } from './forms.js';
import { actorOf } from './tenancy.js';

/** Opens the secrets form `id` of a command, for someone who may run it (ChatCore.forms.secrets said so). */
export async function askSecrets(
  interaction: ChatInputCommandInteraction,
  form: { id: string; prompt: SecretPrompt },
): Promise<void> {
  await interaction.showModal(secretModal(form.id, form.prompt.line, form.prompt.fields));
}

/**
 * Runs the command of a submitted secrets form with the secrets typed into it, answering privately; `actor` is who
 * submitted it (the interaction's member, or in a DM the person in the server their DMs are for).
 */
export async function submitSecrets(
  interaction: ModalSubmitInteraction,
  chat: ChatCore,
  actor: Actor = actorOf(interaction),
): Promise<void> {
  await interaction.deferReply({ flags: MessageFlags.Ephemeral });
  const check = await chat.forms.submitSecrets({
    id: interaction.customId,
    actor,
    values: modalValues(interaction),
  });
  if (check.status !== 'ok') {
    if (check.reply !== null) await answerPrivately(interaction, check.reply);
    return;
  }
  await answerPrivately(
    interaction,
    await check.run({ actor, channelId: interaction.channelId ?? 'unknown' }),
  );
}
