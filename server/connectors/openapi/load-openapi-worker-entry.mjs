// The thread that reads one OpenAPI document, in plain JavaScript so that any Node process can
// start it (Node 20 does not pass the main thread's TypeScript loader on to a worker, and a
// bundler must not pull it into its bundle). It loads the TypeScript body through tsx.
import { tsImport } from "tsx/esm/api";

await tsImport("./load-openapi-worker.ts", import.meta.url);
