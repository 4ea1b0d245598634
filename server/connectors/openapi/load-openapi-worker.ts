import { parentPort } from "node:worker_threads";
import { loadOpenApiDocument } from "./load-openapi-document";

// Reads one document per message and posts the result back (structured clone keeps the
// dereferenced schemas' shared and circular references as they are). The thread is kept warm
// between imports; the main thread ends it when one takes past its budget.
parentPort?.on("message", async (message: { id: number; text: string; maxBytes?: number }) => {
  const result = await loadOpenApiDocument(message.text, { maxBytes: message.maxBytes });
  parentPort?.postMessage({ id: message.id, result });
});
