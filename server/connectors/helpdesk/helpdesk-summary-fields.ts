import type { SummaryDeclaration } from "../sdk/decision-summary";

/** A helpdesk summary's declaration: the labels of its keys (no money in a ticket's change). */
export function helpdeskSummary(title: string): SummaryDeclaration {
  return {
    title,
    fields: {
      ticket_id: { label: "Ticket" },
      subject: { label: "Subject" },
      ticket_version: { label: "Ticket version", internal: true },
      // Each change says which value is before it and which after: "Assigned now: none" read as a
      // failure once the assignment was made.
      from_assignee: { label: "Assignee before" },
      to_assignee: { label: "Assignee after" },
      to_assignee_name: { label: "New assignee's name" },
      from_team: { label: "Team before" },
      to_team: { label: "Team" },
      ticket_team: { label: "Ticket's team" },
      cross_team: { label: "Across teams" },
      from_priority: { label: "Priority before" },
      to_priority: { label: "Priority after" },
      from_status: { label: "Status before" },
      to_status: { label: "Status after" },
      reason: { label: "Reason" },
      resolution: { label: "Resolution" },
      author: { label: "Author" },
      internal: { label: "Visible to" },
      comment: { label: "Comment" },
    },
  };
}
