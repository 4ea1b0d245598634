// Builds the console's production bundle unless .next/ already holds a build of these sources
// (scripts/next-build.ts). CI runs it next to the static checks, so the suite's end-to-end files
// find the build made and none of them builds while the others wait on its lock.
import { buildIfNeeded } from "./next-build";

await buildIfNeeded();
