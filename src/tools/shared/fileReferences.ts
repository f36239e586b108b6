// `@path` references in Markdown: memory files import other files with them, and custom slash commands
// include files with them. Code spans and fenced blocks are not read; URLs and e-mail addresses are not references.
/** `@path` references outside code spans and fenced blocks. */
export function importReferences(content: string): string[] {
  const references: string[] = [];
  let fenced = false;
  for (const line of content.split("\n")) {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      continue;
    }
    if (fenced) continue;
    const withoutCode = line.replace(/`[^`]*`/g, "");
    for (const match of withoutCode.matchAll(/(?:^|\s)@((?:~\/|\.{1,2}\/|\/)?[^\s@`]+)/g)) {
      const reference = match[1]!.replace(/[.,;:)]+$/, "");
      if (reference && !reference.includes("://")) references.push(reference);
    }
  }
  return references;
}
