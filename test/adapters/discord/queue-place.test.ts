/**
 * A slash command that has to wait for the service's allowance tells the person their place in the queue by editing
 * its deferred reply ("Scout is thinking…") in place, with a Cancel button when the wait is long. Pressing Cancel (a
 * component interaction) ends the wait: the command's answer says nothing more was sent, nothing lands after it, the
 * place with its Cancel button does not stay, and the service never sees the request. A later change of place edits
 * the same deferred reply again instead of posting a new message. Through discord.js against the fake gateway and
 * REST, with a service allowing one request a minute.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { FakeRequest, FakeUser } from '../../fakes/discord-fake.js';
import {
  APP_ID,
  answered,
  buttonId,
  createWorld,
  edited,
  followed,
  KEY,
  press,
  slash,
  type World,
} from './harness.js';

const ANA: FakeUser = { id: '200000000000000011', username: 'ana' };
const BEN: FakeUser = { id: '200000000000000012', username: 'ben' };
const CAT: FakeUser = { id: '200000000000000013', username: 'cat' };

const PLACE = /The service is busy: (yours is next|(\d+) requests? ahead of yours), about \d+ (s|min)/;
const NOTHING_SENT = 'Cancelled while waiting for the service: nothing more was sent.';

let world: World;

/** Starts a world whose service allows one request a minute; waiting calls hear their place every `reportMs`. */
async function start(reportMs?: number) {
  world = await createWorld({
    rateLimit: { perMinute: 1, ...(reportMs === undefined ? {} : { queueReportMs: reportMs }) },
  });
  await world.startBot({ databasePath: ':memory:' });
}

afterEach(async () => {
  await world?.stop();
});

const serviceCalls = () => world.sandbox.requests(KEY).map((r) => `${r.method} ${r.path}`);
/** A request's body as text, without the markdown escapes (`busy\\:`). */
const bodyText = (request: FakeRequest) => JSON.stringify(request.body).replace(/\\+/g, '');
/** The edits of the deferred reply of `token` so far. */
const edits = (token: string) => world.fake.requests.filter(edited(token));
/** How many requests the place of an edit says are ahead (0: yours is next). */
const ahead = (request: FakeRequest) => {
  const found = PLACE.exec(bodyText(request));
  if (found === null) throw new Error(`No queue place in ${bodyText(request)}`);
  return found[2] === undefined ? 0 : Number(found[2]);
};

/** Resolves once `check` holds, looking every 20 ms. */
async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 20));
}

/** `/scout creators search` by `user`. */
const search = (user: FakeUser) =>
  slash(world.fake, 'creators', 'search', [{ type: 3, name: 'followers', value: '10k-2m' }], { user });

/** Waits for an edit of the deferred reply of `token` whose text matches, past or future. */
const editSaying = (token: string, pattern: RegExp | string, what: string) =>
  world.fake.waitFor(
    (r) =>
      edited(token)(r) &&
      (typeof pattern === 'string' ? bodyText(r).includes(pattern) : pattern.test(bodyText(r))),
    what,
  );

/** Waits for an answer (an edit or a follow-up) through `token` that says `words`, past or future. */
const answerSaying = (token: string, words: string, what: string) =>
  world.fake.waitFor((r) => answered(token)(r) && bodyText(r).includes(words), what);

/** Presses the Cancel button of the deferred reply of `token`, as `user`. */
const pressCancel = (token: string, user: FakeUser) => {
  const message = world.fake.original(token);
  if (message === undefined) throw new Error(`No deferred reply for ${token}`);
  return press(world.fake, message, /^Cancel$/, user);
};

describe('Discord: a slash command waiting for the service', () => {
  it('edits its deferred reply with its place and Cancel; Cancel ends the wait with nothing sent', async () => {
    await start();
    search(ANA);
    await until(() => world.sandbox.requests(KEY).length === 1);

    const waiting = search(BEN);
    const place = await editSaying(waiting.token, PLACE, 'place in the queue');
    expect(place.path).toBe(`/webhooks/${APP_ID}/${waiting.token}/messages/@original`);
    const shown = world.fake.original(waiting.token);
    expect(shown).toBeDefined();
    expect(buttonId(shown as Record<string, unknown>, /^Cancel$/)).toBeTruthy();
    // Said on the deferred reply itself: nothing is posted beside it.
    expect(world.fake.requests.filter(followed(waiting.token))).toEqual([]);

    const cancel = pressCancel(waiting.token, BEN);
    const ended = await answerSaying(waiting.token, NOTHING_SENT, 'final answer');
    await world.fake.waitFor(answered(cancel.token), 'press answered');
    await new Promise((resolve) => setTimeout(resolve, 300));
    // The answer is the last word: no place lands after it, and the place with its Cancel button does not stay.
    const after = world.fake.requests.slice(world.fake.requests.indexOf(ended) + 1);
    expect(after.filter((r) => edited(waiting.token)(r) || followed(waiting.token)(r))).toEqual([]);
    const left = world.fake.original(waiting.token);
    if (left !== undefined) expect(JSON.stringify(left)).not.toMatch(/Cancel"|busy/);
    // Only the first person's search reached the service.
    expect(serviceCalls()).toEqual(['GET /api/v2/creators/search']);
  });

  it('edits the same deferred reply again when its place changes, and never posts a new message', async () => {
    await start(300);
    search(ANA);
    await until(() => world.sandbox.requests(KEY).length === 1);
    const ahead1 = search(BEN);
    await editSaying(ahead1.token, PLACE, 'first waiting place');
    const waiting = search(CAT);
    const first = await editSaying(waiting.token, PLACE, 'place in the queue');
    const before = ahead(first);
    expect(before).toBeGreaterThan(0);

    // The call ahead leaves the queue: one fewer before this one.
    pressCancel(ahead1.token, BEN);
    await answerSaying(ahead1.token, NOTHING_SENT, 'the call ahead cancelled');
    const moved = await world.fake.waitFor(
      (r) => edited(waiting.token)(r) && PLACE.test(bodyText(r)) && ahead(r) === before - 1,
      'place moved up',
    );
    expect(moved.path).toBe(first.path);
    const places = edits(waiting.token).filter((r) => PLACE.test(bodyText(r)));
    expect(places.length).toBeGreaterThanOrEqual(2);
    expect(world.fake.requests.filter(followed(waiting.token))).toEqual([]);

    pressCancel(waiting.token, CAT);
    await answerSaying(waiting.token, NOTHING_SENT, 'final answer');
    expect(serviceCalls()).toEqual(['GET /api/v2/creators/search']);
  }, 20_000);
});
