import type { BrowseBackend, BrowseVerb } from "../connectors/sdk/browse-backend";
import { code, escapeText, link } from "../connectors/sdk/markdown";
import { formatBrowseUri } from "../connectors/sdk/parse-browse-uri";
import { SystemUnavailableError } from "../connectors/sdk/system-errors";
import { logger } from "../logger";
import type { PageBody } from "./browse-routes";
import { type AnsweringBody, type BrowsePage, renderPage } from "./render-page";

function permissionDeniedBody(
  backend: BrowseBackend,
  uri: string,
  verb: BrowseVerb,
  decision: "deny" | "ask",
  message: string,
): PageBody {
  const shown = backend.redact(uri);
  const request = formatBrowseUri("signpost", ["permissions", "request"], { target: shown, verb });
  return {
    title: "Permission required",
    outcome: "rejected",
    markdown: `You may not ${verb} ${code(shown)}: ${escapeText(message)}${decision === "ask" ? " (an admin must allow it)" : ""}.\n\n${link("Ask an admin for this permission", request)}\n\n${link("Start", "signpost://start")}`,
  };
}

interface GuardedCall {
  verb: BrowseVerb;
  /** What permissions are checked on and the audit row names. */
  target: string;
  arguments: Record<string, unknown>;
  /** The page's own URI when it is not the target (a search's `search://all?q=…`). */
  pageUri?: string;
  /** The permission form itself must stay reachable, or a denied agent could never ask. */
  skipAuthorization?: boolean;
}

/** Authorizes, renders and audits one browse call; a denial or a failure is a page too. */
export async function guarded(
  backend: BrowseBackend,
  call: GuardedCall,
  build: () => Promise<AnsweringBody>,
): Promise<BrowsePage> {
  const { verb, target, skipAuthorization = false } = call;
  const uri = call.pageUri ?? target;
  const started = Date.now();
  let rendered: { page: BrowsePage; body: PageBody };
  try {
    const authorization = skipAuthorization
      ? { decision: "allow" as const }
      : await backend.authorize(verb, target);
    rendered =
      authorization.decision === "allow"
        ? await renderPage(backend, uri, build)
        : await renderPage(backend, uri, () =>
            permissionDeniedBody(backend, target, verb, authorization.decision, authorization.message),
          );
  } catch (error) {
    // Pages never throw at an agent. The backend already turns "the business system did not
    // answer" into a typed page, so what lands here is almost always a bug of ours: retrying
    // would fail the same way. Only an outage that still escaped (or a connector an admin
    // disabled, a subclass) stays retryable.
    const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
    logger.error({ verb, target: backend.redact(target), err: backend.redact(detail) }, "browse page failed");
    const outage = error instanceof SystemUnavailableError;
    rendered = await renderPage(backend, uri, () => ({
      title: outage ? "Temporarily unavailable" : "Failed",
      outcome: outage ? "temporarily_unavailable" : "rejected",
      markdown: outage
        ? `The business system did not answer while serving ${code(target)}. Try again shortly.\n\nReason: \`legacy_unavailable\` · Retryable: yes\n\n${link("Start", "signpost://start")}`
        : `Signpost failed while serving ${code(target)}; it was logged. Trying again will not help.\n\nReason: \`internal_error\` · Retryable: no\n\n${link("Start", "signpost://start")}`,
    }));
  }
  const { page, body } = rendered;
  await backend.record({
    verb,
    target,
    arguments: call.arguments,
    outcome: page.outcome,
    message: page.title,
    latencyMs: Date.now() - started,
    actionId: body.actionId,
    capability: body.capability,
  });
  return page;
}
