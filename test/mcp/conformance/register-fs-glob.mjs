// `node --import ./register-fs-glob.mjs`: maps `fs` to fs-with-glob-sync.mjs for the conformance
// package only (FACTS.md: it needs fs.globSync, which Node 20 lacks).
import { register } from "node:module";

register(new URL("./fs-glob-hooks.mjs", import.meta.url));
