/**
 * What ran between two balances of an account (see ledger-settle.ts): the calls whose answers were lost between the
 * latest balance known before the oldest of them and an observed one, and what the two balances say they cost
 * together. Sends and answers are ordered by ticks of one counter in the database (ledger-clock.ts), so this holds
 * across processes sharing it. Calls that shared one request (several people's profiles in one creators-get, their
 * rows carrying its `request_key`) are read as that request.
 */
import { type Sql, sql } from './sql.js';

/** An answer with a reported balance. */
export interface BalanceObservation {
  /** Tick taken before the call was sent, and when. */
  sentTick: number;
  sentAt: Date;
  /** Tick taken when its answer was read. */
  doneTick: number;
  balance: number;
  /** What the call itself cost. */
  cost: number;
  /** Its ledger row, for a paid call. */
  key?: string;
  /** The request it shared with other calls, if any (their rows carry this key). */
  request?: string;
}

/** A paid call's row, as read here. */
export interface Call {
  id: number;
  key: string;
  request_key: string | null;
  state: string;
  credits: number;
  units: number;
  sent_tick: number;
  done_tick: number | null;
  settle_after: string | null;
  at: string;
}

/**
 * One request to the service: a call's own, or one several people's calls shared. It was sent after every one of
 * its calls was written (`sent`) and answered before any of them was completed (`done`; null while one is in flight).
 */
interface Request {
  calls: Call[];
  sent: number;
  done: number | null;
  credits: number;
}

/** Groups calls into the requests that carried them. */
function requestsOf(calls: readonly Call[]): Request[] {
  const groups = new Map<string, Call[]>();
  for (const call of calls) {
    const group = groups.get(call.request_key ?? `#${call.id}`) ?? [];
    if (!group.some((c) => c.id === call.id)) group.push(call);
    groups.set(call.request_key ?? `#${call.id}`, group);
  }
  return [...groups.values()].map((group) => ({
    calls: group,
    sent: Math.max(...group.map((c) => Number(c.sent_tick))),
    done: group.some((c) => c.done_tick === null) ? null : Math.min(...group.map((c) => Number(c.done_tick))),
    credits: group.reduce((sum, c) => sum + Number(c.credits), 0),
  }));
}

const COLUMNS = sql`id, idempotency_key AS "key", request_key, state, credits, units, sent_tick, done_tick, settle_after, at`;
type Keys = 'key' | 'request_key';
const isLost = (r: Request) => r.calls.every((c) => c.state === 'unconfirmed');
const isPaid = (r: Request) => r.calls.every((c) => c.state === 'confirmed' || c.state === 'settled');

/**
 * The calls lost between the latest balance known before the oldest lost call over (failed, and past its grace)
 * when `seen` was sent and `seen`, once every call between the two is over and the lost ones past their grace, with
 * what the balances say they cost (`charged`, the first less the second, less the calls of known cost between them);
 * undefined while that cannot be read yet.
 */
