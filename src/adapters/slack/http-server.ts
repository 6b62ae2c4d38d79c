/**
 * The server of Slack HTTP mode: a node:http server in front of Bolt's HTTPReceiver request listener, so that what a
 * request costs is bounded before Bolt sees it. Bolt buffers a whole body (up to 4 MB) before it checks the
 * signature, waits as long as the client likes for it, and throws on a signed body of the wrong shape (which leaves
 * the request unanswered, or answered 500). Here a body is read only up to a limit, slow clients are cut off, connections are capped, and
 * a signed body of the wrong shape is answered 400 before Bolt parses it.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type {
  HTTPReceiver,
  ReceiverDispatchErrorHandlerArgs,
  ReceiverProcessEventErrorHandlerArgs,
  ReceiverUnhandledRequestHandlerArgs,
} from '@slack/bolt';
import { limitServer, type OpsRoutes, type ServerLimits } from '../../core/chat/index.js';
import { InternalError } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import { markArrival } from './arrival.js';
import { ErrorCode, HTTPModuleFunctions } from './bolt.js';
import { requestBodyProblem } from './request-shape.js';

/**
 * The largest request body read, in bytes. Slack's own payloads are far smaller (a modal's view is at most 250 kB,
 * https://docs.slack.dev/reference/views/modal-views), and every byte is held before the signature can be checked.
 */
export const BODY_LIMIT_BYTES = 1024 * 1024;
/** A request's headers must have arrived within this time: Slack sends each request at once. */
export const HEADERS_TIMEOUT_MS = 10_000;
/** A whole request must have arrived within this time: Slack wants its answer within 3 s of sending. */
export const REQUEST_TIMEOUT_MS = 10_000;
/** A socket with nothing sent either way for this long is closed (an idle keep-alive, a stalled answer). */
export const IDLE_TIMEOUT_MS = 15_000;
/** How often Node checks requests against the two timeouts above; its default, 30 s, would let them run over. */
export const TIMEOUT_CHECK_INTERVAL_MS = 1_000;
/** Connections open at once; more are closed as they arrive, so a flood cannot exhaust file descriptors. */
export const MAX_CONNECTIONS = 256;

/**
 * What one connection may cost the server: the limits of every server of Scout's, and the largest body read. No cap
 * per client: Slack sends from many addresses, or all through one proxy.
 */
export interface SlackHttpLimits extends ServerLimits {
  /** Largest request body read, in bytes. */
  bodyLimitBytes: number;
}

/** The production limits. */
export const SLACK_HTTP_LIMITS: Readonly<SlackHttpLimits> = {
  bodyLimitBytes: BODY_LIMIT_BYTES,
  headersTimeoutMs: HEADERS_TIMEOUT_MS,
  requestTimeoutMs: REQUEST_TIMEOUT_MS,
  idleTimeoutMs: IDLE_TIMEOUT_MS,
  checkIntervalMs: TIMEOUT_CHECK_INTERVAL_MS,
  maxConnections: MAX_CONNECTIONS,
};

/** Answers with no body; `close` ends the connection, for a request whose body is left unread. */
function answer(res: ServerResponse, status: number, close = false): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(status, close ? { Connection: 'close', 'Content-Length': '0' } : { 'Content-Length': '0' });
  res.end();
}

const declaredLength = (req: IncomingMessage): number => Number(req.headers['content-length'] ?? 0);

/** The request's path, as Bolt's receiver finds it; null for a target it cannot read. */
function pathOf(req: IncomingMessage): string | null {
  try {
    return new URL(req.url ?? '', 'http://localhost').pathname;
  } catch {
    return null;
  }
}

/** The outcome of reading a body: the bytes, too many of them, or nothing (the client went away first). */
type Read = { body: Buffer } | { tooLarge: true } | null;

/**
 * Reads a request body of at most `limit` bytes. Past the limit, reading stops and what was held is dropped: a
 * chunked upload is never buffered beyond it, whoever sends it.
 */
function readBody(req: IncomingMessage, limit: number): Promise<Read> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const settle = (read: Read) => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('close', onClose);
      resolve(read);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) {
        chunks.push(chunk);
        return;
      }
      req.pause();
      chunks.length = 0;
      settle({ tooLarge: true });
    };
    const onEnd = () => settle({ body: Buffer.concat(chunks, size) });
    const onClose = () => settle(null);
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('close', onClose);
    // A client that goes away mid-body is not an error of Scout's; 'close' settles the read.
    req.on('error', () => {});
  });
}

/** What the server is built from. */
export interface SlackHttpServerOptions {
  receiver: HTTPReceiver;
  /** The path Bolt receives Slack's requests on. */
  endpoint: string;
  signingSecret: string;
  logger: Logger;
  limits: SlackHttpLimits;
  /** The receiver's dispatch error handler, for a request Bolt's listener throws on. */
  dispatchErrorHandler: (args: ReceiverDispatchErrorHandlerArgs) => void;
  /** Bolt's logger, which the dispatch error handler is given. */
  boltLogger: ReceiverDispatchErrorHandlerArgs['logger'];
  /** The operator endpoints (/healthz, /readyz, /metrics), served before Bolt sees the request. */
  routes?: OpsRoutes;
}

