import { createHash, randomBytes } from "node:crypto";
import { createRequestStateCodec, type ServerContext } from "@modelcontextprotocol/server";

/** What a signed `requestState` carries between rounds of an `input_required` exchange. */
export interface SignpostRequestState {
  /** The agent the round was minted for; another agent echoing it is refused. */
  agent_id: string;
  action_id: string;
  version: number;
  /** fill: answers for missing fields; approve: the person decided; connect: the person connected their account upstream. */
  purpose: "fill" | "approve" | "connect";
  nonce: string;
}

export type VerifiedRequestState =
  | { ok: true; state: SignpostRequestState }
  | {
      ok: false;
      reason: "invalid_request_state" | "request_state_replayed" | "request_state_mismatch";
      message: string;
    };

const TTL_SECONDS = 600;

/** Records a nonce as used until it expires; false when any instance already used it. */
export type ConsumeNonce = (nonce: string, expiresAt: Date) => Promise<boolean>;

/**
 * HMAC-signed request state (the SDK's codec: HMAC-SHA256, expiry, a binding tag), plus
 * the checks the codec cannot know: bound to this agent, this action and its version, and
 * single use (through `consume`, which the composition root backs with the database so it holds
 * across instances). Verification happens in the tool handler, not in the SDK hook, so that a
 * tampered, expired or replayed state comes back as a typed `rejected` outcome.
 */
export function createSignpostRequestStateCodec(secret: string | Uint8Array, consume: ConsumeNonce) {
  const codec = createRequestStateCodec<SignpostRequestState>({
    key: secret,
    ttlSeconds: TTL_SECONDS,
    bind: (ctx) => `${ctx.mcpReq.method}\0${ctx.http?.authInfo?.clientId ?? "stdio"}`,
  });
  return {
    async mint(payload: Omit<SignpostRequestState, "nonce">, ctx: ServerContext): Promise<string> {
      return codec.mint({ ...payload, nonce: randomBytes(12).toString("base64url") }, ctx);
    },
    async verify(
      raw: string,
      ctx: ServerContext,
      expected: { agent_id: string; action_id: string; version?: number },
    ): Promise<VerifiedRequestState> {
      let state: SignpostRequestState;
      try {
        state = await codec.verify(raw, ctx);
      } catch (error) {
        const why = error instanceof Error ? error.message : "invalid";
        return {
          ok: false,
          reason: "invalid_request_state",
          message: `requestState refused (${why}): it was altered, expired, or minted for another caller.`,
        };
      }
      if (state.agent_id !== expected.agent_id || state.action_id !== expected.action_id) {
        return {
          ok: false,
          reason: "request_state_mismatch",
          message: "requestState belongs to another action or agent.",
        };
      }
      // A connect round binds no version: the retried call carries its own, which the gateway checks.
      if (
        expected.version !== undefined &&
        state.purpose !== "connect" &&
        state.version !== expected.version
      ) {
        return {
          ok: false,
          reason: "request_state_mismatch",
          message: `requestState was minted for version ${state.version}; the action is at version ${expected.version}.`,
        };
      }
      // Checked last: a state refused for another reason stays unused.
      if (!(await consume(state.nonce, new Date(Date.now() + TTL_SECONDS * 1000)))) {
        return { ok: false, reason: "request_state_replayed", message: "requestState was already used." };
      }
      return { ok: true, state };
    },
  };
}

/** The action id is inside the signed payload; read it without trusting it (verify decides). */
export function peekActionId(rawState: string): string | undefined {
  try {
    const body = rawState.split(".")[1] ?? "";
    const json = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as {
      p?: { action_id?: unknown };
    };
    return typeof json.p?.action_id === "string" ? json.p.action_id : undefined;
  } catch {
    return undefined;
  }
}

export type SignpostRequestStateCodec = ReturnType<typeof createSignpostRequestStateCodec>;

/** A stable key for every instance: from `SIGNPOST_REQUEST_STATE_KEY`, else derived from a master secret. */
export function requestStateKey(masterSecret?: string | Uint8Array): string {
  const configured = process.env.SIGNPOST_REQUEST_STATE_KEY;
  if (configured && configured.length >= 32) return configured;
  if (masterSecret) {
    return createHash("sha256").update("signpost/mcp/request-state\0").update(masterSecret).digest("hex");
  }
  return randomBytes(32).toString("hex");
}
