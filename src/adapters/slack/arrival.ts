/**
 * When a Slack request arrived, for the ack latency metric: Scout's HTTP server stamps each request as it comes in,
 * Bolt's receivers copy the stamp into the listener's context (their `customPropertiesExtractor`), and the
 * listener measures from it to the moment its ack was sent, and the working message is timed from it. In Socket Mode
 * the stamp is taken as the envelope is read.
 */
import type { IncomingMessage } from 'node:http';

/** The context property (and request property) holding the arrival time, in performance.now() milliseconds. */
const ARRIVED_AT = 'scoutArrivedAt';

/** Stamps `req` with the time it arrived. */
export function markArrival(req: IncomingMessage): void {
  Object.assign(req, { [ARRIVED_AT]: performance.now() });
}

/** The HTTPReceiver's extractor: the request's stamp (now, for a request Scout's server did not see arrive). */
export function httpArrival(req: IncomingMessage): Record<string, number> {
  const stamped = (req as IncomingMessage & { [ARRIVED_AT]?: unknown })[ARRIVED_AT];
  return { [ARRIVED_AT]: typeof stamped === 'number' ? stamped : performance.now() };
}

/** The SocketModeReceiver's extractor: the envelope arrived now. */
export function socketArrival(): Record<string, number> {
  return { [ARRIVED_AT]: performance.now() };
}

/** A listener context's arrival stamp, in performance.now() milliseconds; undefined when it has none. */
export function arrivalOf(context: { readonly [key: string]: unknown }): number | undefined {
  const arrived = context[ARRIVED_AT];
  return typeof arrived === 'number' ? arrived : undefined;
}

/** Seconds from a listener context's arrival stamp (or `fallback`, when it has none) to now. */
export function secondsSinceArrival(context: { readonly [key: string]: unknown }, fallback: number): number {
  return (performance.now() - (arrivalOf(context) ?? fallback)) / 1000;
}
