import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineCapability } from "@/server/connectors/sdk/define-capability";
import { laterFields } from "@/server/engine/later-fields";

/**
 * What an action that stops for a choice says about its later steps, for any capability (an
 * imported one has only schemas and descriptions): the required fields not given yet, each with
 * a short note, bounded in count and length; nothing after the confirmation node.
 */
function flow(extra: Record<string, z.ZodType> = {}) {
  return defineCapability<unknown>({
    id: "file_claim",
    connector: "test",
    title: "File a claim",
    description: "File a claim on a record",
    trigger: { use: "file a claim", avoid: "" },
    synonyms: [],
    appliesTo: { entity: "Record", field: "record_id" },
    prerequisites: [],
    sideEffects: [],
    policy: {
      effect: "write",
      permission: "test.claim",
      roles: ["member"],
      approval: "always",
      retry: { attempts: 1, backoffMs: 0 },
      timeoutMs: 1000,
      audit: "full",
    },
    nodes: [
      { id: "RECORD", description: "Which record", fields: { record_id: z.string().describe("The record") } },
      {
        id: "KIND",
        description: "What kind",
        fields: { category: z.enum(["damage", "loss"]), note: z.string().optional() },
      },
      {
        id: "DETAILS",
        description: "Details",
        fields: {
          statement: z.string().max(2000).describe("What happened"),
          claim_date: z
            .string()
            .regex(/^\d{4}-\d{2}-\d{2}$/)
            .describe("x".repeat(200)),
          ...extra,
        },
      },
      { id: "CONFIRM", description: "File it", requiresConfirmation: true },
    ],
    effect: {
      kind: "test.claim",
      description: "File",
      execute: async () => ({ status: "applied", response: {} }),
      verify: async () => ({ happened: false, details: {} }),
    },
  });
}

describe("laterFields", () => {
  it("names the later required fields with their choices, free text, or a cut description", () => {
    const later = laterFields(flow(), "RECORD", {}, {});
    expect(later).toEqual({
      category: "damage | loss",
      statement: "free text, the user's words",
      claim_date: `${"x".repeat(69)}…`,
    });
  });

  it("leaves out what was given and the node it stopped at, and says nothing at the confirmation", () => {
    expect(Object.keys(laterFields(flow(), "KIND", { category: "loss", statement: "lost" }, {}))).toEqual([
      "claim_date",
    ]);
    expect(laterFields(flow(), "CONFIRM", {}, {})).toEqual({});
  });

  it("names a few fields, however long the flow", () => {
    const many = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`f${i}`, z.number()]));
    expect(Object.keys(laterFields(flow(many), "RECORD", {}, {})).length).toBe(6);
  });
});
