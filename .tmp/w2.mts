import { Worker } from "node:worker_threads";
const w = new Worker("./server/connectors/openapi/load-openapi-worker-entry.mjs");

w.on("message", (m) => console.log("msg", Object.keys(m)));
w.unref();
w.postMessage({ id: 1, text: "{}" });
setTimeout(() => console.log("main done"), 6000);
