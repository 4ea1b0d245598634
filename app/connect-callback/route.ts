import { getDb } from "@/server/db/client";
import { handleConnectCallback } from "@/server/gateway/connections/connect-pages";

// Where a system sends the person back after consent (the OAuth client's redirect URI).
export async function GET(req: Request): Promise<Response> {
  return handleConnectCallback(getDb(), req, process.env.SIGNPOST_PUBLIC_URL ?? new URL(req.url).origin);
}
