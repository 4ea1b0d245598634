import type { OutcomeBase } from "../connectors/sdk/outcome";
import { ConnectionRequiredError, UpstreamForbiddenError } from "../connectors/sdk/person-auth";
import { SystemRejectedError, SystemUnavailableError } from "../connectors/sdk/system-errors";
import { logger } from "../logger";
import { redactText } from "../redact-secrets";
import { connectUrl } from "./connections/connect-url";

/**
 * What an exception becomes for the caller, in every face: an outage (or a connector an admin
 * disabled) is `temporarily_unavailable` and worth retrying; a 4xx from the system is `rejected`
 * with its code and not worth repeating unchanged; anything else is our bug, logged in full and
 * answered without detail. Messages never carry URLs, keys or the vendor's free text.
 */
export function failureOutcome(error: unknown, where: string): OutcomeBase & Record<string, unknown> {
  if (error instanceof ConnectionRequiredError) {
    // The link is Signpost's own console page: the person signs in there and consents upstream.
    // Nothing in it identifies the person: whoever opens it connects their own account.
    const url = connectUrl(error.connector);
    return {
      outcome: "connection_required",
      reason: "connection_required",
      message: `This needs your own ${error.title} account (${error.why}). Ask the person to open ${url} (signed in to Signpost) and connect it, then try again.`,
      retryable: true,
      system: { connector: error.connector, title: error.title },
      connect_url: url,
      next_actions: [],
    };
  }
  if (error instanceof UpstreamForbiddenError)
    return {
      outcome: "forbidden",
      reason: "upstream_forbidden",
      message: `${error.title} refused this for the person's own account (HTTP 403): their rights there do not allow it. Asking again unchanged will not help.`,
      retryable: false,
      system: { connector: error.connector, title: error.title },
      next_actions: [],
    };
  if (error instanceof SystemUnavailableError) {
    // Paths carry what the agent asked for (`?q=…`): logs get them redacted like audit rows.
    logger.warn({ where, err: redactText(error.message) }, "the business system is unavailable");
    return {
      outcome: "temporarily_unavailable",
      reason: "legacy_unavailable",
      message: error.message,
      retryable: true,
      next_actions: [],
    };
  }
  if (error instanceof SystemRejectedError) {
    // The status and code are the system's own vocabulary; its free-text
    // message and the request path stay in the log.
    logger.warn(
      { where, err: redactText(error.message), system_message: redactText(error.systemMessage) },
      "the business system refused a request",
    );
    return {
      outcome: "rejected",
      reason: "legacy_rejected",
      message: `The business system refused this request (${error.status} ${error.code}); asking again unchanged will not help`,
      retryable: false,
      next_actions: [],
    };
  }
  logger.error(
    { where, err: redactText(error instanceof Error ? (error.stack ?? error.message) : String(error)) },
    `${where} failed`,
  );
  return {
    outcome: "rejected",
    reason: "internal_error",
    message: "Signpost failed to process this call; it was logged",
    retryable: false,
    next_actions: [],
  };
}
