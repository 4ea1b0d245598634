import { getDb } from "@/server/db/client";
import { handleConnectStart } from "@/server/gateway/connections/connect-pages";

// A person connects their own account at a system (the link an agent relays on `connection_required`).
export async function GET(req: Request, ctx: { params: Promise<{ connector: string }> }): Promise<Response> {
  const { connector } = await ctx.params;
  return handleConnectStart(
    getDb(),
    req,
    connector,
    process.env.SIGNPOST_PUBLIC_URL ?? new URL(req.url).origin,
  );
}
