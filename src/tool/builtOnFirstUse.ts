// A value made by its first reader, then kept. For zod schemas a process may never use: each schema
// object costs zod ~9 µs to build, and a one-call process (`keel check`, `keel hook`) built ~320 at
// start, most for settings sections and config files it never reads.

/** `build` runs on the first call; later calls return what it made. */
export function builtOnFirstUse<T>(build: () => T): () => T {
  let made: { value: T } | undefined;
  return () => {
    made ??= { value: build() };
    return made.value;
  };
}
