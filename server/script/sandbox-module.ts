import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import releaseSync from "@jitl/quickjs-wasmfile-release-sync";
import { newQuickJSWASMModuleFromVariant, newVariant, type QuickJSWASMModule } from "quickjs-emscripten-core";

const PAGE = 64 * 1024;
/** The engine's own stack and static data live in the same memory: room for them above the heap limit. */
const HEADROOM = 16 * 1024 * 1024;

let compiled: Promise<WebAssembly.Module> | undefined;

/** QuickJS's WebAssembly code, compiled once per process (instances are per run). */
function compiledEngine(): Promise<WebAssembly.Module> {
  compiled ??= (async () => {
    const require = createRequire(import.meta.url);
    const dir = dirname(require.resolve("@jitl/quickjs-wasmfile-release-sync/package.json"));
    return WebAssembly.compile(await readFile(join(dir, "dist", "emscripten-module.wasm")));
  })();
  compiled.catch(() => {
    compiled = undefined;
  });
  return compiled;
}

/**
 * A fresh QuickJS instance with its own, capped WebAssembly memory. The runtime's memory limit
 * alone does not hold (typed arrays grew the host's memory far past it), a capped `Memory` does:
 * the instance cannot grow past `heapBytes` plus headroom, whatever the script allocates. One per
 * run, thrown away after it, so a run that broke its instance (an abort) leaves nothing behind.
 */
export async function newSandboxModule(heapBytes: number): Promise<QuickJSWASMModule> {
  const wasmModule = await compiledEngine();
  const maximum = Math.ceil((heapBytes + HEADROOM) / PAGE);
  // The engine is built for an initial 16 MiB (256 pages); a smaller cap than that is refused.
  const memory = new WebAssembly.Memory({ initial: 256, maximum: Math.max(256, maximum) });
  return newQuickJSWASMModuleFromVariant(newVariant(releaseSync, { wasmModule, wasmMemory: memory }));
}
