/**
 * The request pipeline of the sandbox: body (1 MB cap), key, rate limit, injected faults, routing, the
 * operation, then the accounting headers on every answer once the key is known.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Account, Accounts } from '../accounts.js';
import type { World } from '../data/world.js';
import type { SandboxFault, SandboxRequestLog } from '../types.js';
import { type ErrorFamily, errorBody, familyOf, readBody, SandboxHttpError, writeResponse } from './http.js';
import type { MediaOutput, OperationContext, RouteMatch } from './router.js';

/** Largest request body accepted, in bytes. */
export const MAX_BODY_BYTES = 1024 * 1024;

/** An answer of an out-of-band route (admin, output files). */
export interface PlainAnswer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
  /** Bytes sent as is instead of JSON. */
  bytes?: Buffer;
}

/** What the pipeline needs from the sandbox. */
export interface HandlerDependencies {
  readonly world: World;
  readonly accounts: Accounts;
  readonly now: () => number;
  readonly route: (method: string, path: string) => RouteMatch;
  readonly media: MediaOutput;
  /** Admin routes under `/__sandbox/`; they need no key and are not logged. */
  readonly admin: (method: string, path: string, body: string) => PlainAnswer;
  /** Processed files under `/output/`; public, like the live output host. */
  readonly output: (path: string) => PlainAnswer;
  readonly log: (entry: SandboxRequestLog) => void;
  /** Responses held open by 'timeout' faults. */
  readonly held: Set<ServerResponse>;
  /** Timers of delayed answers; cleared on stop. */
  readonly timers: Set<NodeJS.Timeout>;
}

/** Body of a 'malformed-json' fault: the start of a plausible answer, cut off. */
const TRUNCATED_JSON = '{"message":"OK","response":{"data":[{"user_id":"instagram_1';

