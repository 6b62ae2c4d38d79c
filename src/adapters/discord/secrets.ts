/**
 * Secret options (a service API key) on Discord. They are never command options, whose values the channel may
 * see: the command opens a private form (a modal) as its first answer, and the form's submission runs the command
 * with the options given plus the secrets, answered ephemerally. The form's stored token keeps the command and the
 * options given, never a secret.
 */
import { type ChatInputCommandInteraction, MessageFlags, type ModalSubmitInteraction } from 'discord.js';
import { z } from 'zod';
import type { ChatCore, SecretPrompt } from '../../core/chat/index.js';
import { notice, reply } from '../../core/ui/index.js';
import { answerPrivately } from './answer.js';
import { modalValues, SECRET_FORM_KIND, secretModal } from './forms.js';
import { actorOf } from './tenancy.js';

/** How long a secrets form stays valid: as long as the interaction token that opened it. */
const SECRET_FORM_TTL_MS = 15 * 60_000;

const secretPayload = z.object({
  family: z.string(),
  command: z.string(),
  options: z.record(z.string(), z.string()),
  fields: z.array(z.string()),
});

/** Opens the secrets form of a command, for someone who may run it (ChatCore.forms.secrets said so). */
export async function askSecrets(
  interaction: ChatInputCommandInteraction,
  chat: ChatCore,
  prompt: SecretPrompt,
): Promise<void> {
  const token = await chat.tokens.mint({
    kind: SECRET_FORM_KIND,
    payload: {
      family: prompt.family,
      command: prompt.command,
      options: prompt.given,
      fields: prompt.fields.map((field) => field.name),
    },
    actor: actorOf(interaction),
    personal: true,
    ttlMs: SECRET_FORM_TTL_MS,
  });
  await interaction.showModal(secretModal(token, `/scout ${prompt.family} ${prompt.command}`, prompt.fields));
}

/** Runs the command of a submitted secrets form with the secrets typed into it, answering privately. */
export async function submitSecrets(interaction: ModalSubmitInteraction, chat: ChatCore): Promise<void> {
  await interaction.deferReply({ flags: MessageFlags.Ephemeral });
  const actor = actorOf(interaction);
  const token = interaction.customId;
  const found = await chat.tokens.lookup(token, actor);
  const parsed = found.status === 'ok' ? secretPayload.safeParse(found.record.payload) : null;
  // A form is used once: a replayed submission finds it used.
  if (parsed?.success !== true || !(await chat.tokens.consume(token))) {
    await answerPrivately(
      interaction,
      reply([notice('warning', 'This form expired: run the command again.')]),
    );
    return;
  }
  const { family, command, options, fields } = parsed.data;
  const values = modalValues(interaction);
  const secrets: Record<string, string> = {};
  for (const name of fields) {
    const value = values[name];
    if (value !== undefined) secrets[name] = value;
  }
  const answer = await chat.options({
    actor,
    channelId: interaction.channelId ?? 'unknown',
    family,
    command,
    options: { ...options, ...secrets },
  });
  await answerPrivately(interaction, answer);
}
