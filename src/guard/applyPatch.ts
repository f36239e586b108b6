// The files a Codex `apply_patch` envelope touches: every `*** Add File:`, `*** Update File:`,
// `*** Delete File:` and `*** Move to:` header. A patch Keel cannot read has no files, so no opinion.

const FILE_HEADER = /^\*\*\* (?:Add File|Update File|Delete File|Move to): (.+)$/;

export function patchedFiles(patch: string): string[] {
  const lines = patch.split(/\r?\n/);
  const begin = lines.findIndex((line) => line.trim() === "*** Begin Patch");
  if (begin === -1) return [];
  const files: string[] = [];
  for (const line of lines.slice(begin + 1)) {
    if (line.trim() === "*** End Patch") return files;
    const header = line.match(FILE_HEADER);
    if (header?.[1] && !files.includes(header[1].trim())) files.push(header[1].trim());
  }
  // No end marker: Codex would reject the patch; Keel does not guess which files it meant.
  return [];
}
