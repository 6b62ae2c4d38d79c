/**
 * What the shell prints, and its prompt. In a terminal, readline draws the prompt and echoes what is typed: text that
 * arrives while something is typed or the prompt is shown (a background post, a wait's notice, an answer) is printed
 * above it, and the prompt is drawn again below with what was typed, the cursor where it was. Elsewhere (piped
 * input, the tests' streams) text and prompt are written as they come.
 */
import { clearScreenDown, cursorTo, type Interface, moveCursor } from 'node:readline';
import type { Writable } from 'node:stream';

/** The shell's output. */
export interface Screen {
  /** Prints `text` (a line end added when missing). */
  print(text: string): void;
  /** Shows the prompt: the shell waits for a line. */
  ready(): void;
  /** A line was taken: the prompt is not shown until ready() (what is typed meanwhile still is). */
  busy(): void;
}

/** Creates the screen of `rl`; `terminal` says whether readline draws on `output` (see TerminalOptions). */
export function createScreen(rl: Interface, output: Writable, prompt: string, terminal: boolean): Screen {
  let closed = false;
  rl.once('close', () => {
    closed = true;
  });
  /** Whether readline has something drawn on the current line: the prompt, or what is typed. */
  let resting = false;
  const drawn = () => terminal && !closed && (resting || rl.line !== '');
  return {
    print(text) {
      const out = text.endsWith('\n') ? text : `${text}\n`;
      if (!drawn()) {
        output.write(out);
        return;
      }
      // Back to where the prompt begins (what is typed may span rows), cleared; then the text, and as many new rows
      // as readline climbs back when it redraws the prompt (prompt(true): `preserveCursor`, what was typed kept).
      const { rows } = rl.getCursorPos();
      moveCursor(output, 0, -rows);
      cursorTo(output, 0);
      clearScreenDown(output);
      output.write(out + '\n'.repeat(rows));
      rl.prompt(true);
    },
    ready() {
      resting = true;
      if (!terminal) {
        if (prompt) output.write(prompt);
        return;
      }
      if (closed) return;
      // Redrawn in place: what was typed while the last line was at work stays, now after the prompt.
      rl.setPrompt(prompt);
      rl.prompt(true);
    },
    busy() {
      resting = false;
      if (terminal && !closed) rl.setPrompt('');
    },
  };
}
