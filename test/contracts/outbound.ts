/**
 * The contract of an Outbound (src/core/outbound.ts), written once and run against each platform's adapter: a
 * keyed post is made once, a post in the thread of an earlier one lands in that thread, and a retry flagged
 * `mayHaveLanded` finds the message the platform took, whether its answer was lost or the process restarted (a
 * platform without history, the terminal, finds it within its process and posts it again after a restart).
 * Each platform gives a driver: its Outbound over the platform's fake, a way to read what the platform holds, and
 * the ways a post's answer can be lost.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ChannelRef, Outbound, PersonRef, PostedMessage } from '../../src/core/outbound.js';
import { type Reply, reply, text } from '../../src/core/ui/index.js';

/** A message as the platform holds it. */
export interface Held {
  /** Its id, as the Outbound reports it (PostedMessage.messageId). */
  id: string;
  /** The thread it is in (the threadId the Outbound reports for posts there), null at the top of its channel. */
  thread: string | null;
  /** Everything it shows, to search. */
  text: string;
}

/** A platform under the contract, and its Outbound. */
export interface OutboundDriver {
  /** The Outbound of the process running now (a new one after each restart). */
  readonly outbound: Outbound;
  /** A channel Scout may post in. */
  readonly channel: ChannelRef;
  /** A person Scout may write to privately. */
  readonly person: PersonRef;
  /** Scout's messages in `channelId` (a channel, or a DM channel a direct message reported) and its threads. */
  messages(channelId: string): Promise<Held[]>;
  /**
   * The process stops without any cleanup and a new one starts after a long outage: whatever the platform keeps
   * only for minutes (Discord's nonces) is gone.
   */
  restart(): Promise<void>;
  /** Runs `post`; the platform takes it but its answer is lost on the way back. Resolves once `post` settled. */
  loseAnswer(post: () => Promise<unknown>): Promise<void>;
  /**
   * Runs `post`, and the process dies with it on its way, before it reached the platform or after it landed (its
   * answer lost); then restarts as `restart` does.
   */
  crash(post: () => Promise<unknown>, when: 'before landing' | 'after landing'): Promise<void>;
  close(): Promise<void>;
}

/** What a platform can do, which decides what some cases check of it (and what they are called). */
export interface OutboundTraits {
  /**
   * Whether a keyed post made before a restart is found after it. A platform that keeps its messages is searched;
   * the terminal keeps no history, so after a restart it prints again a post that may have been printed.
   */
  readonly remembersAcrossRestart: boolean;
}

/** A channel reply that says `body`. */
const note = (body: string): Reply => reply([text(body)], { visibility: 'channel' });

