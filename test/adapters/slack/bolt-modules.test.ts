/**
 * The Slack adapter loads Bolt's parts from their own modules (src/adapters/slack/bolt.ts): they must be the very
 * classes and values Bolt's index exports, so an upgrade of Bolt that moves them fails here, not at a start.
 */
import * as Bolt from '@slack/bolt';
import { describe, expect, it } from 'vitest';
import {
  BoltApp,
  ErrorCode,
  getTypeAndConversation,
  HTTPModuleFunctions,
  HTTPReceiver,
  IncomingEventType,
  LogLevel,
  SocketModeReceiver,
  WebApiErrorCode,
  WebClient,
} from '../../../src/adapters/slack/bolt.js';

describe("Bolt's parts, from their own modules", () => {
  it('are what Bolt exports', () => {
    expect(BoltApp).toBe(Bolt.App);
    expect(HTTPReceiver).toBe(Bolt.HTTPReceiver);
    expect(SocketModeReceiver).toBe(Bolt.SocketModeReceiver);
    expect(HTTPModuleFunctions.parseHTTPRequestBody).toBe(Bolt.HTTPModuleFunctions.parseHTTPRequestBody);
    expect(ErrorCode).toBe(Bolt.ErrorCode);
    expect(LogLevel).toBe(Bolt.LogLevel);
    expect(WebClient).toBe(Bolt.webApi.WebClient);
    expect(WebApiErrorCode).toBe(Bolt.webApi.ErrorCode);
  });

  it("include Bolt's routing of a request body, which its index does not export", () => {
    expect(getTypeAndConversation({ command: '/scout' }).type).toBe(IncomingEventType.Command);
    expect(getTypeAndConversation({ type: 'block_actions', actions: [] }).type).toBe(
      IncomingEventType.Action,
    );
    expect(getTypeAndConversation({ type: 'view_submission' }).type).toBe(IncomingEventType.ViewAction);
    expect(getTypeAndConversation({ event: { type: 'app_mention' } }).type).toBe(IncomingEventType.Event);
    expect(getTypeAndConversation({ type: 'block_actions' }).type).toBeUndefined();
  });
});
