/**
 * What a person says to Scout outside `/scout`, as Slack's Events API delivers it: a direct message in Scout's
 * Messages tab and an @mention in a channel, each with a new ts later than any before.
 */
import { expect } from 'vitest';
import { sendEvent } from './helpers.js';

/** Who says it, and where. */
export interface Speaker {
  team: string;
  user: string;
  /** The person's DM channel with Scout. */
  dm: string;
  /** A channel Scout is in. */
  channel: string;
}

/** Sends a person's messages to the adapter listening on `port()`; message ts count up from `firstTs`. */
export function createSpeaker(port: () => number | null, who: Speaker, firstTs: number) {
  let stamp = firstTs;
  /** A new message ts, later than any before. */
  const nextTs = () => {
    stamp += 1;
    return `${stamp}.000100`;
  };
  return {
    nextTs,
    /** A direct message (`fields` add to the event or replace its own); resolves with its ts. */
    async dm(text: string, fields: Record<string, unknown> = {}, team = who.team): Promise<string> {
      const ts = nextTs();
      const event = { type: 'message', channel: who.dm, channel_type: 'im', user: who.user, team, text, ts };
      const { status } = await sendEvent(port(), team, { ...event, ...fields });
      expect(status).toBe(200);
      return ts;
    },
    /** An @mention in the channel, its text as Slack sends it (with the `<@bot>` it names, where given). */
    async mention(text: string, fields: Record<string, unknown> = {}): Promise<string> {
      const ts = nextTs();
      const event = { type: 'app_mention', channel: who.channel, user: who.user, team: who.team, text, ts };
      const { status } = await sendEvent(port(), who.team, { ...event, ...fields });
      expect(status).toBe(200);
      return ts;
    },
  };
}
