import { consoleRoute, resultResponse } from "@/app/_lib/console-route";
import { setAgentFaces, setAgentFacesInputSchema } from "@/server/gateway/console/manage-agents";

export const dynamic = "force-dynamic";

/** `{faces: ["actions", "script"]}` gives the key those faces; `{faces: null}` the default ones. */
export const POST = consoleRoute(
  { roles: ["admin"], body: setAgentFacesInputSchema },
  async ({ db, ctx, body, params }) => resultResponse(await setAgentFaces(db, ctx, params.id ?? "", body)),
);
