/**
 * The parts of Bolt Scout uses, loaded from their own modules. Bolt's index also loads its Express and AWS Lambda
 * receivers, which Scout never uses (Express alone is about a tenth of a second of every start); Bolt publishes no
 * exports map, and its modules are CommonJS, so they are required here and typed from the index's declarations.
 */
import { createRequire } from 'node:module';
import type * as Bolt from '@slack/bolt';
import type * as BoltHelpers from '@slack/bolt/dist/helpers.js';

const require = createRequire(import.meta.url);
/** Requires a module as Bolt resolves it, so its own dependencies are the versions it was installed with. */
const fromBolt = createRequire(require.resolve('@slack/bolt'));

/** Bolt's App. */
export const BoltApp: typeof Bolt.App = fromBolt('./App.js').default;
/** A Bolt app (the type). */
export type BoltApp = Bolt.App;
/** Bolt's HTTP receiver (its request listener serves Scout's own HTTP server). */
export const HTTPReceiver: typeof Bolt.HTTPReceiver = fromBolt('./receivers/HTTPReceiver.js').default;
/** Bolt's Socket Mode receiver. */
export const SocketModeReceiver: typeof Bolt.SocketModeReceiver = fromBolt(
  './receivers/SocketModeReceiver.js',
).default;
/** Bolt's helpers for answering HTTP requests. */
export const HTTPModuleFunctions: typeof Bolt.HTTPModuleFunctions = fromBolt(
  './receivers/HTTPModuleFunctions.js',
);
/** The codes of Bolt's errors. */
export const ErrorCode: typeof Bolt.ErrorCode = fromBolt('./errors.js').ErrorCode;
/** Bolt's log levels. */
export const LogLevel: typeof Bolt.LogLevel = fromBolt('@slack/logger').LogLevel;
/** A Bolt log level (the type). */
export type LogLevel = Bolt.LogLevel;
/** Slack's Web API client, as Bolt re-exports it. */
export const WebClient: typeof Bolt.webApi.WebClient = fromBolt('@slack/web-api').WebClient;
/** The codes of the Web API client's errors. */
export const WebApiErrorCode: typeof Bolt.webApi.ErrorCode = fromBolt('@slack/web-api').ErrorCode;
/** Bolt's helpers, which its index does not export: among them, how Bolt routes a request body. */
const helpers: typeof BoltHelpers = fromBolt('./helpers.js');
/** How Bolt routes a request body: the kind of listener it goes to (an event, a command, an action...), if any. */
export const getTypeAndConversation = helpers.getTypeAndConversation;
/** The kinds of request Bolt routes a body to. */
export const IncomingEventType = helpers.IncomingEventType;
/** A kind of request Bolt routes a body to (the type). */
export type IncomingEventType = BoltHelpers.IncomingEventType;
