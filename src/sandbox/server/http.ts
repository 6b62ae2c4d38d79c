/** HTTP plumbing of the sandbox: error shapes per operation family, bounded body reading, JSON replies. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ScoutError } from '../../core/errors.js';

/**
 * Error body shape of an operation family: A `{code, message}` for creators, B `{detail}` for CRM,
 * C `{error}` for everything else (viral content, songs, agent, videos, media).
 */
export type ErrorFamily = 'A' | 'B' | 'C';

/** A failure an operation answers with; rendered in the body shape of the operation's family. */
export class SandboxHttpError extends ScoutError {
  readonly code = 'SANDBOX_HTTP_ERROR';
  /** Builds an error answered with `status` and `message` (plus extra headers such as Allow). */
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.name = 'SandboxHttpError';
  }
}

/** The error family of a path: creators answer shape A, CRM shape B, the rest shape C. */
export function familyOf(path: string): ErrorFamily {
  if (path === '/api/v1/creators' || path.startsWith('/api/v2/creators/') || path === '/api/v2/creators')
    return 'A';
  if (path.startsWith('/api/v2/crm/') || path === '/api/v2/crm') return 'B';
  return 'C';
}

/** The error body of a family; `retryAfter` is added to shape C rate-limit answers, as the live service does. */
export function errorBody(
  family: ErrorFamily,
  status: number,
  message: string,
  retryAfter?: number,
): unknown {
  switch (family) {
    case 'A':
      return { code: status, message };
    case 'B':
      return { detail: message };
    case 'C':
      return retryAfter === undefined ? { error: message } : { error: message, retryAfter };
  }
}

/** A request body read up to a limit. */
export interface ReadBody {
  /** The text received, empty when there was none or when it was too large. */
  text: string;
  /** True when the body exceeded the limit; the rest was drained and dropped. */
  tooLarge: boolean;
}

/** Bodies beyond this many bytes of draining end the connection instead of being read on. */
const DRAIN_LIMIT = 64 * 1024 * 1024;

/** Reads a request body, keeping at most `limit` bytes in memory. */
export function readBody(req: IncomingMessage, limit: number): Promise<ReadBody> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const finish = (result: ReadBody): void => {
      if (settled) return;
      settled = true;
      resolve(result);
    };
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
      else chunks.length = 0;
      if (size > DRAIN_LIMIT) req.destroy();
    });
    req.on('end', () =>
      finish({ text: size > limit ? '' : Buffer.concat(chunks).toString('utf8'), tooLarge: size > limit }),
    );
    req.on('error', () => finish({ text: '', tooLarge: size > limit }));
    req.on('close', () =>
      finish({ text: size > limit ? '' : Buffer.concat(chunks).toString('utf8'), tooLarge: size > limit }),
    );
  });
}

/** Writes a JSON answer (or raw text when `raw` is set) unless the connection is gone. */
export function writeResponse(
  res: ServerResponse,
  status: number,
  headers: Readonly<Record<string, string>>,
  body: unknown,
  raw = false,
): void {
  if (res.writableEnded || res.destroyed) return;
  const text = raw ? String(body) : JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(text)),
    ...headers,
  });
  res.end(text);
}