export async function lostBetween(
  tx: Sql,
  account: string,
  seen: BalanceObservation,
): Promise<{ calls: Call[]; charged: number } | undefined> {
  const shared = (keys: readonly string[]) =>
    keys.length === 0
      ? Promise.resolve([])
      : tx.all<Call>(sql`SELECT ${COLUMNS} FROM credit_ledger
          WHERE account_id = ${account} AND request_key IN (${sql.join(keys)})`);
  const open = sql`account_id = ${account} AND state = 'unconfirmed'`;
  if ((await tx.one(sql`SELECT 1 AS "open" FROM credit_ledger WHERE ${open} LIMIT 1`)) === undefined) return;
  // An answer to a shared request is read as the request's (sent after all its calls were written, read before any
  // was completed, costing them all), once none of its calls is still in flight.
  let seenAt = seen.sentAt.toISOString();
  let observed = { sent: seen.sentTick, done: seen.doneTick, cost: seen.cost };
  const skip = seen.key === undefined ? [''] : ['', seen.key];
  if (seen.request !== undefined) {
    const calls = await shared([seen.request]);
    const [request] = requestsOf(calls);
    if (request === undefined || request.done === null || !isPaid(request)) return;
    seenAt = calls.reduce((latest, c) => (c.at > latest ? c.at : latest), seenAt);
    observed = { sent: request.sent, done: request.done, cost: request.credits };
    skip.push(...calls.map((c) => c.key));
  }
  // The oldest unconfirmed call over (failed, and past its grace) before the observed call was sent...
  const first = await tx.one<{ sent_tick: number }>(
    sql`SELECT sent_tick FROM credit_ledger WHERE ${open} AND done_tick < ${observed.sent} AND settle_after <= ${seenAt}
        ORDER BY sent_tick LIMIT 1`,
  );
  if (first === undefined) return;
  // ...and the latest balance known before it was sent: a reading, or an answer with a known cost.
  const latest = await tx.one<
    { sent_tick: number; done_tick: number; balance: number } & Record<Keys, string | null>
  >(
    sql`SELECT sent_tick, done_tick, balance, CAST(NULL AS TEXT) AS "key", CAST(NULL AS TEXT) AS request_key FROM (
          SELECT sent_tick, done_tick, balance FROM balance_readings
          WHERE account_id = ${account} AND done_tick < ${first.sent_tick} ORDER BY done_tick DESC LIMIT 1) AS reading
        UNION ALL
        SELECT sent_tick, done_tick, balance, "key", request_key FROM (
          SELECT sent_tick, done_tick, balance, idempotency_key AS "key", request_key FROM credit_ledger
          WHERE account_id = ${account} AND state IN ('confirmed', 'settled') AND balance IS NOT NULL
            AND done_tick < ${first.sent_tick} ORDER BY done_tick DESC LIMIT 1) AS answer
        ORDER BY done_tick DESC LIMIT 1`,
  );
  if (latest === undefined) return;
  if (latest.key !== null) skip.push(latest.key);
  // A balance read on a shared request's answer: that request, sent after all its calls, answered before any ended.
  const start = latest.request_key === null ? [] : await shared([latest.request_key]);
  const [request] = requestsOf(start);
  const known = {
    sent: request?.sent ?? Number(latest.sent_tick),
    done: request?.done ?? Number(latest.done_tick),
  };
  skip.push(...start.map((c) => c.key));
  // Every other paid call of the account that ran (or may still run) between the two, with its request's others.
  const found = await tx.all<Call>(
    sql`SELECT ${COLUMNS} FROM credit_ledger
        WHERE account_id = ${account} AND sent_tick IS NOT NULL AND sent_tick < ${observed.done}
          AND (done_tick IS NULL OR done_tick > ${known.sent}) AND idempotency_key NOT IN (${sql.join(skip)})`,
  );
  const others = await shared([
    ...new Set(found.flatMap((c) => (c.request_key === null ? [] : [c.request_key]))),
  ]);
  const requests = requestsOf([...found, ...others.filter((c) => !skip.includes(c.key))]).filter(
    (r) => r.sent < observed.done && (r.done === null || r.done > known.sent),
  );
  // Each wholly between the two balances (sent after the first was read, over before the second was sent): the
  // lost ones past their grace, the others with a known cost.
  const inside = (r: Request) => r.sent > known.done && r.done !== null && r.done < observed.sent;
  const lost = requests.filter(isLost);
  if (!requests.every(inside) || !requests.every((r) => isLost(r) || isPaid(r))) return;
  if (!lost.every((r) => r.calls.every((c) => c.settle_after !== null && c.settle_after <= seenAt))) return;
  const paid = requests.filter((r) => !isLost(r)).reduce((sum, r) => sum + r.credits, 0);
  return {
    calls: lost.flatMap((r) => r.calls).sort((a, b) => Number(a.id) - Number(b.id)),
    charged: latest.balance - seen.balance - observed.cost - paid,
  };
}
