// Which project folders the user trusts, kept in the user config (~/.keel/config.json, key
// trustedFolders). Trusting a folder trusts what is inside it, by path segment.
import { realpathSync } from "node:fs";
import { join, resolve, sep } from "node:path";
import type { Env } from "../tool/context.ts";
import { atomicWriteJson, readJsonObject } from "./atomicJson.ts";
import { keelUserDir } from "./locations.ts";

export function userConfigPath(env: Env): string {
  return join(keelUserDir(env), "config.json");
}

function canonical(folder: string): string {
  const absolute = resolve(folder);
  try {
    return realpathSync.native(absolute);
  } catch {
    return absolute;
  }
}

function isWithin(child: string, parent: string): boolean {
  if (child === parent) return true;
  return child.startsWith(parent.endsWith(sep) ? parent : parent + sep);
}

function readTrusted(env: NodeJS.ProcessEnv): Record<string, string> {
  const config = readJsonObject(userConfigPath(env));
  const folders = config.trustedFolders;
  if (folders === null || typeof folders !== "object" || Array.isArray(folders)) return {};
  const result: Record<string, string> = {};
  for (const [path, when] of Object.entries(folders)) if (typeof when === "string") result[path] = when;
  return result;
}

export function listTrustedFolders(env: Env): Array<{ folder: string; trustedAt: string }> {
  return Object.entries(readTrusted(env)).map(([folder, trustedAt]) => ({ folder, trustedAt }));
}

/** The trusted folder covering `folder`, if any. */
export function findTrustingFolder(folder: string, env: Env): string | undefined {
  const target = canonical(folder);
  return Object.keys(readTrusted(env)).find((trusted) => isWithin(target, trusted));
}

export function isFolderTrusted(folder: string, env: Env): boolean {
  return findTrustingFolder(folder, env) !== undefined;
}

/** Remembers trust in the user config, keeping its other keys. */
export function trustFolder(folder: string, env: Env): string {
  const target = canonical(folder);
  const path = userConfigPath(env);
  const config = readJsonObject(path);
  const trusted = readTrusted(env);
  trusted[target] = new Date().toISOString();
  atomicWriteJson(path, { ...config, trustedFolders: trusted });
  return target;
}

/** Forgets trust of exactly this folder; true when it was trusted. */
export function revokeFolderTrust(folder: string, env: Env): boolean {
  const target = canonical(folder);
  const path = userConfigPath(env);
  const config = readJsonObject(path);
  const trusted = readTrusted(env);
  if (!(target in trusted)) return false;
  delete trusted[target];
  atomicWriteJson(path, { ...config, trustedFolders: trusted });
  return true;
}
