import type { HelpdeskAdapter } from "./helpdesk-adapter";

/**
 * Every teammate, as the words may name them beyond those a node offers (the current assignee, an
 * inactive one, someone who does not hold the ticket): the node's own checks then say why not,
 * never a name dropped (set W: "give it to Bella", who had it, was read as naming nobody; review
 * 56: "unassign Bella from the headphones ticket" took Sid off it).
 */
export async function everyTeammate({ adapter }: { adapter: HelpdeskAdapter }) {
  const all = await adapter.teammates();
  return { teammates: all.map((m) => ({ id: m.id, name: m.name, team: m.team_id })) };
}
