/**
 * The terminal adapter: a readline shell over injected streams. It takes the same commands as chat (with or
 * without the leading `/scout`), prints replies as text and lets the person press buttons by number or words.
 * It works interactively and with piped input, which is how the end-to-end tests drive it.
 */
import { randomUUID } from 'node:crypto';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import type { Actor, ChatCore } from '../../core/chat/index.js';
import { isRefusal, type Reply, readPresses, renderText, type TextAction } from '../../core/ui/index.js';
import { DEFAULT_FILES_DIR, saveFile } from './files.js';

/** What the shell needs. */
export interface TerminalOptions {
  input: Readable;
  output: Writable;
  /** The chat port: lines and presses are dispatched through it. */
  chat: Pick<ChatCore, 'text' | 'action'>;
  /** The local person; the terminal user is the workspace admin of the `local` workspace. */
  actor?: Actor;
  channelId?: string;
  /** Printed before each command when interactive; empty for piped input. */
  prompt?: string;
  /** A first message, such as how to get started. */
  greeting?: string;
  /** Where the files of replies (exports) are saved; DEFAULT_FILES_DIR of the working folder by default. */
  filesDir?: string;
}

/** A running shell. */
export interface TerminalShell {
  /**
   * Reads and handles lines until the input ends or `exit`, then resolves once every line read has been answered (the
   * process stays up meanwhile, even when nothing else holds it).
   */
  start(): Promise<void>;
  /** Stops reading: the line at work is the last (stopping the app cancels its waits); lines still queued are dropped. */
  stop(): void;
  /** Makes the buttons of something printed outside a reply (a background post) the pressable ones. */
  adoptActions(actions: readonly TextAction[]): void;
}

/** Period of the timer that keeps the process running while a line is at work; it never needs to fire. */
const KEEP_ALIVE_MS = 2 ** 30;

/** The default local person. */
export const LOCAL_ACTOR: Actor = {
  platform: 'terminal',
  workspaceId: 'local',
  userId: 'me',
  userName: 'you',
  isAdmin: true,
};

/** Creates the shell. */
export function createTerminal(options: TerminalOptions): TerminalShell {
  const actor = options.actor ?? LOCAL_ACTOR;
  const channelId = options.channelId ?? 'terminal';
  const prompt = options.prompt ?? '';
  let actions: readonly TextAction[] = [];
  let rl: ReturnType<typeof createInterface> | null = null;

  const write = (text: string) => {
    options.output.write(text.endsWith('\n') ? text : `${text}\n`);
  };
  const filesDir = options.filesDir ?? DEFAULT_FILES_DIR;
  /** The buttons the line at work showed before its answer (Cancel while it waits for the service). */
  let interim: readonly TextAction[] = [];
  const show = async (reply: Reply, passing = false): Promise<readonly TextAction[]> => {
    const rendered = renderText(reply);
    // A reply without elements (an error) leaves the last buttons pressable; so does an interim message, whose
    // buttons (Cancel while waiting) mean nothing once the answer is there.
    if (rendered.actions.length > 0 && !passing) actions = rendered.actions;
    write(`${rendered.text}\n`);
    // A terminal has no attachments: each file is saved, and its path printed for the person to open.
    for (const attachment of reply.files ?? []) {
      try {
        write(`File saved: ${await saveFile(filesDir, attachment)}\n`);
      } catch (error) {
        write(
          `Could not save ${attachment.name}: ${error instanceof Error ? error.message : String(error)}\n`,
        );
      }
    }
    return rendered.actions;
  };
  const progress = async (reply: Reply) => {
    const shown = await show(reply, true);
    if (shown.length > 0) interim = shown;
  };
  const invocation = { actor, channelId, progress };
  // Each session is a conversation of its own: a follow-up never acts on buttons a new session has not shown.
  const conversation = `terminal:${randomUUID()}`;

  const handle = async (line: string, pressable: readonly TextAction[] = actions) => {
    const trimmed = line.trim();
    if (trimmed === '') return;
    const read = readPresses(trimmed, pressable);
    if (read.kind === 'error') {
      write(`${read.message}\n`);
      return;
    }
    if (read.kind === 'presses') {
      for (const press of read.presses) {
        const event = press.value === undefined ? {} : { value: press.value };
        const answer = await options.chat.action({ ...invocation, token: press.actionId, event });
        await show(answer);
        // The same refusal would follow every press (a list that does not exist): said once.
        if (isRefusal(answer)) break;
      }
      return;
    }
    await show(await options.chat.text({ ...invocation, text: trimmed, conversation }));
  };

  /** Set by stop(): no further line is started, and the line at work is the last. */
  let stopped = false;

  return {
    async start() {
      stopped = false;
      rl = createInterface({ input: options.input, terminal: false });
      // A closed output (`npm start | head`) ends the session instead of crashing the process.
      options.output.on('error', () => rl?.close());
      if (options.greeting !== undefined) write(options.greeting);
      if (prompt) options.output.write(prompt);
      const attempt = async (line: string, pressable?: readonly TextAction[]) => {
        try {
          await handle(line, pressable);
        } catch (error) {
          write(`Error: ${error instanceof Error ? error.message : String(error)}\n`);
        }
      };
      // Piped input was written before any answer: a press by number in it (`1`, `press 1`, `add 1 to Spring`) means
      // a button of the answer before it, never the Cancel of a wait the script could not see coming; `cancel` does.
      // A person at the keyboard presses what they see.
      const interactive = (options.input as { isTTY?: boolean }).isTTY === true;
      const pressesNow = (line: string, pressable: readonly TextAction[]) =>
        (interactive || !/\d/.test(line)) && readPresses(line, pressable).kind === 'presses';
      const lines = rl[Symbol.asyncIterator]();
      let next = lines.next();
      /** Lines typed while an earlier one was at work, in order. */
      const pending: string[] = [];
      let ended = false;
      // One line at a time, so piped commands run in order, each after the previous reply. The one exception: while
      // a line is at work, a press of a button it showed meanwhile (Cancel while it waits for the service) is handled
      // at once, or that button could never be pressed before the wait it cancels is over.
      for (;;) {
        let line = pending.shift();
        if (line === undefined && !ended) {
          const read = await next;
          if (read.done === true) ended = true;
          else {
            line = read.value;
            next = lines.next();
          }
        }
        if (stopped || line === undefined || /^(exit|quit|:q)$/i.test(line.trim())) break;
        interim = [];
        // Once the input has ended nothing else may keep Node running: the waits inside a call (a 429's Retry-After,
        // the rate window, a retry's back-off) are unref'd timers, so the process would exit before the answer.
        const keepAlive = setInterval(() => undefined, KEEP_ALIVE_MS);
        let done = false;
        const work = attempt(line).finally(() => {
          done = true;
        });
        while (!ended) {
          const arrived = await Promise.race([work.then(() => null), next]);
          if (arrived === null) break;
          if (arrived.done === true) {
            ended = true;
            break;
          }
          next = lines.next();
          const pressable = interim;
          if (!done && pressesNow(arrived.value.trim(), pressable)) await attempt(arrived.value, pressable);
          else pending.push(arrived.value);
        }
        await work;
        clearInterval(keepAlive);
        interim = [];
        if (prompt) options.output.write(prompt);
      }
      rl.close();
      rl = null;
    },
    stop() {
      stopped = true;
      rl?.close();
    },
    adoptActions(posted) {
      if (posted.length > 0) actions = posted;
    },
  };
}
