import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import releaseSync from "@jitl/quickjs-wasmfile-release-sync";
import { newQuickJSWASMModuleFromVariant, newVariant, type QuickJSWASMModule } from "quickjs-emscripten-core";

const PAGE = 64 * 1024;
/** The engine's own stack and static data live in the same memory: room for them above the heap limit. */
const HEADROOM = 16 * 1024 * 1024;

/** Where the engine package keeps its WebAssembly file, as its own loader found it. */
let wasmPath: string | undefined;
let compiled: Promise<WebAssembly.Module> | undefined;

/**
 * QuickJS's WebAssembly code, compiled once per process after the first run told us where it is.
 * The package locates its own file (a bundler rewrites any path we would resolve ourselves: the
 * Next build turned `require.resolve` of the package into a module number).
 */
function compiledEngine(): Promise<WebAssembly.Module> | undefined {
  if (!compiled && wasmPath) {
    const path = wasmPath;
    compiled = readFile(path).then((bytes) => WebAssembly.compile(bytes));
    compiled.catch(() => {
      compiled = undefined;
    });
  }
  return compiled;
}

/**
 * A fresh QuickJS instance with its own, capped WebAssembly memory. The runtime's memory limit
 * alone does not hold (typed arrays grew the host's memory far past it), a capped `Memory` does:
 * the instance cannot grow past `heapBytes` plus headroom, whatever the script allocates. One per
 * run, thrown away after it, so a run that broke its instance (an abort) leaves nothing behind.
 */
export async function newSandboxModule(heapBytes: number): Promise<QuickJSWASMModule> {
  const maximum = Math.ceil((heapBytes + HEADROOM) / PAGE);
  // The engine is built for an initial 16 MiB (256 pages); a smaller cap than that is refused.
  const wasmMemory = new WebAssembly.Memory({ initial: 256, maximum: Math.max(256, maximum) });
  const wasmModule = await compiledEngine()?.catch(() => undefined);
  if (wasmModule) return newQuickJSWASMModuleFromVariant(newVariant(releaseSync, { wasmModule, wasmMemory }));
  return newQuickJSWASMModuleFromVariant(
    newVariant(releaseSync, {
      wasmMemory,
      locateFile: (file, directory) => {
        const dir = directory.startsWith("file:") ? fileURLToPath(directory) : directory;
        if (file.endsWith(".wasm")) wasmPath = `${dir}${file}`;
        return `${dir}${file}`;
      },
    }),
  );
}
