import {
  capabilityFormRoute,
  defineRoute,
  isOutcome,
  type ListPage,
  link,
  listPage,
  NOT_FOUND_FOR,
  objectSections,
  outcomePage,
  pageNumber,
} from "signpost/sdk";
import type { Account, Adapter } from "./adapter";

/** `example://` pages: the accounts listing, one account, and the note form. */
export const EXAMPLE_ROUTES = [
  defineRoute({
    pattern: "example://accounts",
    title: "Accounts",
    description: "Every account with its status; open one to add a note.",
    keywords: ["accounts", "customers", "clients"],
    startPoint: true,
    async render(match, backend) {
      const page = pageNumber(match.uri);
      const result = await backend.withAdapter<Adapter, ListPage<Account>>("example", async (adapter) => {
        const answer = await adapter.accounts(page);
        return {
          data: answer?.data ?? [],
          page,
          next_page: answer?.next_page ?? null,
          total: answer?.total ?? 0,
        };
      });
      return listPage(
        "Accounts",
        match.uri,
        result,
        ["id", "name", "status"],
        (row) => `example://account/${row.id}`,
        "In the system's order",
      );
    },
  }),
  defineRoute({
    pattern: "example://account/{id}",
    title: "Account",
    description: "One account, its notes, and the form to add one.",
    keywords: ["account", "notes"],
    async render(match, backend) {
      const id = match.params.id ?? "";
      const account = await backend.withAdapter<Adapter, Account | null>("example", (adapter) =>
        adapter.account(id),
      );
      if (account === null) return NOT_FOUND_FOR("account", id);
      if (isOutcome(account)) return outcomePage(`Account ${id}`, account);
      return {
        title: `Account ${account.name}`,
        outcome: "applied",
        markdown: `${objectSections(account)}\n\n## Actions\n\n- ${link("Add a note", `example://account/${id}/note`)}`,
      };
    },
  }),
  capabilityFormRoute(
    {
      pattern: "example://account/{id}/note",
      title: "Add a note",
      description: "Form: add a note to an account; a person approves its text first.",
      keywords: ["note", "comment", "add note"],
    },
    {
      capability: "example_add_note",
      entity: { name: "example_account", param: "id" },
      back: (p) => ({ label: `Back to account ${p.id}`, uri: `example://account/${p.id}` }),
    },
  ),
];
