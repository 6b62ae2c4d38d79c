/** How a problem found in a command's input is said to its author: one sentence, naming the option as typed. */

/**
 * One problem with an input, as a sentence for its author. A message that starts with a lower-case word is said of
 * the field (`must be an email address`) and follows the name the field goes by, the one typed where known:
 * `email must be an email address.` Any other message (a sentence of its own, or one that starts with that name)
 * is shown as it is. Ends with a period.
 */
export function issueSentence(name: string, message: string): string {
  const text = message.trim();
  let said: string;
  if (name !== '' && text.startsWith(`${name} `)) said = text;
  else if (name !== '' && /^\p{Ll}/u.test(text)) said = `${name} ${text}`;
  else said = `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
  return /[.?!]$/.test(said) ? said : `${said}.`;
}

/** The problems a schema found, one sentence each (the first per field, five at most); `nameOf` names a field. */
export function issueLines(
  issues: ReadonlyArray<{ path: readonly PropertyKey[]; message: string }>,
  nameOf: (field: string) => string | null = () => null,
): string {
  const seen = new Set<string>();
  const lines: string[] = [];
  for (const issue of issues) {
    const [head, ...rest] = issue.path.map(String);
    const name = head === undefined ? '' : [nameOf(head) ?? head, ...rest].join('.');
    if (seen.has(name)) continue;
    seen.add(name);
    lines.push(issueSentence(name, issue.message));
  }
  return lines.slice(0, 5).join('\n');
}
