import { describe, expect, test } from "vitest";
import type { ApiOperation } from "@/server/connectors/openapi/api-operations";
import { checkFields, coerceFields, operationFields } from "@/server/connectors/openapi/schema-form-fields";

/**
 * Issue 19 (held-out): a value under `oneOf`/`anyOf` was neither checked nor held to its
 * declared keys. FastAPI documents `Optional[Model]` as `anyOf: [{object}, {type: null}]`.
 */
const strict = {
  type: "object",
  properties: { amount: { type: "number" } },
  additionalProperties: false,
};
const op = {
  id: "create",
  method: "post",
  path: "/p",
  parameters: [],
  security: [],
  body: {
    required: true,
    schema: {
      type: "object",
      properties: {
        billing: { anyOf: [strict, { type: "null" }] },
        payment: { oneOf: [strict] },
        kind: { anyOf: [{ type: "string", enum: ["a", "b"] }, { type: "integer" }] },
      },
    },
  },
} as unknown as ApiOperation;
const fields = operationFields(op);
const check = (values: Record<string, unknown>) => checkFields(fields, coerceFields(fields, values));

describe("a value under oneOf/anyOf matches one branch", () => {
  test("a key the matching branch does not declare is refused, naming it", () => {
    expect(check({ billing: { amount: 1, on_behalf_of: "acct_attacker" } })).toMatchObject([
      { field: "billing.on_behalf_of", code: "unknown_field", refused: true },
    ]);
    expect(check({ payment: { amount: 5, on_behalf_of: "acct_attacker" } })).toMatchObject([
      { field: "payment.on_behalf_of", code: "unknown_field" },
    ]);
  });

  test("a value of no branch's shape is refused, saying why", () => {
    const errors = check({ billing: { amount: "not a number" } });
    expect(errors).toHaveLength(1);
    expect(errors[0]?.message).toContain("amount: must be a number");
    expect(check({ kind: "c" })).toHaveLength(1);
    expect(check({ kind: 1.5 })).toHaveLength(1);
  });

  test("each branch's own values pass: the object, null (the nullable branch), an enum or an integer", () => {
    expect(check({ billing: { amount: 1 } })).toEqual([]);
    expect(check({ billing: null })).toEqual([]);
    expect(check({ payment: { amount: 2 } })).toEqual([]);
    expect(check({ kind: "a" })).toEqual([]);
    expect(check({ kind: 3 })).toEqual([]);
  });

  test("values nested in a plain object are checked against their properties", () => {
    const plain = operationFields({
      ...op,
      body: { required: true, schema: { type: "object", properties: { top: strict } } },
    } as unknown as ApiOperation);
    expect(checkFields(plain, { top: { amount: "5" } })[0]?.message).toContain("amount: must be a number");
  });
});
