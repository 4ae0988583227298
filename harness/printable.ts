// Text from outside (a target's ids, error fields and refusal reasons, a
// sender's checkout ids and statuses, a URL a user typed) made safe for a
// terminal. A terminal acts on control characters: ESC and the C1 CSI (U+009B)
// start sequences that move the cursor, rewrite lines, set the window title or
// plant a link; CR and LF overwrite or add lines (a fake verdict line); bidi
// overrides reorder what is shown. Each such character is shown as a visible
// escape (ESC as \x1B, U+202E as \u202E), so the reader sees that it was
// there and nothing acts on it. Applied once, where a terminal line is built.

/** C0 and C1 controls, DEL, zero-width and direction marks, line and paragraph separators, bidi embeddings, overrides and isolates, BOM. */
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff]/g;

const escape = (ch: string): string => {
  const n = ch.charCodeAt(0);
  return n < 0x100 ? `\\x${n.toString(16).toUpperCase().padStart(2, '0')}` : `\\u${n.toString(16).toUpperCase().padStart(4, '0')}`;
};

/** `s` with every control, C1, bidi and invisible formatting character shown as an escape. */
export function printable(s: string): string {
  return s.replace(UNPRINTABLE, escape);
}

/** Like printable, but keeps line breaks (text that is several lines on purpose, such as a link to open). */
export function printableLines(s: string): string {
  return s.split('\n').map(printable).join('\n');
}

