import { join } from "node:path";
import { Worker } from "node:worker_threads";
import type { LoadedOpenApi } from "./load-openapi-document";
import { type OpenApiResult, problem } from "./openapi-import-problem";
import { OPENAPI_LIMITS } from "./openapi-limits";

export interface ImportBudget {
  /** How long reading may take once a thread has it, ms. */
  timeMs?: number;
  /** The reading thread's heap, MB. */
  heapMb?: number;
  maxBytes?: number;
}

type Result = OpenApiResult<LoadedOpenApi>;

interface Reader {
  worker: Worker;
  heapMb: number;
  /** The read in progress: one at a time per thread. */
  current: ((result: Result) => void) | null;
}

/** Reading threads at once; a further import waits for one. */
const MAX_READERS = 4;
/** The one thread kept warm between imports (starting one loads the parser: seconds on a busy machine). */
let warm: Reader | null = null;
let running = 0;
const waiting: Array<() => void> = [];
let nextId = 0;

function spawn(heapMb: number): Reader {
  const entry = join(
    process.env.SIGNPOST_ROOT ?? process.cwd(),
    "server/connectors/openapi/load-openapi-worker-entry.mjs",
  );
  // Constructed indirectly: the Next build follows a literal `new Worker(path)` and would bundle it.
  const worker: Worker = Reflect.construct(Worker, [
    entry,
    { resourceLimits: { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: 64 } },
  ]);
  const reader: Reader = { worker, heapMb, current: null };
  const fail = (result: Result) => {
    if (warm === reader) warm = null;
    const settle = reader.current;
    reader.current = null;
    settle?.(result);
  };
  worker.on("message", (reply: { result: Result }) => {
    const settle = reader.current;
    reader.current = null;
    settle?.(reply.result);
  });
  worker.on("error", (error: Error & { code?: string }) =>
    fail(
      error.code === "ERR_WORKER_OUT_OF_MEMORY"
        ? problem(
            "import_memory",
            `Reading the document needed more than the ${reader.heapMb} MB of memory an import may use; nothing was stored.`,
          )
        : problem(
            "invalid_document",
            `The document could not be read: ${error.message.split("\n")[0]?.slice(0, 200)}`,
          ),
    ),
  );
  worker.on("exit", () =>
    fail(problem("invalid_document", "The document could not be read: its reader stopped.")),
  );
  // After the listeners (adding a "message" listener refs the thread again): a warm reader never
  // keeps a process from exiting.
  worker.unref();
  return reader;
}

async function seat(): Promise<void> {
  if (running < MAX_READERS) {
    running++;
    return;
  }
  await new Promise<void>((resolve) => waiting.push(resolve));
}

function release(): void {
  const next = waiting.shift();
  if (next) next();
  else running--;
}

/**
 * `loadOpenApiDocument` on a thread of its own, with a time and a memory budget: parsing,
 * conversion, `$ref` resolution and validation of a document an admin uploaded never hold the
 * server's thread, so a document built to be slow (schemas that refer to each other twice per
 * level) slows its own import only. Past the budget the thread is ended and the import refused
 * with a typed problem naming the limit. One thread stays warm for the next import; imports at
 * the same time get threads of their own (at most four; a fifth waits for one).
 */
export async function loadOpenApiOffThread(text: string, budget: ImportBudget = {}): Promise<Result> {
  const timeMs = budget.timeMs ?? OPENAPI_LIMITS.importTimeMs;
  const heapMb = budget.heapMb ?? OPENAPI_LIMITS.importHeapMb;
  await seat();
  const keep = heapMb === OPENAPI_LIMITS.importHeapMb;
  const reader = keep && warm && !warm.current ? warm : spawn(heapMb);
  if (keep && !warm) warm = reader;
  try {
    return await new Promise<Result>((resolve) => {
      const timer = setTimeout(() => {
        reader.current = null;
        if (warm === reader) warm = null;
        void reader.worker.terminate();
        resolve(
          problem(
            "import_timeout",
            `Reading the document took longer than the ${timeMs / 1000} s an import may take; nothing was stored.`,
          ),
        );
      }, timeMs);
      reader.current = (result) => {
        clearTimeout(timer);
        resolve(result);
      };
      reader.worker.postMessage({ id: nextId++, text, maxBytes: budget.maxBytes });
    });
  } finally {
    // A thread that is not the warm one ends with its import.
    if (reader !== warm) void reader.worker.terminate();
    release();
  }
}
