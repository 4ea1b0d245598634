import type { BackendOutcome } from "../sdk/browse-backend";

/** Each ticket form: the capability it starts, its link's words, its path under the ticket. */
const TICKET_FORMS: ReadonlyArray<readonly [capability: string, label: string, path: string]> = [
  ["assign_ticket", "Assign to a teammate", "assign"],
  ["change_ticket_priority", "Change priority", "priority"],
  ["resolve_ticket", "Resolve", "resolve"],
  ["reopen_ticket", "Reopen", "reopen"],
  ["close_ticket", "Close", "close"],
  ["comment_ticket", "Add a comment", "comment"],
  ["set_ticket_status", "Set status", "status"],
  ["move_ticket_to_team", "Move to a team", "team"],
  ["unassign_ticket", "Unassign", "unassign"],
];

/** Each form's address by its capability, as the connector declares its forms. */
export const TICKET_FORM_URIS: Record<string, string> = Object.fromEntries(
  TICKET_FORMS.map(([capability, , path]) => [capability, `helpdesk://ticket/{id}/${path}`]),
);

/**
 * The ticket's forms its view's next_actions offer now (the engine decides which apply), as
 * [label, uri]; `only` keeps those of these capabilities (a part of the ticket offers its own).
 */
export function ticketFormLinks(
  id: string,
  view: BackendOutcome,
  only?: readonly string[],
): Array<[string, string]> {
  const offered = new Set(
    (view.next_actions ?? []).flatMap((n) =>
      n.args && typeof n.args.capability === "string" ? [n.args.capability] : [],
    ),
  );
  return TICKET_FORMS.filter(([cap]) => offered.has(cap) && (!only || only.includes(cap))).map(
    ([, label, path]) => [label, `helpdesk://ticket/${id}/${path}`],
  );
}
