import { describe, it } from "vitest";
import { chromiumAvailable } from "./helpers/chromium";
import { signInAs } from "./helpers/console-page";
import { usePagesWorld } from "./helpers/console-pages-check";

// Every console page for an admin (Adam), at a desk and on a phone, in real Chromium (what is
// checked: test/e2e/helpers/console-pages-check.ts).
const run = chromiumAvailable() ? describe : describe.skip;
if (!chromiumAvailable())
  console.warn("[signpost e2e] /usr/bin/chromium missing (apt-get install -y chromium): page checks SKIPPED");

run("console pages for an admin, desk and phone", () => {
  const w = usePagesWorld();

  it("Adam (admin): every page", async () => {
    const adam = await signInAs(w.app.url, "adam@acme.test", w.app.password);
    w.people.push(adam);
    await w.checkAll(adam, "adam", [
      { path: "/", status: 200 },
      { path: "/approvals", status: 200 },
      { path: "/monitor", status: 200 },
      { path: "/actions", status: 200 },
      { path: `/actions/${w.actionId}`, status: 200 },
      { path: `/confirm/${w.actionId}`, status: 200 },
      { path: "/permissions", status: 200 },
      { path: "/agents", status: 200 },
      { path: "/config", status: 200 },
      { path: "/catalog", status: 200 },
      { path: "/settings", status: 200 },
      { path: "/search?q=mug", status: 200 },
    ]);
  }, 600_000);
});
