// Runs the CLI from source (Node >= 22.18 strips types): used by tests and benchmarks; users run bin/keel.js.
import { main } from "./main.ts";

process.exitCode = await main(process.argv.slice(2));
