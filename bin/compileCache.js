// Node's on-disk cache of compiled code (Node >= 22.1) takes ~60 ms off every start. Node's default
// folder (<tmp>/node-compile-cache) is shared by every program and user and never shrinks: each build of
// Keel names its chunks anew, so it grew by ~100 files a build, without end. Keel keeps its own instead,
// in its private per-user folder: <tmp>/keel-<uid>/compile-cache/<build>, one folder per build, and the
// first start of a build removes all but the two most recent other builds' folders. When the folders
// cannot be made private (another user's, a symlink), nothing is cached: a planted cache would be code.

/** The folder this build's compiled code is cached in, or undefined when it cannot be kept private. */
function cacheFolder(fs, entryFile) {
  const uid = process.getuid?.();
  if (uid === undefined) return undefined;
  const env = process.env;
  const given = env.TMPDIR || env.TMP || env.TEMP || "/tmp";
  const tmp = given.length > 1 ? given.replace(/\/+$/, "") : given;
  const stat = fs.statSync(entryFile);
  const build = `${stat.size.toString(36)}-${Math.trunc(stat.mtimeMs).toString(36)}`;
  const caches = `${tmp}/keel-${uid}/compile-cache`;
  const folder = `${caches}/${build}`;
  const chain = [`${tmp}/keel-${uid}`, caches, folder];
  // The usual start: the three folders are there, this user's, closed to others.
  if (chain.every((path) => isPrivate(fs, path, uid))) return folder;
  for (const path of chain) {
    try {
      fs.mkdirSync(path, { mode: 0o700 });
    } catch (error) {
      if (error?.code !== "EEXIST") return undefined;
    }
    const made = fs.lstatSync(path);
    if (!made.isDirectory() || made.uid !== uid) return undefined;
    if ((made.mode & 0o077) !== 0) fs.chmodSync(path, 0o700);
  }
  removeOlderBuilds(fs, caches, build);
  return folder;
}

function isPrivate(fs, path, uid) {
  try {
    const stat = fs.lstatSync(path);
    return stat.isDirectory() && stat.uid === uid && (stat.mode & 0o077) === 0;
  } catch {
    return false;
  }
}

/** Keeps this build's folder and the two most recently made others (another checkout of Keel, say). */
function removeOlderBuilds(fs, caches, build) {
  const others = [];
  for (const name of fs.readdirSync(caches)) {
    if (name === build) continue;
    try {
      others.push({ name, made: fs.lstatSync(`${caches}/${name}`).mtimeMs });
    } catch {}
  }
  others.sort((a, b) => b.made - a.made);
  for (const { name } of others.slice(2)) fs.rmSync(`${caches}/${name}`, { recursive: true, force: true });
}

/** Turns the cache on for this process; a start never fails because of it. */
export function enableCompileCache(module, fs, entryFile) {
  if (!module.enableCompileCache) return;
  try {
    const folder = cacheFolder(fs, entryFile);
    if (folder) module.enableCompileCache(folder);
  } catch {}
}
