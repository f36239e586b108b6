// Which environment variables are harmless to set in front of a command, and which steer programs
// into running other code (pagers, editors, preload libraries, interpreter options, config paths).
import { words } from "./options.ts";

/** Stripped from commands for allow-rule matching and accepted in read-only commands. */
const HARMLESS_NAMES = new Set(
  words(
    "LANG LANGUAGE TZ NO_COLOR FORCE_COLOR CLICOLOR CLICOLOR_FORCE COLORTERM TERM COLUMNS",
    "LINES CI NODE_ENV RUST_BACKTRACE RUST_LOG PYTHONUNBUFFERED PYTHONDONTWRITEBYTECODE",
    "PYTHONIOENCODING PYTHONHASHSEED DEBUG VERBOSE NODE_NO_WARNINGS TZDIR GIT_TERMINAL_PROMPT",
  ),
);

export function isHarmlessVariable(name: string): boolean {
  return HARMLESS_NAMES.has(name) || /^LC_[A-Z_]+$/.test(name);
}

const DANGEROUS_NAMES = new Set(
  words(
    "PATH IFS PAGER MANPAGER MANOPT MANROFFOPT BROWSER EDITOR VISUAL SHELL HOME ZDOTDIR ENV",
    "CDPATH GLOBIGNORE SHELLOPTS BASHOPTS PROMPT_COMMAND PS0 PS1 PS2 PS3 PS4 HISTFILE INPUTRC",
    "TMPDIR XDG_CONFIG_HOME XDG_DATA_HOME XDG_CONFIG_DIRS RIPGREP_CONFIG_PATH GREP_OPTIONS",
    "TAR_OPTIONS LESSOPEN LESSCLOSE LESSKEY LESS SSH_ASKPASS SUDO_ASKPASS KUBECONFIG",
    "DOCKER_HOST CURL_HOME WGETRC JQ_LIBRARY_PATH AWKPATH AWKLIBPATH TEXINPUTS MAKEFLAGS",
    "MAKEFILES CC CXX LDFLAGS CFLAGS CPPFLAGS RUSTC_WRAPPER RUSTC RUSTFLAGS CARGO_HOME",
    "GOFLAGS GOROOT GOPATH TERMINFO SYSTEMD_PAGER SYSTEMD_EDITOR FCEDIT MAILCAP DIFFPROG",
    "GCONV_PATH GETCONF_DIR LOCPATH NLSPATH HOSTALIASES MANPATH GROFF_TMAC_PATH EXINIT VIMINIT",
  ),
);

const DANGEROUS_PREFIXES = words(
  "GIT_ LD_ DYLD_ PYTHON PERL RUBY GEM_ BUNDLE_ NODE_ NPM_CONFIG_ npm_config_ YARN_ BASH_",
  "BASH_FUNC_ JAVA_ _JAVA_ JDK_JAVA_ MAVEN_ GRADLE_ CLASSPATH LUA_ TCL PHP R_ DENO_ BUN_",
  "PIP_ UV_ CARGO_ LESS SSH_ GNUPG GPG_ OPENSSL_ SSL_ DOTNET_ COMPlus_ CORECLR_ ELECTRON_",
);

/** True when setting this variable can make an ordinary program run code or read other config. */
export function isSteeringVariable(name: string): boolean {
  if (isHarmlessVariable(name)) return false;
  if (DANGEROUS_NAMES.has(name) || DANGEROUS_PREFIXES.some((prefix) => name.startsWith(prefix))) return true;
  // npm, pnpm and yarn read their settings from the environment whatever the case of the name.
  return /^(npm_config_|pnpm_config_|yarn_)/i.test(name);
}
