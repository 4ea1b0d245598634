import type { SummaryDeclaration } from "../sdk/decision-summary";

/** A helpdesk summary's declaration: the labels of its keys (no money in a ticket's change). */
export function helpdeskSummary(title: string): SummaryDeclaration {
  return {
    title,
    fields: {
      ticket_id: { label: "Ticket" },
      subject: { label: "Subject" },
      ticket_version: { label: "Ticket version" },
      // Each from_/to_ pair reads "<X> before" / "<X> after" (the SDK labels them by the to_ key).
      from_assignee: { label: "Assignee before" },
      to_assignee: { label: "Assignee" },
      to_assignee_name: { label: "New assignee's name" },
      to_team: { label: "Team" },
      ticket_team: { label: "Ticket's team" },
      cross_team: { label: "Across teams" },
      from_priority: { label: "Priority before" },
      to_priority: { label: "Priority" },
      from_status: { label: "Status before" },
      to_status: { label: "Status" },
      reason: { label: "Reason" },
      resolution: { label: "Resolution" },
      author: { label: "Author" },
      internal: { label: "Visible to" },
      comment: { label: "Comment" },
    },
  };
}
