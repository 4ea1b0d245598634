import { describe, expect, test } from "vitest";
import type { ApiOperation } from "@/server/connectors/openapi/api-operations";
import type { OperationPlan } from "@/server/connectors/openapi/plan-operations";
import { documentedUnit, requestSummary } from "@/server/connectors/openapi/request-summary";
import { coerceFields, operationFields } from "@/server/connectors/openapi/schema-form-fields";
import { renderSummary, summaryText } from "@/server/connectors/sdk/render-decision-summary";

/**
 * Issue 19 (held-out): the first "in …"/"as …" phrase of a description was drawn as a number's
 * unit ("Amount in USD. Stored and charged as cents." → "in USD" while the API charges cents),
 * and the description itself was dropped once a unit was found.
 */
const op = {
  id: "create",
  method: "post",
  path: "/charges",
  parameters: [],
  security: [],
  body: {
    required: true,
    schema: {
      type: "object",
      properties: {
        amount: { type: "number", description: "Amount in USD. Stored and charged as cents." },
        unit_price: { type: "number", description: "The unit price in US dollars." },
        payment: {
          type: "object",
          properties: { fee: { type: "integer", description: "Fee, as quoted, in cents." } },
        },
      },
    },
  },
} as unknown as ApiOperation;
const fields = operationFields(op);
const plan = { op, kind: "form", pattern: "", params: {}, fields } as unknown as OperationPlan;
const screen = (values: Record<string, unknown>) =>
  summaryText(
    renderSummary({ shown: requestSummary(plan, "Billing", "/charges", coerceFields(fields, values)) }, "x"),
  );

describe("a number's unit is drawn only when the document names one; its description is always shown", () => {
  test("two unit phrases: no unit is drawn, the description says both", () => {
    expect(documentedUnit({ description: "Amount in USD. Stored and charged as cents." })).toBeUndefined();
    const text = screen({ amount: 499 });
    expect(text).toContain("- amount: 499 (Amount in USD. Stored and charged as cents.)");
    expect(text).not.toContain("499 (in USD)");
  });

  test("one unit phrase: the unit is drawn and the description is still shown", () => {
    expect(screen({ unit_price: 499.99 })).toContain(
      "- unit_price: 499.99 (in US dollars) (The unit price in US dollars.)",
    );
  });

  test("a nested value's description is shown beside it", () => {
    expect(screen({ payment: { fee: 30 } })).toContain("- fee: 30 (Fee, as quoted, in cents.)");
  });
});