/** Defines the contract's tests for the driver `start` gives, named `name`, of a platform with `traits`. */
export function describeOutboundContract(
  name: string,
  traits: OutboundTraits,
  start: () => Promise<OutboundDriver>,
): void {
  const { remembersAcrossRestart } = traits;
  // Without history to search, a retry after a restart posts again: the two cases of a restart then check that it
  // does, under a new id and in the right thread, and are named for that rather than for a search they cannot make.
  const afterRestartCase = remembersAcrossRestart
    ? 'finds after a restart a post the platform took, and keeps its thread'
    : 'posts again after a restart a post made before it (no history to search), and keeps its thread';
  const lostAnswerCase = remembersAcrossRestart
    ? 'finds a post the platform took whose answer was lost, instead of posting it again'
    : 'posts again after a restart a post whose answer was lost (no history to search), in its thread';
  let driver: OutboundDriver | null = null;
  afterEach(async () => {
    await driver?.close();
    driver = null;
  });

  const begin = async () => {
    driver = await start();
    const d = driver;
    /** Posts `body` in the driver's channel through the Outbound running now. */
    const post = (body: string, options: Parameters<Outbound['post']>[2] = {}) =>
      d.outbound.post(d.channel, note(body), options);
    /** The messages of `channelId` (the driver's channel by default) that show `body`. */
    const showing = async (body: string, channelId = d.channel.channelId) =>
      (await d.messages(channelId)).filter((m) => m.text.includes(body));
    /**
     * The ids a platform holds after a post that may have landed before a restart (`before`: its id, or null when
     * its answer was lost) was retried as `retry`: the one message, or where nothing is remembered across a
     * restart, the earlier one and the retry.
     */
    const afterRestart = async (body: string, retry: PostedMessage, before: string | null = null) => {
      const ids = (await showing(body, retry.channelId)).map((m) => m.id);
      if (remembersAcrossRestart) {
        expect(ids, body).toEqual([retry.messageId]);
        if (before !== null) expect(retry.messageId, body).toBe(before);
      } else {
        expect(ids, body).toHaveLength(2);
        expect(ids[1], body).toBe(retry.messageId);
        expect(ids[0], body).not.toBe(retry.messageId);
        if (before !== null) expect(ids[0], body).toBe(before);
      }
    };
    return { d, post, showing, afterRestart };
  };

  describe(`the ${name} outbound`, () => {
    it('makes a keyed post once: a repeat answers with the first message', async () => {
      const { post, showing } = await begin();
      const first = await post('Reply alpha', { key: 'contract:alpha' });
      const again = await post('Reply alpha', { key: 'contract:alpha', mayHaveLanded: true });
      expect(again).toEqual(first);
      // The same words under another key are another post.
      const other = await post('Reply alpha', { key: 'contract:alpha-other' });
      expect(other.messageId).not.toBe(first.messageId);
      expect(await showing('Reply alpha')).toEqual([
        { id: first.messageId, thread: null, text: expect.any(String) },
        { id: other.messageId, thread: null, text: expect.any(String) },
      ]);
    });

    it('posts in the thread of an earlier post, and reports that thread', async () => {
      const { post, showing } = await begin();
      const top = await post('Reply bravo', { key: 'contract:bravo' });
      const thread = top.threadId ?? top.messageId;
      const second = await post('Reply bravo two', { key: 'contract:bravo-2', inThreadOf: top });
      const third = await post('Reply bravo three', { key: 'contract:bravo-3', inThreadOf: top });
      // A post in the thread of a post already in a thread joins the same thread.
      const fourth = await post('Reply bravo four', { key: 'contract:bravo-4', inThreadOf: second });
      for (const posted of [second, third, fourth]) expect(posted.threadId).toBe(thread);
      const held = await showing('Reply bravo');
      expect(held.map((m) => [m.id, m.thread])).toEqual([
        [top.messageId, null],
        [second.messageId, thread],
        [third.messageId, thread],
        [fourth.messageId, thread],
      ]);
    });

    it(afterRestartCase, async () => {
      const { d, post, showing, afterRestart } = await begin();
      const charlie = await post('Reply charlie', { key: 'contract:charlie' });
      const thread = charlie.threadId ?? charlie.messageId;
      await post('Threaded charlie', { key: 'contract:charlie-2', inThreadOf: charlie });

      // The process stopped after the platform answered, before the post was recorded as made.
      await d.restart();
      const again = await post('Reply charlie', { key: 'contract:charlie', mayHaveLanded: true });
      await afterRestart('Reply charlie', again, charlie.messageId);
      // The thread made before the restart takes later posts.
      const later = await post('Later charlie', { key: 'contract:charlie-3', inThreadOf: charlie });
      expect(later.threadId).toBe(thread);
      for (const body of ['Threaded charlie', 'Later charlie'])
        expect(
          (await showing(body)).map((m) => m.thread),
          body,
        ).toEqual([thread]);

      // A post that never reached the platform is made once after the restart.
      await d.crash(() => post('Reply delta', { key: 'contract:delta' }), 'before landing');
      const delta = await post('Reply delta', { key: 'contract:delta', mayHaveLanded: true });
      expect((await showing('Reply delta')).map((m) => m.id)).toEqual([delta.messageId]);
    });

    it(lostAnswerCase, async () => {
      const { d, post, showing, afterRestart } = await begin();
      // The process died once the post had landed, before its answer came back.
      await d.crash(() => post('Reply echo', { key: 'contract:echo' }), 'after landing');
      await afterRestart(
        'Reply echo',
        await post('Reply echo', { key: 'contract:echo', mayHaveLanded: true }),
      );

      // In a thread, the thread is searched.
      const foxtrot = await post('Reply foxtrot', { key: 'contract:foxtrot' });
      const thread = foxtrot.threadId ?? foxtrot.messageId;
      const inThread = { key: 'contract:golf', inThreadOf: foxtrot };
      await d.crash(() => post('Reply golf', inThread), 'after landing');
      const golf = await post('Reply golf', { ...inThread, mayHaveLanded: true });
      expect(golf.threadId).toBe(thread);
      await afterRestart('Reply golf', golf);
      expect((await showing('Reply golf')).every((m) => m.thread === thread)).toBe(true);
    });

    it('sends a keyed direct message once, to the person only', async () => {
      const { d, showing, afterRestart } = await begin();
      const direct = (body: string, options: Parameters<Outbound['postDirect']>[2] = {}) =>
        d.outbound.postDirect(d.person, note(body), options);
      const hotel = await direct('Alert hotel', { key: 'contract:hotel' });
      expect(hotel.channelId).not.toBe(d.channel.channelId);
      expect(await direct('Alert hotel', { key: 'contract:hotel', mayHaveLanded: true })).toEqual(hotel);
      expect((await showing('Alert hotel', hotel.channelId)).map((m) => m.id)).toEqual([hotel.messageId]);
      expect(await showing('Alert hotel')).toEqual([]);

      await d.crash(() => direct('Alert india', { key: 'contract:india' }), 'after landing');
      const india = await direct('Alert india', { key: 'contract:india', mayHaveLanded: true });
      expect(india.channelId).toBe(hotel.channelId);
      await afterRestart('Alert india', india);
    });

    it('finds a post whose answer was lost in the same process, instead of posting it again', async () => {
      const { d, post, showing } = await begin();
      await d.loseAnswer(() => post('Reply juliett', { key: 'contract:juliett' }));
      const juliett = await post('Reply juliett', { key: 'contract:juliett', mayHaveLanded: true });
      expect((await showing('Reply juliett')).map((m) => m.id)).toEqual([juliett.messageId]);

      const kilo = await post('Reply kilo', { key: 'contract:kilo' });
      const thread = kilo.threadId ?? kilo.messageId;
      const inThread = { key: 'contract:lima', inThreadOf: kilo };
      await d.loseAnswer(() => post('Reply lima', inThread));
      const lima = await post('Reply lima', { ...inThread, mayHaveLanded: true });
      expect((await showing('Reply lima')).map((m) => [m.id, m.thread])).toEqual([[lima.messageId, thread]]);
    });
  });
}
