import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { AGENT_KEY_PATTERN, agentKeyPrefix, hashAgentKey, mintAgentKey } from "@/server/gateway/agent-keys";

// Protects: agent keys have the documented shape, are unique, and only their sha256 and
// visible prefix are meant for storage.

describe("agent keys", () => {
  it("mints sp_<8>_<32> keys whose prefix and hash match", () => {
    const { key, keyHash, keyPrefix } = mintAgentKey();
    expect(key).toMatch(AGENT_KEY_PATTERN);
    expect(key.startsWith(`${keyPrefix}_`)).toBe(true);
    expect(keyPrefix).toMatch(/^sp_[A-Za-z0-9]{8}$/);
    expect(keyHash).toBe(createHash("sha256").update(key).digest("hex"));
    expect(hashAgentKey(key)).toBe(keyHash);
    expect(keyHash).not.toContain(key.slice(12));
    expect(agentKeyPrefix(key)).toBe(keyPrefix);
  });

  it("never repeats a key or a prefix across many mints", () => {
    const keys = Array.from({ length: 2000 }, () => mintAgentKey());
    expect(new Set(keys.map((k) => k.key)).size).toBe(keys.length);
    expect(new Set(keys.map((k) => k.keyPrefix)).size).toBe(keys.length);
    // Every character of the alphabet shows up: the generator is not stuck on a subset.
    const chars = new Set(keys.flatMap((k) => [...k.key.slice(3)]).filter((c) => c !== "_"));
    expect(chars.size).toBe(62);
  });

  it("rejects malformed keys", () => {
    expect(agentKeyPrefix("sp_short_x")).toBeNull();
    expect(agentKeyPrefix(`${mintAgentKey().key}x`)).toBeNull();
    expect(hashAgentKey("a")).not.toBe(hashAgentKey("b"));
  });
});
