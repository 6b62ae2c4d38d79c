/**
 * Listening helpers of the Slack adapter's servers: Scout's own (HTTP mode, the Socket Mode health server) and
 * the one Bolt's SocketModeReceiver keeps for the install pages.
 */
import { Server } from 'node:http';
import type { SocketModeReceiver } from '@slack/bolt';
import { ListenError } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';

/** Listens on `port`; rejects when it cannot (a port in use). */
export const listen = (server: Server, port: number) =>
  new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, () => {
      server.off('error', reject);
      resolve();
    });
  });

/**
 * The server Bolt's SocketModeReceiver serves the install pages on when OAuth is on. Bolt keeps it in a field its
 * types call private (`httpServer`) and starts it with a bare `listen(port)`, so a busy port would be an uncaught
 * 'error' after a start that seemed to succeed; null when there is none (or a Bolt version keeps it elsewhere).
 */
export function installPagesServer(receiver: SocketModeReceiver): Server | null {
  const found = (receiver as unknown as { httpServer?: unknown }).httpServer;
  return found instanceof Server ? found : null;
}

/** Resolves once `server` listens; rejects when it cannot. Any later error is logged, never left uncaught. */
export function watchListening(server: Server, port: number, logger: Logger): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('listening', () => resolve());
    server.on('error', (error: NodeJS.ErrnoException) => {
      logger.error({ err: error, port }, 'The Slack install pages server failed.');
      reject(
        new ListenError(
          `The Slack install pages could not listen on PORT ${port} (${error.code ?? error.message}).`,
          { cause: error },
        ),
      );
    });
  });
}
