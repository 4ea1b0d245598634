// The sandbox thread's entry, in plain JavaScript so that any Node process can start it: Node 20
// does not pass the main thread's TypeScript loader on to a worker, and a bundler must not pull
// the worker into its bundle. It loads the TypeScript worker through tsx.
import { tsImport } from "tsx/esm/api";

await tsImport("./sandbox-worker.ts", import.meta.url);
