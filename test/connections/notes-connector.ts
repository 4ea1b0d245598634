import { type BackendOutcome, defineConnector, defineRoute } from "@/server/connectors/sdk";
import { ConnectionRequiredError, UpstreamForbiddenError } from "@/server/connectors/sdk/person-auth";
import { egressFetch } from "@/server/egress/egress-fetch";

/**
 * A hand-written connector that acts as each person (`personAuth`): its adapter sends the
 * person's own token and says when the system refuses it.
 */
export function notesConnector(upstream: {
  authorizationUrl: string;
  tokenUrl: string;
  revocationUrl: string;
}) {
  return defineConnector({
    id: "notes",
    title: "Team Notes",
    scheme: "notes",
    description: "Each person's own notes at the notes system.",
    secrets: [],
    personAuth: {
      kind: "oauth_authorization_code",
      authorizationUrl: upstream.authorizationUrl,
      tokenUrl: upstream.tokenUrl,
      revocationUrl: upstream.revocationUrl,
      scopes: ["notes:read"],
    },
    createAdapter: ({ baseUrl, person }) => ({
      async get(path: string) {
        if (!person) throw new ConnectionRequiredError("notes", "Team Notes", "not connected yet");
        const res = await egressFetch(`${baseUrl}${path}`, {
          headers: { authorization: `Bearer ${person.accessToken}` },
          redirect: "manual",
        });
        if (res.status === 401) {
          await person.refused();
          throw new ConnectionRequiredError(
            "notes",
            "Team Notes",
            "the system no longer accepts the connection",
          );
        }
        if (res.status === 403) throw new UpstreamForbiddenError("notes", "Team Notes");
        return (await res.json()) as Record<string, unknown>;
      },
    }),
    healthPath: "/notes",
    checkConnection: async () => ({ ok: false, status: 0 }),
    capabilities: [],
    entities: [],
    routes: [
      defineRoute({
        pattern: "notes://mine",
        title: "My notes",
        description: "The person's own notes",
        keywords: ["notes"],
        startPoint: true,
        render: async (_m, backend) => {
          const got = await backend.withAdapter<
            { get(p: string): Promise<Record<string, unknown>> },
            unknown
          >("notes", (a) => a.get("/notes"));
          if ((got as BackendOutcome).outcome)
            return {
              title: "My notes",
              outcome: (got as BackendOutcome).outcome,
              markdown: (got as BackendOutcome).message,
            };
          const notes = (got as { notes: Array<{ id: string; owner: string; text: string }> }).notes;
          return {
            title: "My notes",
            outcome: "applied",
            markdown: notes.map((n) => `- ${n.id} (${n.owner}): ${n.text}`).join("\n") || "No notes.",
          };
        },
      }),
      defineRoute({
        pattern: "notes://audit",
        title: "Audit",
        description: "The system's audit (its admins only)",
        keywords: ["audit"],
        render: async (_m, backend) => {
          const got = await backend.withAdapter<
            { get(p: string): Promise<Record<string, unknown>> },
            unknown
          >("notes", (a) => a.get("/audit"));
          const o = got as BackendOutcome;
          return o.outcome
            ? { title: "Audit", outcome: o.outcome, markdown: o.message }
            : { title: "Audit", outcome: "applied", markdown: "entries" };
        },
      }),
    ],
  });
}
