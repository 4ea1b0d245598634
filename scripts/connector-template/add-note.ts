import { defineCapability, sendWithRetries, toEffectResult } from "signpost/sdk";
import { z } from "zod";
import type { Account, Adapter } from "./adapter";

/**
 * One business intent with a person in the loop: add a note to an account. The agent fills
 * ACCOUNT and NOTE; CONFIRM waits for the person's approval; the effect is sent once, with the
 * action key, and verified by reading the account back.
 */
export const exampleAddNote = defineCapability<Adapter, { account: Account }>({
  id: "example_add_note",
  connector: "example",
  title: "Add a note to an account",
  description: "Adds one note to an active account, after the person approves its text.",
  trigger: { use: "Someone wants a note recorded on an account.", avoid: "Not for closed accounts." },
  synonyms: ["note", "comment", "remark", "annotate"],
  appliesTo: { entity: "example_account", field: "account_id" },
  prerequisites: ["an active account"],
  sideEffects: ["adds a note to the account"],
  policy: {
    effect: "write",
    permission: "example.account.note",
    roles: ["admin", "support", "member"],
    approval: "always",
    retry: { attempts: 3, backoffMs: 100 },
    timeoutMs: 3000,
    audit: "full",
  },
  nodes: [
    {
      id: "ACCOUNT",
      description: "The account; closed accounts take no notes",
      fields: {
        account_id: z
          .string()
          .trim()
          .regex(/^example_[0-9]{1,12}$/, "an account id such as example_1"),
      },
      async resolve({ adapter, values }) {
        const id = values.account_id as string | undefined;
        if (!id) return {};
        const account = await adapter.account(id);
        if (!account) return { notFound: { entity: "example_account", id } };
        return {
          derived: { account },
          options: { account: { id: account.id, name: account.name, status: account.status } },
          errors:
            account.status === "active"
              ? []
              : [{ field: "account_id", code: "account_closed", message: "The account is closed" }],
        };
      },
    },
    {
      id: "NOTE",
      description: "What the note says",
      fields: { text: z.string().trim().min(1).max(500).describe("The note's text") },
    },
    { id: "CONFIRM", description: "Add the note", requiresConfirmation: true },
  ],
  summarize: ({ values, derived }) => ({
    title: "Add a note",
    account: derived.account.name,
    account_id: derived.account.id,
    text: values.text,
  }),
  effect: {
    kind: "example.note",
    description: "Add the note to the account",
    async execute({ adapter, derived, values, actionKey, attempts, timeoutMs }) {
      const account = derived.account;
      const res = await sendWithRetries(
        adapter.http,
        {
          method: "POST",
          path: `/v1/accounts/${encodeURIComponent(account.id)}/notes`,
          idempotencyKey: actionKey,
          body: { text: values.text },
        },
        { attempts, timeoutMs },
      );
      return toEffectResult(res, async (body) => {
        const note = body as { id?: unknown };
        return typeof note.id === "string"
          ? { applied: true, externalId: note.id }
          : { applied: false, message: "the system answered without a note" };
      });
    },
    async verify({ adapter, derived, actionKey }) {
      const account = await adapter.account(derived.account.id);
      const note = account?.notes?.find((n) => n.reference === actionKey);
      return note
        ? { happened: true, externalId: note.id, details: { note_id: note.id } }
        : { happened: false, details: { account_id: account?.id ?? null } };
    },
  },
});
