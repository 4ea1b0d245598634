import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { facesOfKey, parseFaces } from "./faces";
// Before anything that logs (./signpost-mcp): log lines go to stderr here.
import "./log-to-stderr";
import { installConnectorsFromEnv } from "@/server/connectors/install-connectors";
import { logger } from "@/server/logger";
import { getSignpostMcp } from "./signpost-mcp";

/**
 * The stdio entry for local hosts: `SIGNPOST_AGENT_KEY=sp_… npm run mcp:stdio`. The key is
 * checked once at start and again for every connection the host opens; stdout carries only
 * protocol messages, so diagnostics go to stderr.
 */
async function main() {
  const key = process.env.SIGNPOST_AGENT_KEY;
  const faces = parseFaces(process.env.SIGNPOST_FACES);
  if (!faces) {
    logger.fatal("SIGNPOST_FACES must be actions, browse, script or a comma-separated list of them");
    process.exit(2);
  }
  if (!key) {
    logger.fatal("Set SIGNPOST_AGENT_KEY to an agent key (mint one in the console under Agents).");
    process.exit(2);
  }
  await installConnectorsFromEnv();
  const mcp = getSignpostMcp();
  const first = await mcp.authenticate(key);
  if (!first) {
    logger.fatal("SIGNPOST_AGENT_KEY is invalid or revoked.");
    process.exit(3);
  }
  serveStdio(
    async () => {
      // Re-identify per connection so a revoked key stops working without a restart.
      const identity = await mcp.authenticate(key);
      if (!identity) throw new Error("agent key revoked");
      // The key's faces, as an admin chose them, bound what SIGNPOST_FACES may ask for (as on /mcp).
      const asked = process.env.SIGNPOST_FACES ? faces : null;
      const allowed = identity.faces ? facesOfKey(identity.faces, asked) : faces;
      if (!allowed.length) throw new Error(`this agent key has the faces ${identity.faces?.join(", ")}`);
      return mcp.serverFor(identity.context, allowed);
    },
    { onerror: (error) => logger.warn({ err: error.message }, "mcp stdio: protocol error") },
  );
}

void main();
