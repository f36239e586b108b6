// The names Keel gives to what it puts beside a user's file while writing it: the temporary copy of an
// atomic write (`.name.<pid>.<hex>.keel-tmp`) and the lock other processes see (`.name.keel-lock`).
// One place for the patterns, so writing, cleaning up and hiding them from listings agree.
import { basename, dirname, join } from "node:path";
import { randomBytes } from "../../tool/lazyCrypto.ts";

const TEMP_MARKER = ".keel-tmp";
const LOCK_MARKER = ".keel-lock";
const TEMP_NAME = /^\..+\.(\d+)\.[0-9a-f]+\.keel-tmp$/;

/** A fresh temporary name beside `target`, carrying this process's pid (how cleanup tells its owner). */
export function tempPathFor(target: string): string {
  return join(
    dirname(target),
    `.${basename(target)}.${process.pid}.${randomBytes(4).toString("hex")}${TEMP_MARKER}`,
  );
}

/** The lock folder beside `target` that every Keel process writing it takes first. */
export function lockPathFor(target: string): string {
  return join(dirname(target), `.${basename(target)}${LOCK_MARKER}`);
}

/** A temporary file of an atomic write. */
export function isAtomicTempName(name: string): boolean {
  return name.startsWith(".") && name.endsWith(TEMP_MARKER);
}

export function isLockName(name: string): boolean {
  return name.startsWith(".") && name.endsWith(LOCK_MARKER) && name.length > LOCK_MARKER.length + 1;
}

/** Anything Keel leaves beside a file only while writing it: never shown in listings. */
export function isKeelWorkName(name: string): boolean {
  return isAtomicTempName(name) || isLockName(name);
}

/** The pid in a temporary file's name, or undefined when the name is not one of ours. */
export function tempNameOwner(name: string): number | undefined {
  const match = TEMP_NAME.exec(name);
  return match ? Number(match[1]) : undefined;
}

/** rg globs that leave Keel's work names out of a search or listing (a later glob wins in rg: put these last). */
export const KEEL_WORK_NAME_EXCLUSIONS: readonly string[] = [
  `--glob=!.*${TEMP_MARKER}`,
  `--glob=!.*${LOCK_MARKER}`,
];
