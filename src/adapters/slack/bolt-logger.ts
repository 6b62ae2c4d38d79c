/** Bolt's messages, through Scout's logger. */
import type { Logger as SlackLogger } from '@slack/bolt';
import type { Logger } from '../../core/logger.js';
import { LogLevel } from './bolt.js';

// Socket Mode logs every frame it receives at debug level, form submissions (and keys typed in them) included.
const PAYLOAD_LINE = /^(Received a message on the WebSocket|Unable to parse an incoming WebSocket message)/;

/** Bolt's logger interface over our logger, so Bolt's messages are structured and redacted like ours. */
export function boltLogger(logger: Logger): SlackLogger {
  let level = LogLevel.INFO;
  const child = logger.child({ component: 'slack' });
  const text = (parts: unknown[]) =>
    parts.map((p) => (typeof p === 'string' ? p : JSON.stringify(p))).join(' ');
  return {
    debug: (...parts: unknown[]) => {
      const line = text(parts);
      child.debug(PAYLOAD_LINE.test(line) ? `${line.split(':')[0]} (payload not logged)` : line);
    },
    info: (...parts: unknown[]) => child.info(text(parts)),
    warn: (...parts: unknown[]) => child.warn(text(parts)),
    error: (...parts: unknown[]) => child.error(text(parts)),
    setLevel: (next: LogLevel) => {
      level = next;
    },
    getLevel: () => level,
    setName: () => {},
  };
}