function parseForLog(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function isJsonContentType(value: string | undefined): boolean {
  return value !== undefined && /application\/([\w.+-]+\+)?json/i.test(value);
}

/** Creates the node:http request listener of the sandbox. */
export function createRequestHandler(
  deps: HandlerDependencies,
): (req: IncomingMessage, res: ServerResponse) => void {
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const at = deps.now();
    const method = (req.method ?? 'GET').toUpperCase();
    let url: URL;
    try {
      url = new URL(req.url ?? '/', 'http://sandbox.invalid');
    } catch {
      writeResponse(res, 400, {}, errorBody('C', 400, 'Malformed request target'));
      return;
    }
    const path = url.pathname.length > 1 ? url.pathname.replace(/\/+$/, '') : url.pathname;
    const { text, tooLarge } = await readBody(req, MAX_BODY_BYTES);

    if (path.startsWith('/__sandbox/')) {
      const answer = deps.admin(method, path, text);
      writeResponse(res, answer.status, answer.headers ?? {}, answer.body);
      return;
    }

    const keyHeader = req.headers['x-ty-api-key'];
    const key = (Array.isArray(keyHeader) ? keyHeader[0] : keyHeader) ?? null;
    const entry: SandboxRequestLog = {
      method,
      path,
      query: Object.fromEntries(url.searchParams),
      body: parseForLog(text),
      key,
      status: 0,
      at,
    };
    // Logged on arrival so that requests still in flight show up, with status 0 until answered.
    deps.log(entry);
    const send = (status: number, headers: Record<string, string>, body: unknown, raw = false): void => {
      entry.status = status;
      writeResponse(res, status, headers, body, raw);
    };

    if (path.startsWith('/output/')) {
      const answer = deps.output(path);
      if (answer.bytes && method === 'GET') {
        entry.status = answer.status;
        res.writeHead(answer.status, { 'content-length': String(answer.bytes.length), ...answer.headers });
        res.end(answer.bytes);
      } else send(answer.bytes ? 405 : answer.status, answer.headers ?? {}, answer.body);
      return;
    }

    const family: ErrorFamily = familyOf(path);
    const fail = (
      status: number,
      message: string,
      headers: Record<string, string> = {},
      retryAfter?: number,
    ) => send(status, headers, errorBody(family, status, message, retryAfter));
    if (!path.startsWith('/api/') && !path.startsWith('/media/api/')) {
      fail(404, `No operation at ${path}`);
      return;
    }
    const account = key === null ? undefined : deps.accounts.get(key);
    if (!account) {
      fail(401, key === null ? 'Missing x-ty-api-key header' : 'Invalid API key');
      return;
    }

    const decision = deps.accounts.hit(account, at);
    const accounting = (): Record<string, string> => ({
      'x-ty-credits': String(account.credits),
      'x-ty-rate-limit-remaining': String(decision.remaining),
      'x-ty-rate-limit-total': String(account.rateLimitPerMinute),
    });
    if (!decision.allowed) {
      const retry = decision.retryAfterSeconds;
      fail(429, 'Too many requests', { ...accounting(), 'retry-after': String(retry) }, retry);
      return;
    }

    const fault = account.faults.shift();
    if (fault) {
      applyFault(fault, family, res, deps, accounting(), send);
      return;
    }
    if (tooLarge) {
      fail(413, `The request body exceeds ${MAX_BODY_BYTES} bytes`, { ...accounting(), connection: 'close' });
      return;
    }

    const match = deps.route(method, path);
    if (match.kind === 'not-found') {
      fail(404, `No operation at ${path}`, accounting());
      return;
    }
    if (match.kind === 'method-not-allowed') {
      const allow = match.allowed.join(', ');
      fail(405, `Method ${method} is not allowed on ${path}; use ${allow}`, { ...accounting(), allow });
      return;
    }
    const operation = match.operation;
    const opFamily = operation.family;
    const opFail = (error: SandboxHttpError) =>
      send(
        error.status,
        { ...accounting(), ...error.headers },
        errorBody(opFamily, error.status, error.message),
      );
    if (text !== '' && !isJsonContentType(req.headers['content-type'])) {
      opFail(new SandboxHttpError(415, 'Send the body as JSON with Content-Type: application/json'));
      return;
    }
    let parsed: { value: unknown } | undefined;
    const context: OperationContext = {
      method,
      path,
      params: match.params,
      query: url.searchParams,
      account,
      world: deps.world,
      now: at,
      body: () => {
        if (parsed) return parsed.value;
        if (text.trim() === '') parsed = { value: undefined };
        else {
          try {
            parsed = { value: JSON.parse(text) as unknown };
          } catch {
            throw new SandboxHttpError(400, 'The request body is not valid JSON');
          }
        }
        return parsed.value;
      },
      team: () => deps.world.team(account.teamId, account.ownerName),
      requireCredits: (units) => requireCredits(account, units),
      charge: (units) => {
        requireCredits(account, units);
        account.credits -= units;
      },
      media: deps.media,
    };
    let result: ReturnType<typeof operation.handle>;
    try {
      result = operation.handle(context);
    } catch (error) {
      opFail(error instanceof SandboxHttpError ? error : new SandboxHttpError(500, 'Internal sandbox error'));
      return;
    }
    const answer = (): void =>
      send(result.status ?? 200, { ...accounting(), ...result.headers }, result.body);
    if (result.delayMs !== undefined && result.delayMs > 0) {
      const timer = setTimeout(() => {
        deps.timers.delete(timer);
        answer();
      }, result.delayMs);
      timer.unref();
      deps.timers.add(timer);
    } else answer();
  };

  return (req, res) => {
    handle(req, res).catch(() => {
      writeResponse(res, 500, {}, errorBody('C', 500, 'Internal sandbox error'));
    });
  };
}

function requireCredits(account: Account, units: number): void {
  if (account.credits < units) {
    // 402 in the family's shape (A {code,message}, B {detail}, C {error}): the live body is undocumented.
    // All or nothing: a call whose N items cost more than the balance is refused whole, never truncated,
    // and nothing is charged.
    throw new SandboxHttpError(
      402,
      `Insufficient credits: this request needs ${units} credit${units === 1 ? '' : 's'} and the balance is ${account.credits}`,
    );
  }
}

function applyFault(
  fault: SandboxFault,
  family: ErrorFamily,
  res: ServerResponse,
  deps: HandlerDependencies,
  accounting: Record<string, string>,
  send: (status: number, headers: Record<string, string>, body: unknown, raw?: boolean) => void,
): void {
  switch (fault.kind) {
    case 'rate-limit': {
      const retry = fault.retryAfterSeconds ?? 1;
      send(
        429,
        { ...accounting, 'retry-after': String(retry) },
        errorBody(family, 429, 'Too many requests', retry),
      );
      return;
    }
    case 'server-error': {
      const status = fault.status ?? 500;
      send(status, accounting, errorBody(family, status, 'Internal server error'));
      return;
    }
    case 'timeout':
      deps.held.add(res);
      res.on('close', () => deps.held.delete(res));
      return;
    case 'malformed-json':
      send(200, accounting, TRUNCATED_JSON, true);
      return;
    case 'error-shape':
      send(fault.status, { ...accounting, ...fault.headers }, fault.body, typeof fault.body === 'string');
      return;
  }
}
