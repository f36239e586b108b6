// Names for files Keel creates beside others (Bash output files, temp files of atomic writes): unique
// among every process, without crypto to load or entropy to draw. The time and the process id tell
// processes apart, the counter this process's names.
let issued = 0;

export function uniqueName(): string {
  return `${Date.now()}-${process.pid}-${++issued}`;
}
