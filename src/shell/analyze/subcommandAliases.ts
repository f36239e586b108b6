// Other spellings of the same subcommand, for deny and ask rules: npm's aliases and unique
// abbreviations (`npm i`, `npm pub`, `npm runScript` are install, publish, run), pnpm's aliases,
// docker's management forms (`docker container rm` is `docker rm`), and versioned program names
// (`pip3`, `python3.12` are pip and python to a rule naming those).
import { words } from "./options.ts";

/** npm 11's commands and aliases (lib/utils/cmd-list.js). */
const NPM_COMMANDS = words(
  "access adduser approve-scripts audit bugs cache ci completion config dedupe deny-scripts deprecate",
  "diff dist-tag docs doctor edit exec explain explore find-dupes fund get help help-search init install",
  "install-ci-test install-scripts install-test link ll login logout ls org outdated owner pack ping pkg",
  "prefix profile prune publish query rebuild repo restart root run sbom search set shrinkwrap stage star",
  "stars start stop team test token trust undeprecate uninstall unpublish unstar update version view whoami",
);
const NPM_ALIASES: Readonly<Record<string, string>> = {
  author: "owner",
  home: "docs",
  issues: "bugs",
  info: "view",
  show: "view",
  find: "search",
  add: "install",
  unlink: "uninstall",
  remove: "uninstall",
  rm: "uninstall",
  r: "uninstall",
  un: "uninstall",
  rb: "rebuild",
  list: "ls",
  ln: "link",
  create: "init",
  i: "install",
  it: "install-test",
  cit: "install-ci-test",
  u: "update",
  up: "update",
  c: "config",
  s: "search",
  se: "search",
  tst: "test",
  t: "test",
  ddp: "dedupe",
  v: "view",
  "run-script": "run",
  "clean-install": "ci",
  "clean-install-test": "install-ci-test",
  x: "exec",
  why: "explain",
  la: "ll",
  verison: "version",
  ic: "ci",
  innit: "init",
  in: "install",
  ins: "install",
  inst: "install",
  insta: "install",
  instal: "install",
  isnt: "install",
  isnta: "install",
  isntal: "install",
  isntall: "install",
  "install-clean": "ci",
  "isntall-clean": "ci",
  hlep: "help",
  "dist-tags": "dist-tag",
  upgrade: "update",
  udpate: "update",
  rum: "run",
  sit: "install-ci-test",
  urn: "run",
  ogr: "org",
  "add-user": "adduser",
};
const PNPM_ALIASES: Readonly<Record<string, string>> = {
  i: "install",
  rm: "remove",
  un: "remove",
  uninstall: "remove",
  up: "update",
  upgrade: "update",
  ls: "list",
  t: "test",
  tst: "test",
  "run-script": "run",
};
const DOCKER_IMAGE: Readonly<Record<string, string>> = { rm: "rmi", ls: "images", list: "images" };

/** What npm runs for a subcommand word: camelCase read as kebab-case, then an alias, then a unique prefix. */
export function npmCommand(word: string): string | undefined {
  const kebab = word.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
  if (NPM_COMMANDS.includes(kebab)) return kebab;
  const alias = NPM_ALIASES[kebab];
  if (alias) return alias;
  const matches = [...NPM_COMMANDS, ...Object.keys(NPM_ALIASES)].filter((name) => name.startsWith(kebab));
  const resolved = new Set(matches.map((name) => NPM_ALIASES[name] ?? name));
  return resolved.size === 1 ? [...resolved][0] : undefined;
}

/** The same command with its subcommand (or program) as a rule may name it, when spelled otherwise. */
export function subcommandAliases(form: readonly string[]): string[][] {
  const [name, sub, ...rest] = form;
  if (name === undefined) return [];
  const forms: string[][] = [];
  const family = name.match(/^(pip|python|pypy|node|perl|ruby|php|lua)\d+(\.\d+)*$/)?.[1];
  if (family) forms.push([family, ...form.slice(1)]);
  if (sub === undefined) return forms;
  const spelled = (canonical: string | undefined) => {
    if (canonical !== undefined && canonical !== sub) forms.push([name, canonical, ...rest]);
  };
  if (name === "npm") spelled(npmCommand(sub));
  if (name === "pnpm") spelled(PNPM_ALIASES[sub]);
  if ((name === "docker" || name === "podman") && sub === "container" && rest.length > 0)
    forms.push([name, ...rest]);
  if ((name === "docker" || name === "podman") && sub === "image" && rest[0] !== undefined)
    forms.push([name, DOCKER_IMAGE[rest[0]] ?? rest[0], ...rest.slice(1)]);
  return forms;
}
