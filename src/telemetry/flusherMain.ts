// The detached flusher process (started by ensureFlusher in flusher.ts): `node flusherMain.js <spool
// folder> <idle ms> <token>`. It exports the spool, then waits for more and exits when idle; it prints
// nothing.
import { runFlusher } from "./flusher.ts";

const [root, idle, token] = process.argv.slice(2);
if (root && token) await runFlusher(root, Number(idle) > 0 ? Number(idle) : 30_000, token).catch(() => {});
