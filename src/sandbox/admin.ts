/** Out-of-band routes of the sandbox under `/__sandbox/` (no key): health, fault injection, new replies. */

import type { InboundReplyOptions } from './data/replies.js';
import type { PlainAnswer } from './server/handler.js';
import { SandboxHttpError } from './server/http.js';
import { isObject } from './server/input.js';
import type { SandboxFault } from './types.js';

/** Validates a fault description; throws an Error naming what is wrong. */
export function parseFault(value: unknown): SandboxFault {
  if (!isObject(value)) throw new SandboxHttpError(400, 'fault must be an object with a kind');
  const optionalNumber = (name: string): number | undefined => {
    const raw = value[name];
    if (raw === undefined || raw === null) return undefined;
    if (typeof raw !== 'number' || !Number.isInteger(raw))
      throw new SandboxHttpError(400, `fault.${name} must be an integer`);
    return raw;
  };
  switch (value.kind) {
    case 'rate-limit': {
      const retryAfterSeconds = optionalNumber('retryAfterSeconds');
      if (retryAfterSeconds !== undefined && retryAfterSeconds < 0)
        throw new SandboxHttpError(400, 'fault.retryAfterSeconds must be >= 0');
      return retryAfterSeconds === undefined
        ? { kind: 'rate-limit' }
        : { kind: 'rate-limit', retryAfterSeconds };
    }
    case 'server-error': {
      const status = optionalNumber('status');
      if (status !== undefined && (status < 500 || status > 599))
        throw new SandboxHttpError(400, 'fault.status must be a 5xx status');
      return status === undefined ? { kind: 'server-error' } : { kind: 'server-error', status };
    }
    case 'timeout':
      return { kind: 'timeout' };
    case 'malformed-json':
      return { kind: 'malformed-json' };
    case 'error-shape': {
      const status = optionalNumber('status');
      if (status === undefined || status < 100 || status > 599)
        throw new SandboxHttpError(400, 'fault.status must be an HTTP status');
      const headers = value.headers;
      if (
        headers !== undefined &&
        (!isObject(headers) || Object.values(headers).some((h) => typeof h !== 'string'))
      ) {
        throw new SandboxHttpError(400, 'fault.headers must map header names to strings');
      }
      return headers === undefined
        ? { kind: 'error-shape', status, body: value.body }
        : { kind: 'error-shape', status, body: value.body, headers: headers as Record<string, string> };
    }
    default:
      throw new SandboxHttpError(
        400,
        'fault.kind must be rate-limit, server-error, timeout, malformed-json or error-shape',
      );
  }
}

/** What the admin routes act on. */
export interface AdminTarget {
  readonly urls: () => { url: string; mediaUrl: string; outputUrl: string };
  injectFaults(key: string, fault: SandboxFault, count: number): void;
  addInboundReply(teamId: string, options: InboundReplyOptions): unknown;
}

function readReplyOptions(body: Record<string, unknown>): InboundReplyOptions {
  const options: InboundReplyOptions = {};
  for (const name of ['threadId', 'projectId', 'creatorEmail', 'body'] as const) {
    const value = body[name];
    if (value === undefined || value === null) continue;
    if (typeof value !== 'string') throw new SandboxHttpError(400, `${name} must be a string`);
    options[name] = value;
  }
  return options;
}

/** Creates the admin route handler. */
export function createAdmin(
  target: AdminTarget,
): (method: string, path: string, text: string) => PlainAnswer {
  return (method, path, text) => {
    const route = `${method} ${path}`;
    if (route === 'GET /__sandbox/health') return { status: 200, body: { status: 'ok', ...target.urls() } };
    if (route !== 'POST /__sandbox/faults' && route !== 'POST /__sandbox/replies') {
      return { status: 404, body: { error: `No admin route ${route}` } };
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return { status: 400, body: { error: 'The body must be JSON' } };
    }
    try {
      if (!isObject(body)) throw new SandboxHttpError(400, 'The body must be a JSON object');
      if (route === 'POST /__sandbox/faults') {
        if (typeof body.key !== 'string') throw new SandboxHttpError(400, 'key must be a string');
        const fault = parseFault(body.fault);
        const count = body.count ?? 1;
        if (typeof count !== 'number' || !Number.isInteger(count) || count < 1) {
          throw new SandboxHttpError(400, 'count must be a positive integer');
        }
        target.injectFaults(body.key, fault, count);
        return { status: 200, body: { key: body.key, fault, count } };
      }
      if (typeof body.teamId !== 'string' || body.teamId === '')
        throw new SandboxHttpError(400, 'teamId must be a string');
      return { status: 200, body: { message: target.addInboundReply(body.teamId, readReplyOptions(body)) } };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return { status: error instanceof SandboxHttpError ? error.status : 400, body: { error: message } };
    }
  };
}
