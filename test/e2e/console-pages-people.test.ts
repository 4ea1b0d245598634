import { it } from "vitest";
import { describeInChromium, launchChromium } from "./helpers/chromium";
import { signInAs } from "./helpers/console-page";
import { usePagesWorld } from "./helpers/console-pages-check";

// The console's pages signed out, for a member (Alice) and for support (Sam), at a desk (1440×900)
// and on a phone (360×780), in real Chromium: nothing scrolls sideways, axe-core finds no serious
// or critical violation, each page has its own title and the HTTP status it should, and a
// screenshot of each lands in artifacts/screenshots/. The pages each role works on are checked in
// full; the rest of a role's pages light (the phone, without axe: console-pages-admin runs axe on
// every page's components, at both sizes, in its admin's view, which shows the most).
const run = describeInChromium("page checks");

run("console pages signed out, for a member and for support, desk and phone", () => {
  const w = usePagesWorld();

  it("signed out: the sign-in page fits both sizes and passes axe", async () => {
    const browser = await launchChromium();
    try {
      const page = await browser.context.newPage();
      await w.checkAll({ browser, page, email: "", close: () => browser.close() }, "anon", [
        { path: "/sign-in", status: 200 },
      ]);
    } finally {
      await browser.close();
    }
  }, 120_000);

  it("Alice (member): the pages she decides on in full, her other pages, a 403 for the admin pages and a 404 with navigation", async () => {
    const alice = await signInAs(w.app.url, "alice@acme.test", w.app.password);
    w.people.push(alice);
    await w.checkAll(alice, "alice", [
      { path: "/", status: 200 },
      { path: "/approvals", status: 200 },
      { path: `/confirm/${w.actionId}`, status: 200 },
    ]);
    await w.checkAll(
      alice,
      "alice",
      [
        { path: "/actions", status: 200 },
        { path: `/actions/${w.actionId}`, status: 200 },
        { path: "/catalog", status: 200 },
        { path: "/settings", status: 200 },
        { path: "/permissions", status: 403 },
        { path: "/monitor", status: 403 },
        { path: "/no-such-page", status: 404 },
      ],
      { light: true },
    );
    // The 404 and 403 pages keep the console's navigation: the person can go on from there.
    await alice.page.goto(`${w.app.url}/no-such-page`);
    await alice.page.getByRole("link", { name: "Go to the overview" }).waitFor();
  }, 600_000);

  it("Sam (support): the monitor and an action in full, his other pages, a 403 for admin pages", async () => {
    const sam = await signInAs(w.app.url, "sam@acme.test", w.app.password);
    w.people.push(sam);
    await w.checkAll(sam, "sam", [
      { path: "/monitor", status: 200 },
      { path: `/actions/${w.actionId}`, status: 200 },
    ]);
    await w.checkAll(
      sam,
      "sam",
      [
        { path: "/", status: 200 },
        { path: "/actions", status: 200 },
        { path: "/approvals", status: 200 },
        { path: "/catalog", status: 200 },
        { path: "/settings", status: 200 },
        { path: "/agents", status: 403 },
      ],
      { light: true },
    );
  }, 600_000);
});
