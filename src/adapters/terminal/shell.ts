/**
 * The terminal adapter: a readline shell over injected streams. It takes the same commands as chat (with or
 * without the leading `/scout`), prints replies as text and lets the person press buttons by number or words
 * (pages.ts: `[n]` on the latest answer, `details 2` on card 2 of the latest page). It works interactively, drawing
 * its prompt again below anything printed while a line is typed (screen.ts), and with piped input, which is how the
 * end-to-end tests drive it.
 */
import { randomUUID } from 'node:crypto';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import type { Actor, ChatCore } from '../../core/chat/index.js';
import { isRefusal, pressEvent, type Reply, type TextAction } from '../../core/ui/index.js';
import { DEFAULT_FILES_DIR, saveFile } from './files.js';
import { PAGES_KEPT, type Page, type Pressable, readTyped, renderForTerminal, type Shown } from './pages.js';
import { createScreen, type Screen } from './screen.js';

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
  /**
   * Whether the shell draws on a terminal: readline echoes what is typed, and the prompt is drawn again, with what was
   * typed, below anything printed meanwhile. By default, whether both streams are TTYs.
   */
  terminal?: boolean;
  /** Ctrl-C in a terminal (readline takes it from the keyboard, so no signal is sent): stops the shell by default. */
  onInterrupt?: () => void;
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
  /**
   * Prints something that arrived outside a reply (a background post) above the prompt and what is being typed; its
   * buttons become the pressable ones, and its cards, when it is a page, the latest page.
   */
  printPost(text: string, shown: Shown): void;
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
  const isTTY = (stream: unknown) => (stream as { isTTY?: boolean }).isTTY === true;
  const terminal = options.terminal ?? (isTTY(options.input) && isTTY(options.output));
  /** The latest answer with buttons: they are pressed by number. */
  let latest: Pressable = { actions: [], page: null };
  /** The pages shown, newest first, pressed by a word and a card's number. */
  let pages: readonly Page[] = [];
  let rl: ReturnType<typeof createInterface> | null = null;
  let screen: Screen | null = null;

  const write = (text: string) => {
    if (screen === null) options.output.write(text.endsWith('\n') ? text : `${text}\n`);
    else screen.print(text);
  };
  /** What an answer (or a background post) shown leaves to press. */
  const adopt = (shown: Shown) => {
    // A reply without elements (an error) leaves the last buttons pressable.
    if (shown.actions.length > 0) latest = { actions: shown.actions, page: shown.page };
    if (shown.page !== null) pages = [shown.page, ...pages].slice(0, PAGES_KEPT);
  };
  const filesDir = options.filesDir ?? DEFAULT_FILES_DIR;
  /** The buttons the line at work showed before its answer (Cancel while it waits for the service). */
  let interim: readonly TextAction[] = [];
  const show = async (reply: Reply, passing = false): Promise<readonly TextAction[]> => {
    const rendered = renderForTerminal(reply);
    // An interim message's buttons (Cancel while waiting) mean nothing once the answer is there.
    if (!passing) adopt(rendered);
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

  /** Handles a line; `pressable` is set for a press while a line is at work (its interim buttons alone). */
  const handle = async (line: string, pressable?: readonly TextAction[]) => {
    const trimmed = line.trim();
    if (trimmed === '') return;
    const read =
      pressable === undefined
        ? readTyped(trimmed, latest, pages)
        : readTyped(trimmed, { actions: pressable, page: null });
    if (read.kind === 'error') {
      write(`${read.message}\n`);
      return;
    }
    if (read.kind === 'presses') {
      for (const press of read.presses) {
        const event = pressEvent(press);
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
  const stop = () => {
    stopped = true;
    rl?.close();
  };

  return {
    async start() {
      stopped = false;
      const reader = terminal
        ? createInterface({ input: options.input, output: options.output, terminal: true, prompt })
        : createInterface({ input: options.input, terminal: false });
      rl = reader;
      reader.on('SIGINT', () => (options.onInterrupt ?? stop)());
      // A closed output (`npm start | head`) ends the session instead of crashing the process.
      options.output.on('error', () => rl?.close());
      if (options.greeting !== undefined) write(options.greeting);
      const display = createScreen(reader, options.output, prompt, terminal);
      screen = display;
      display.ready();
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
      const interactive = terminal || isTTY(options.input);
      const pressesNow = (line: string, pressable: readonly TextAction[]) =>
        (interactive || !/\d/.test(line)) &&
        readTyped(line, { actions: pressable, page: null }).kind === 'presses';
      const lines = reader[Symbol.asyncIterator]();
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
        display.busy();
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
        // With lines typed ahead still to answer, the prompt waits for them.
        if (!terminal || pending.length === 0) display.ready();
      }
      reader.close();
      rl = null;
      screen = null;
    },
    stop,
    printPost(text, posted) {
      write(text);
      adopt(posted);
    },
  };
}
