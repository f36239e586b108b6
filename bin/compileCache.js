// Node's on-disk cache of compiled code (Node >= 22.1) takes ~60 ms off every start. Node's default
// folder (<tmp>/node-compile-cache) is shared by every program and user and never shrinks: each build of
// Keel names its chunks anew, so it grew by ~100 files a build, without end. Keel keeps its own instead,
// in its private per-user folder: <tmp>/keel-<uid>/compile-cache/<build>, one folder per build, and the
// first start of a build removes all but the two most recent other builds' folders. When the folders
// cannot be made private (another user's, a symlink), nothing is cached: a planted cache would be code.
// The folders are checked and made by the same code as Keel's other private folders (tool/privateFolder.ts).

/** The folder this build's compiled code is cached in; throws when it cannot be kept private. */
async function cacheFolder(fs, entryFile, uid) {
  const { ensurePrivateFolder, isPrivateFolder, tmpFolder } = await import("../dist/tool/privateFolder.js");
  const stat = fs.statSync(entryFile);
  const build = `${stat.size.toString(36)}-${Math.trunc(stat.mtimeMs).toString(36)}`;
  const root = `${tmpFolder(process.env)}/keel-${uid}`;
  const caches = `${root}/compile-cache`;
  const folder = `${caches}/${build}`;
  // The usual start: the folders are there, this user's, closed to others.
  if ([root, caches, folder].every((path) => isPrivateFolder(path, uid))) return folder;
  ensurePrivateFolder(folder, root);
  removeOlderBuilds(fs, caches, build);
  return folder;
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
export async function enableCompileCache(module, fs, entryFile) {
  const uid = process.getuid?.();
  if (!module.enableCompileCache || uid === undefined) return;
  try {
    module.enableCompileCache(await cacheFolder(fs, entryFile, uid));
  } catch {}
}
