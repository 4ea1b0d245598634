import { z } from "zod";
import { faultInputSchema, faultSchema } from "../faults/fault-registry";
import { defineRoute } from "../http/define-route";

/** Test and demo controls, guarded by X-Admin-Key; faults never apply to these. */
export const adminRoutes = [
  defineRoute({
    method: "POST",
    path: "/admin/faults",
    operationId: "addFault",
    summary: "Inject a fault into matching calls",
    description:
      "Modes: latency (add latency_ms), error (503 at error_rate), down (every matching call 503), commit_then_timeout (apply the change, hold the response latency_ms then drop the socket), noop_success (answer as if it worked, change nothing). count limits it to the next N calls.",
    tag: "admin",
    auth: "admin",
    body: faultInputSchema,
    response: faultSchema,
    status: 201,
    handler: ({ body, services }) => services.faults.add(body),
  }),
  defineRoute({
    method: "GET",
    path: "/admin/faults",
    operationId: "listFaults",
    summary: "Active faults",
    tag: "admin",
    auth: "admin",
    response: z.strictObject({ data: z.array(faultSchema) }),
    handler: ({ services }) => ({ data: services.faults.list() }),
  }),
  defineRoute({
    method: "DELETE",
    path: "/admin/faults",
    operationId: "clearFaults",
    summary: "Remove every fault",
    tag: "admin",
    auth: "admin",
    response: z.strictObject({ cleared: z.literal(true) }),
    handler: ({ services }) => {
      services.faults.clear();
      return { cleared: true as const };
    },
  }),
  defineRoute({
    method: "POST",
    path: "/admin/reset",
    operationId: "resetDemoData",
    summary: "Restore the demo data, forget idempotency keys and clear faults",
    tag: "admin",
    auth: "admin",
    response: z.strictObject({ reset: z.literal(true) }),
    handler: ({ services }) => {
      services.resetDemoData();
      services.faults.clear();
      return { reset: true as const };
    },
  }),
];
