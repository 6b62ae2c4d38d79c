/** A raw TCP client of the adapter's HTTP server, for requests no HTTP client sends: slow, stalled, oversized. */
import { connect, type Socket } from 'node:net';

/** An open connection and what the server did with it. */
export interface RawClient {
  readonly socket: Socket;
  /** Everything the server sent so far. */
  received(): string;
  /** Whether the server has closed (or reset) the connection. */
  isClosed(): boolean;
  /** Resolves once the connection is closed, whoever closed it. */
  readonly closed: Promise<void>;
  /** Writes `data` and waits until it was handed to the kernel; false when the connection is gone. */
  write(data: string | Buffer): Promise<boolean>;
}

/** Opens a connection to 127.0.0.1:`port`; resolves once connected. */
export function openRaw(port: number | null): Promise<RawClient> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port: port ?? 0 });
    let text = '';
    let closed = false;
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      text += chunk;
    });
    // A reset after the server's answer (it closed with part of an upload unread) is how such a connection ends.
    socket.on('error', () => {});
    const onClose = new Promise<void>((done) =>
      socket.once('close', () => {
        closed = true;
        done();
      }),
    );
    socket.once('connect', () =>
      resolve({
        socket,
        received: () => text,
        isClosed: () => closed,
        closed: onClose,
        write: (data) =>
          new Promise<boolean>((done) => {
            if (closed || socket.destroyed) {
              done(false);
              return;
            }
            socket.write(data, (error) => done(error === undefined || error === null));
          }),
      }),
    );
    socket.once('error', reject);
  });
}

/** The request line and headers of a POST to the events endpoint, ending the header block. */
export function eventHeaders(headers: Record<string, string>): string {
  const lines = Object.entries({ Host: '127.0.0.1', ...headers }).map(([name, value]) => `${name}: ${value}`);
  return `POST /slack/events HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n`;
}

/** Waits `ms` milliseconds. */
export const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