/**
 * Creates (but does not start) the server: requests to `endpoint` are read within the limits and, once signed and
 * well shaped, handed to Bolt; the operator endpoints (/healthz, /readyz, /metrics) are answered here; every other
 * request (the OAuth install pages) goes to Bolt's listener.
 */
export function createSlackHttpServer(options: SlackHttpServerOptions): Server {
  const { receiver, endpoint, signingSecret, limits } = options;
  const logger = options.logger.child({ component: 'slack-http' });

  const toBolt = (req: IncomingMessage, res: ServerResponse) => {
    try {
      receiver.requestListener(req, res);
    } catch (error) {
      // What Bolt's own server does when its listener throws (an unknown path, a request target it cannot read).
      options.dispatchErrorHandler({
        error: error instanceof Error ? error : new InternalError(String(error)),
        logger: options.boltLogger,
        request: req,
        response: res,
      });
    }
  };

  /** A signed body that does not have the shape of a Slack request: what is wrong with it, else null. */
  const signedButMalformed = async (req: IncomingMessage): Promise<string | null> => {
    let parsed: unknown;
    try {
      // The body is buffered already: Bolt's own check reads it from there, and Bolt repeats it when it answers.
      const verified = await HTTPModuleFunctions.parseAndVerifyHTTPRequest({ signingSecret }, req);
      parsed = HTTPModuleFunctions.parseHTTPRequestBody(verified);
    } catch {
      // Unsigned (401), or not JSON or a form at all (400): Bolt answers these itself.
      return null;
    }
    return requestBodyProblem(parsed);
  };

  const serveEvent = async (req: IncomingMessage, res: ServerResponse) => {
    const read = await readBody(req, limits.bodyLimitBytes);
    if (read === null) return;
    if ('tooLarge' in read) {
      logger.warn(
        { limit: limits.bodyLimitBytes },
        'A Slack request body grew over the limit: refused (413).',
      );
      // The rest of the body is left unread, so the connection cannot carry another request: it is closed.
      answer(res, 413, true);
      return;
    }
    // Bolt reads a body it finds buffered here instead of reading the stream again.
    Object.assign(req, { rawBody: read.body });
    const problem = await signedButMalformed(req);
    if (problem !== null) {
      logger.warn({ problem }, 'A signed Slack request of the wrong shape was refused (400).');
      answer(res, 400);
      return;
    }
    toBolt(req, res);
  };

  const serve = (req: IncomingMessage, res: ServerResponse) => {
    markArrival(req);
    // Refused before a byte of the body is read: Slack never sends this much.
    if (declaredLength(req) > limits.bodyLimitBytes) {
      logger.warn(
        { length: req.headers['content-length'], limit: limits.bodyLimitBytes },
        'A request announcing a body over the limit was refused (413), unread.',
      );
      answer(res, 413, true);
      return;
    }
    if (req.method === 'POST' && pathOf(req) === endpoint) {
      serveEvent(req, res).catch((error: unknown) => {
        logger.error({ err: error }, 'A Slack request failed before Bolt saw it.');
        answer(res, 500, true);
      });
      return;
    }
    if (options.routes?.(req, res) === true) return;
    toBolt(req, res);
  };

  const server = limitServer(createServer(serve), limits);
  // `Expect: 100-continue` is answered only for a body within the limit, so a large one is never sent.
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
    if (declaredLength(req) > limits.bodyLimitBytes) {
      answer(res, 413, true);
      return;
    }
    res.writeContinue();
    serve(req, res);
  });
  return server;
}

/** The HTTPReceiver's error handlers: they answer as Bolt's defaults do, and log through Scout's (redacting) logger. */
export function receiverErrorHandlers(parent: Logger) {
  const logger = parent.child({ component: 'slack' });
  return {
    dispatchErrorHandler({ error, request, response }: ReceiverDispatchErrorHandlerArgs): void {
      const code = (error as { code?: unknown }).code;
      if (code === ErrorCode.HTTPReceiverDeferredRequestError) {
        answer(response, 404);
        return;
      }
      // `new URL()` in Bolt's router throws on a request target such as `//`, and path matching on bad escapes.
      if (code === 'ERR_INVALID_URL' || error instanceof URIError) {
        logger.warn('A request for a path that cannot be read was refused (400).');
        answer(response, 400);
        return;
      }
      const path = request.url?.split('?')[0];
      logger.error({ err: error, method: request.method, path }, 'A Slack HTTP request failed.');
      answer(response, 500);
    },
    async processEventErrorHandler({
      error,
      response,
    }: ReceiverProcessEventErrorHandlerArgs): Promise<boolean> {
      if (response.headersSent) {
        logger.error({ err: error }, 'A Slack listener failed after its acknowledgement.');
        return false;
      }
      // No installation for the workspace (many-team mode): Bolt's answer, and it counts as the acknowledgement.
      if ((error as { code?: unknown }).code === ErrorCode.AuthorizationError) {
        answer(response, 401);
        return true;
      }
      logger.error({ err: error }, 'Bolt failed on a Slack request.');
      answer(response, 500);
      return false;
    },
    unhandledRequestHandler({ response }: ReceiverUnhandledRequestHandlerArgs): void {
      // A well-shaped request no listener of Scout takes (another command, a view it did not open): Bolt's 404.
      logger.warn('A Slack request was not acknowledged within 3 seconds: no listener of Scout takes it.');
      answer(response, 404);
    },
  };
}
