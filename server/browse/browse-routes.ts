import type { BackendOutcome, BrowseBackend, ListPage, OutcomeKindLike, Row } from "./browse-backend";
import { escapeText, type FormField, fieldList, formBlock, link, money } from "./markdown";
import { type BrowseUri, formatBrowseUri } from "./parse-browse-uri";
import {
  fieldsFromOutcome,
  formSection,
  humanize,
  nextActionsList,
  objectSections,
  optionsSections,
  problemsList,
  rowsTable,
} from "./render-helpers";

/** A rendered page before the browse layer adds its footer and link list. */
export interface PageBody {
  title: string;
  outcome: OutcomeKindLike;
  markdown: string;
  actionId?: string;
  capability?: string;
}

export interface RouteMatch {
  uri: BrowseUri;
  params: Record<string, string>;
}

export interface RouteDefinition {
  /** `scheme://segment/{param}`; the route table is also the search index of the URI structure. */
  pattern: string;
  title: string;
  description: string;
  /** Words people use for this page ("tickets assigned to me", "my orders"). */
  keywords: string[];
  /** Listing/start pages are offered on not-found pages and by structural search. */
  startPoint?: boolean;
  /** Example query suffix for listing routes that take filters, shown in search results. */
  example?: string;
  render(match: RouteMatch, backend: BrowseBackend): Promise<PageBody>;
  /** Present on form routes: `submit(uri, fields)` lands here. */
  submit?(match: RouteMatch, fields: Record<string, unknown>, backend: BrowseBackend): Promise<PageBody>;
}

const PER_PAGE_NOTE = "Lists paginate: follow the next-page link.";

function isOutcome(value: unknown): value is BackendOutcome {
  return (
    !!value &&
    typeof value === "object" &&
    typeof (value as BackendOutcome).outcome === "string" &&
    "message" in (value as object)
  );
}

/** A typed refusal from below, as a page: what happened and where to go. */
export function outcomePage(
  title: string,
  outcome: BackendOutcome,
  back?: { label: string; uri: string },
): PageBody {
  const lines = [`**${outcome.outcome}:** ${escapeText(outcome.message)}`];
  if (outcome.reason) lines.push(`Reason: \`${outcome.reason}\``);
  if (back) lines.push(`\n${link(back.label, back.uri)}`);
  return { title, outcome: outcome.outcome, markdown: lines.join("\n") };
}

function pagination(uri: BrowseUri, page: ListPage<Row>): string {
  const links: string[] = [];
  if (page.page > 1)
    links.push(
      link(
        "Previous page",
        formatBrowseUri(uri.scheme, uri.segments, { ...uri.query, page: String(page.page - 1) }),
      ),
    );
  if (page.next_page)
    links.push(
      link(
        "Next page",
        formatBrowseUri(uri.scheme, uri.segments, { ...uri.query, page: String(page.next_page) }),
      ),
    );
  return `Page ${page.page} · ${page.total} in all${links.length ? ` · ${links.join(" · ")}` : ""}`;
}

/** `?per_page=` (1–50) on listing routes; absent = the backend's default. */
function perPage(uri: BrowseUri): number | undefined {
  const n = Number.parseInt(uri.query.per_page ?? "", 10);
  return Number.isFinite(n) && n >= 1 && n <= 50 ? n : undefined;
}

function pageNumber(uri: BrowseUri): number {
  const n = Number.parseInt(uri.query.page ?? "1", 10);
  return Number.isFinite(n) && n >= 1 && n <= 10_000 ? n : 1;
}

const NOT_FOUND_FOR = (what: string, id: string): PageBody => ({
  title: "Not found",
  outcome: "not_found",
  markdown: `No ${what} \`${escapeText(id)}\` exists for you.`,
});

// ---------------------------------------------------------------------------------------------
// Capability forms: a form route is a face of a capability's nodes. Navigating previews the
// capability for the entity (dry run: nothing changes); submitting starts it with the fields as
// the patch; the action page then carries the form of whatever node comes next.
// ---------------------------------------------------------------------------------------------

interface CapabilityForm {
  capability: string;
  entity?: { type: "order" | "ticket"; param: string };
  back(params: Record<string, string>): { label: string; uri: string };
}

function capabilityFormRoute(
  base: Omit<RouteDefinition, "render" | "submit">,
  form: CapabilityForm,
): RouteDefinition {
  return {
    ...base,
    async render(match, backend) {
      const entityId = form.entity ? match.params[form.entity.param] : undefined;
      const preview = await backend.startAction({
        capability: form.capability,
        entity_id: entityId,
        dry_run: true,
      });
      return capabilityFormPage(base.title, match.uri.uri, preview, form.back(match.params));
    },
    async submit(match, fields, backend) {
      const entityId = form.entity ? match.params[form.entity.param] : undefined;
      const outcome = await backend.startAction({
        capability: form.capability,
        entity_id: entityId,
        patch: fields,
      });
      return actionOutcomePage(base.title, match.uri.uri, outcome, fields, form.back(match.params), backend);
    },
  };
}

function capabilityFormPage(
  title: string,
  uri: string,
  preview: BackendOutcome,
  back: { label: string; uri: string },
  current: Record<string, unknown> = {},
  problems?: BackendOutcome,
): PageBody {
  if (
    preview.outcome !== "preview" &&
    preview.outcome !== "applied" &&
    preview.outcome !== "input_required"
  ) {
    return outcomePage(title, preview, back);
  }
  const parts: string[] = [];
  if (typeof preview.capability === "string") parts.push(`Capability: \`${preview.capability}\``);
  if (typeof preview.explanation === "string") parts.push(escapeText(preview.explanation));
  if (typeof preview.message === "string") parts.push(escapeText(preview.message));
  if (problems) parts.push(problemsList(problems));
  const options = optionsSections(preview);
  if (options) parts.push(`## Choices\n\n${options}`);
  parts.push(formSection(uri, fieldsFromOutcome(preview, current)));
  parts.push(link(back.label, back.uri));
  return {
    title,
    outcome: problems ? problems.outcome : preview.outcome,
    markdown: parts.join("\n\n"),
    capability: typeof preview.capability === "string" ? preview.capability : undefined,
  };
}

/** After a submit: the form again with problems, or where the action now stands. */
function actionOutcomePage(
  title: string,
  formUri: string,
  outcome: BackendOutcome,
  submitted: Record<string, unknown>,
  back: { label: string; uri: string },
  backend: BrowseBackend,
): PageBody {
  const actionId = outcome.action_id;
  if (outcome.outcome === "rejected" || outcome.outcome === "not_found" || outcome.outcome === "conflict") {
    if (actionId && Array.isArray(outcome.validation_errors) && outcome.validation_errors.length) {
      return {
        ...capabilityFormPage(title, `actions://${actionId}`, outcome, back, submitted, outcome),
        actionId,
      };
    }
    if (!actionId && Array.isArray(outcome.validation_errors)) {
      return capabilityFormPage(title, formUri, outcome, back, submitted, outcome);
    }
    return { ...outcomePage(title, outcome, back), actionId };
  }
  const page = actionPage(outcome, backend);
  return {
    ...page,
    title: `${title}: ${page.title}`,
    markdown: `${page.markdown}\n\n${link(back.label, back.uri)}`,
    actionId,
  };
}

/** An action as a page: where it stands, its summary, the next form, approval link. */
function actionPage(outcome: BackendOutcome, backend: BrowseBackend): PageBody {
  const actionId = String(outcome.action_id ?? "");
  const uri = `actions://${actionId}`;
  const parts: string[] = [];
  parts.push(
    fieldList([
      ["Action", actionId],
      ["Capability", outcome.capability],
      ["Node", outcome.node],
      ["Status", outcome.status],
      ["Version", outcome.version],
    ]),
  );
  parts.push(`**${outcome.outcome}:** ${escapeText(outcome.message)}`);
  const problems = Array.isArray(outcome.validation_errors) && outcome.validation_errors.length > 0;
  if (problems) parts.push(problemsList(outcome));
  if (outcome.summary && typeof outcome.summary === "object") {
    parts.push(`## Summary\n\n${objectSections(outcome.summary as Row)}`);
  }
  if (outcome.result && typeof outcome.result === "object") {
    parts.push(`## Result\n\n${objectSections(outcome.result as Row)}`);
  }
  if (outcome.verification && typeof outcome.verification === "object") {
    parts.push(`## Verification\n\n${objectSections(outcome.verification as Row)}`);
  }
  const options = optionsSections(outcome);
  if (options) parts.push(`## Choices\n\n${options}`);
  const next = outcome.next_actions ?? [];
  if (outcome.requires_confirmation === true && next.some((n) => n.tool === "confirm_action")) {
    const url =
      typeof outcome.approval_url === "string"
        ? outcome.approval_url
        : backend.consoleUrl(`/confirm/${actionId}`);
    parts.push(
      `## Confirmation\n\nThis action is at its confirmation step. A person must approve version ${escapeText(outcome.version)} before anything happens: ${url}\n\nAfter approval, confirm it with the \`confirm_action\` tool (an idempotency key is required).`,
    );
  }
  const allowed = Array.isArray(outcome.allowed_patch) ? (outcome.allowed_patch as string[]) : [];
  if (allowed.length && outcome.version !== undefined && next.some((n) => n.tool === "advance_action")) {
    const fields: FormField[] = [
      {
        name: "version",
        type: "integer",
        required: true,
        description: "the version shown above (stale versions are refused)",
        value: outcome.version,
      },
      ...fieldsFromOutcome(outcome),
    ];
    parts.push(formSection(uri, fields));
  }
  const pageLinks: string[] = [link("This action", uri)];
  if (next.some((n) => n.tool === "confirm_action")) pageLinks.push(link("Confirm (form)", `${uri}/confirm`));
  if (next.some((n) => n.tool === "verify_action"))
    pageLinks.push(link("Verify with the business system", `${uri}/verify`));
  parts.push(`## Next\n\n${nextActionsList(outcome)}\n\n${pageLinks.map((l) => `- ${l}`).join("\n")}`);
  return {
    title: `Action ${actionId}`,
    outcome: outcome.outcome,
    markdown: parts.join("\n\n"),
    actionId,
    capability: typeof outcome.capability === "string" ? outcome.capability : undefined,
  };
}

// ---------------------------------------------------------------------------------------------
// Entity pages
// ---------------------------------------------------------------------------------------------

function viewPage(
  kind: "order" | "ticket",
  id: string,
  view: BackendOutcome,
  formLinks: Array<[string, string]>,
): PageBody {
  if (view.outcome === "not_found") return NOT_FOUND_FOR(kind, id);
  if (view.outcome !== "applied" && view.outcome !== "preview") return outcomePage(`${kind} ${id}`, view);
  const entity = ((view.view ?? view.entity ?? view.order ?? view.ticket) as Row | undefined) ?? {};
  const parts: string[] = [objectSections(entity, ["next_actions", "eligibility", "after_sales", "actions"])];
  const eligibility = (entity.eligibility ?? entity.after_sales ?? view.eligibility) as
    | Row
    | Row[]
    | undefined;
  if (eligibility) {
    parts.push(
      `## What may be done now\n\n${Array.isArray(eligibility) ? rowsTable(eligibility) : objectSections(eligibility)}`,
    );
  }
  if (formLinks.length)
    parts.push(`## Actions\n\n${formLinks.map(([label, uri]) => `- ${link(label, uri)}`).join("\n")}`);
  parts.push(`## Next (action face)\n\n${nextActionsList(view)}`);
  return {
    title: `${kind === "order" ? "Order" : "Ticket"} ${id}`,
    outcome: "applied",
    markdown: parts.join("\n\n"),
  };
}

/** Which forms an order offers now comes from the view's next_actions (the engine decides). */
function orderFormLinks(id: string, view: BackendOutcome): Array<[string, string]> {
  const capabilities = new Set(
    (view.next_actions ?? [])
      .map((n) => (n.args && typeof n.args.capability === "string" ? n.args.capability : undefined))
      .filter(Boolean) as string[],
  );
  const links: Array<[string, string]> = [];
  if (capabilities.has("after_sales"))
    links.push(["After-sales (refund, return, exchange)", `shop://order/${id}/after-sales`]);
  if (capabilities.has("change_delivery_address"))
    links.push(["Change delivery address", `shop://order/${id}/address`]);
  if (capabilities.has("track_shipment")) links.push(["Track shipment", `shop://order/${id}/tracking`]);
  return links;
}

function ticketFormLinks(id: string, view: BackendOutcome): Array<[string, string]> {
  const capabilities = new Set(
    (view.next_actions ?? [])
      .map((n) => (n.args && typeof n.args.capability === "string" ? n.args.capability : undefined))
      .filter(Boolean) as string[],
  );
  const all: Array<[string, string, string]> = [
    ["assign_ticket", "Assign to a teammate", "assign"],
    ["change_ticket_priority", "Change priority", "priority"],
    ["resolve_ticket", "Resolve", "resolve"],
    ["reopen_ticket", "Reopen", "reopen"],
  ];
  return all
    .filter(([cap]) => capabilities.has(cap))
    .map(([, label, path]) => [label, `helpdesk://ticket/${id}/${path}`]);
}

function listPage(
  title: string,
  uri: BrowseUri,
  result: ListPage<Row> | BackendOutcome,
  columns: string[],
  rowLink: (row: Row) => string,
  intro = "",
): PageBody {
  if (isOutcome(result)) return outcomePage(title, result);
  const rows: Row[] = result.data.map((row) => ({ ...row, __link: rowLink(row) }));
  const table = rowsTable(
    rows.map((row) => {
      const out: Row = {};
      for (const col of columns) out[col] = row[col];
      return out;
    }),
    columns,
  );
  const links = rows.map((row, i) => `${i + 1}. ${row.__link}`).join("\n");
  return {
    title,
    outcome: "applied",
    markdown: [intro, table, rows.length ? `Open:\n${links}` : "", pagination(uri, result), PER_PAGE_NOTE]
      .filter(Boolean)
      .join("\n\n"),
  };
}

// ---------------------------------------------------------------------------------------------
// The route table
// ---------------------------------------------------------------------------------------------

export const BROWSE_ROUTES: RouteDefinition[] = [
  {
    pattern: "signpost://start",
    title: "Start",
    description: "Where to begin: every listing and settings page.",
    keywords: ["home", "start", "help", "index", "what can i do"],
    async render(_match, backend) {
      const who = backend.who();
      const starts = BROWSE_ROUTES.filter((r) => r.startPoint).map(
        (r) => `- ${link(r.title, r.pattern)} — ${r.description}`,
      );
      return {
        title: "Signpost",
        outcome: "applied",
        markdown: `Signed in as ${escapeText(who.userName)} (${escapeText(who.userEmail)}) at ${escapeText(who.tenantName)}.\n\n${starts.join("\n")}\n\nUse \`search(query)\` to find records or pages.`,
      };
    },
  },
  {
    pattern: "shop://orders",
    title: "Orders",
    description:
      "Your orders, newest first, with status and total. Filter with ?status=paid|shipped|delivered|pending_payment|cancelled.",
    keywords: ["orders", "my orders", "purchases", "order history", "bought", "订单"],
    startPoint: true,
    example: "shop://orders?status=delivered",
    async render(match, backend) {
      const result = await backend.listOrders({
        page: pageNumber(match.uri),
        perPage: perPage(match.uri),
        status: match.uri.query.status,
      });
      return listPage("Orders", match.uri, result, ["id", "status", "total", "created_at"], (row) =>
        link(`Order ${row.id}`, `shop://order/${row.id}`),
      );
    },
  },
  {
    pattern: "shop://order/{id}",
    title: "Order",
    description:
      "One order: items, payment, shipment, and which after-sales actions apply now and why the others do not.",
    keywords: ["order", "order details", "refund", "return", "exchange"],
    async render(match, backend) {
      const id = match.params.id ?? "";
      const view = await backend.entityView("order", id);
      return viewPage("order", id, view, orderFormLinks(id, view));
    },
  },
  capabilityFormRoute(
    {
      pattern: "shop://order/{id}/after-sales",
      title: "After-sales",
      description:
        "Form: refund, return-and-refund, exchange or shipping-difference refund — the one that fits the order's state.",
      keywords: ["after-sales", "refund", "return", "exchange", "money back", "退款", "退货", "换货"],
    },
    {
      capability: "after_sales",
      entity: { type: "order", param: "id" },
      back: (p) => ({ label: `Back to order ${p.id}`, uri: `shop://order/${p.id}` }),
    },
  ),
  capabilityFormRoute(
    {
      pattern: "shop://order/{id}/address",
      title: "Change delivery address",
      description: "Form: change where an order is delivered (only before it ships).",
      keywords: ["address", "delivery address", "ship to", "change address"],
    },
    {
      capability: "change_delivery_address",
      entity: { type: "order", param: "id" },
      back: (p) => ({ label: `Back to order ${p.id}`, uri: `shop://order/${p.id}` }),
    },
  ),
  capabilityFormRoute(
    {
      pattern: "shop://order/{id}/tracking",
      title: "Track shipment",
      description: "Tracking of a shipped order (read-only: submit with no fields to look it up).",
      keywords: ["tracking", "where is my order", "shipment", "parcel", "delivery status"],
    },
    {
      capability: "track_shipment",
      entity: { type: "order", param: "id" },
      back: (p) => ({ label: `Back to order ${p.id}`, uri: `shop://order/${p.id}` }),
    },
  ),
  {
    pattern: "shop://products",
    title: "Products",
    description: "The catalog with prices and stock. Search with ?q=.",
    keywords: ["products", "catalog", "items", "buy", "shop", "prices"],
    startPoint: true,
    example: "shop://products?q=mug",
    async render(match, backend) {
      const result = await backend.listProducts({
        page: pageNumber(match.uri),
        perPage: perPage(match.uri),
        q: match.uri.query.q,
      });
      return listPage("Products", match.uri, result, ["id", "name", "price", "stock"], (row) =>
        link(String(row.name ?? row.id), `shop://product/${row.id}`),
      );
    },
  },
  {
    pattern: "shop://product/{id}",
    title: "Product",
    description: "One product: price, stock, whether it can be exchanged.",
    keywords: ["product", "price", "stock"],
    async render(match, backend) {
      const id = match.params.id ?? "";
      const product = await backend.product(id);
      if (product === null) return NOT_FOUND_FOR("product", id);
      if (isOutcome(product)) return outcomePage(`Product ${id}`, product);
      return {
        title: String(product.name ?? `Product ${id}`),
        outcome: "applied",
        markdown: `${objectSections(product)}\n\n## Actions\n\n- ${link("Buy (checkout form)", "shop://checkout")}\n- ${link("All products", "shop://products")}`,
      };
    },
  },
  {
    pattern: "shop://cart",
    title: "Cart",
    description: "What is in your cart now, and the link to check out.",
    keywords: ["cart", "basket", "checkout", "购物车"],
    startPoint: true,
    async render(_match, backend) {
      const cart = await backend.cart();
      if (cart === null) return NOT_FOUND_FOR("cart", "mine");
      if (isOutcome(cart)) return outcomePage("Cart", cart);
      const items = Array.isArray(cart.items) ? (cart.items as Row[]) : [];
      return {
        title: "Cart",
        outcome: "applied",
        markdown: `${rowsTable(items, ["product_id", "name", "quantity", "unit_price"])}\n\n- **Subtotal:** ${money(cart.subtotal)}\n\n## Actions\n\n- ${link("Check out", "shop://checkout")}`,
      };
    },
  },
  capabilityFormRoute(
    {
      pattern: "shop://checkout",
      title: "Checkout",
      description:
        "Form: buy items — items and quantities, address, shipping, coupon, payment method; ends at a confirmation a person approves.",
      keywords: ["checkout", "buy", "purchase", "order", "pay", "下单", "购买"],
      startPoint: true,
    },
    { capability: "checkout", back: () => ({ label: "Back to cart", uri: "shop://cart" }) },
  ),
  {
    pattern: "helpdesk://tickets",
    title: "Tickets",
    description:
      "Support tickets. Filter with ?status=open|pending|resolved|closed, ?mine=1 for tickets assigned to me, ?q= to search.",
    keywords: ["tickets", "support", "helpdesk", "assigned to me", "my tickets", "open tickets", "工单"],
    startPoint: true,
    example: "helpdesk://tickets?mine=1",
    async render(match, backend) {
      const result = await backend.listTickets({
        page: pageNumber(match.uri),
        perPage: perPage(match.uri),
        status: match.uri.query.status,
        mine: match.uri.query.mine === "1" || match.uri.query.mine === "true",
        q: match.uri.query.q,
      });
      return listPage(
        "Tickets",
        match.uri,
        result,
        ["id", "subject", "status", "priority", "assignee_id", "team_id"],
        (row) => link(`Ticket ${row.id}: ${String(row.subject ?? "")}`, `helpdesk://ticket/${row.id}`),
      );
    },
  },
  {
    pattern: "helpdesk://ticket/{id}",
    title: "Ticket",
    description: "One ticket: status, priority, assignee and team, and the actions that apply now.",
    keywords: ["ticket", "support request"],
    async render(match, backend) {
      const id = match.params.id ?? "";
      const view = await backend.entityView("ticket", id);
      return viewPage("ticket", id, view, ticketFormLinks(id, view));
    },
  },
  ...(
    [
      [
        "assign",
        "assign_ticket",
        "Assign ticket",
        "Form: give one open ticket to an eligible teammate (another team needs approval).",
        ["assign", "hand over", "give to", "owner", "转派", "分配"],
      ],
      [
        "priority",
        "change_ticket_priority",
        "Change priority",
        "Form: set a ticket's priority (low, normal, high, urgent).",
        ["priority", "urgent", "escalate"],
      ],
      [
        "resolve",
        "resolve_ticket",
        "Resolve ticket",
        "Form: resolve a ticket with a resolution.",
        ["resolve", "close", "done", "fixed"],
      ],
      [
        "reopen",
        "reopen_ticket",
        "Reopen ticket",
        "Form: reopen a resolved or closed ticket.",
        ["reopen", "again", "unresolved"],
      ],
    ] as Array<[string, string, string, string, string[]]>
  ).map(([path, capability, title, description, keywords]) =>
    capabilityFormRoute(
      { pattern: `helpdesk://ticket/{id}/${path}`, title, description, keywords },
      {
        capability,
        entity: { type: "ticket", param: "id" },
        back: (p) => ({ label: `Back to ticket ${p.id}`, uri: `helpdesk://ticket/${p.id}` }),
      },
    ),
  ),
  {
    pattern: "helpdesk://teammates",
    title: "Teammates",
    description: "Support teammates and their teams (who tickets can be assigned to).",
    keywords: ["teammates", "team", "agents", "staff", "who", "assignee"],
    startPoint: true,
    async render(_match, backend) {
      const result = await backend.teammates();
      if (isOutcome(result)) return outcomePage("Teammates", result);
      return {
        title: "Teammates",
        outcome: "applied",
        markdown: rowsTable(result, ["id", "name", "email", "team_id", "active"]),
      };
    },
  },
  {
    pattern: "actions://{action_id}",
    title: "Action",
    description: "One running action: its node, summary, the form of its next step, and approval status.",
    keywords: ["action", "progress", "status", "approval"],
    async render(match, backend) {
      const outcome = await backend.action(match.params.action_id ?? "");
      if (outcome.outcome === "not_found") return NOT_FOUND_FOR("action", match.params.action_id ?? "");
      return actionPage(outcome, backend);
    },
    async submit(match, fields, backend) {
      const actionId = match.params.action_id ?? "";
      const { version, ...patch } = fields;
      const numeric = typeof version === "number" ? version : Number.parseInt(String(version ?? ""), 10);
      if (!Number.isInteger(numeric)) {
        const current = await backend.action(actionId);
        if (current.outcome === "not_found") return NOT_FOUND_FOR("action", actionId);
        const page = actionPage(current, backend);
        return {
          ...page,
          outcome: "rejected",
          markdown: `### Problems\n\n- **version:** required (an integer: the version shown on this page)\n\n${page.markdown}`,
        };
      }
      const outcome = await backend.advanceAction({ action_id: actionId, version: numeric, patch });
      if (outcome.outcome === "not_found") return NOT_FOUND_FOR("action", actionId);
      if (outcome.outcome === "conflict" || (outcome.outcome === "rejected" && !outcome.validation_errors)) {
        return {
          ...outcomePage(`Action ${actionId}`, outcome, {
            label: "Re-read the action",
            uri: `actions://${actionId}`,
          }),
          actionId,
        };
      }
      return actionPage(outcome, backend);
    },
  },
  {
    pattern: "actions://{action_id}/confirm",
    title: "Confirm action",
    description:
      "Form: execute an approved action's effect once (needs the person's approval and an idempotency key).",
    keywords: ["confirm", "execute", "pay", "submit order", "approved"],
    async render(match, backend) {
      const actionId = match.params.action_id ?? "";
      const current = await backend.action(actionId);
      if (current.outcome === "not_found") return NOT_FOUND_FOR("action", actionId);
      const fields: FormField[] = [
        {
          name: "idempotency_key",
          type: "string",
          required: true,
          description: "a unique key for this confirmation; resubmitting with it never repeats the effect",
        },
        {
          name: "version",
          type: "integer",
          required: false,
          description: "the approved version",
          value: current.version,
        },
      ];
      return {
        title: `Confirm action ${actionId}`,
        outcome: "applied",
        markdown: `${fieldList([
          ["Capability", current.capability],
          ["Status", current.status],
          ["Version", current.version],
        ])}\n\n${current.summary && typeof current.summary === "object" ? `## Summary\n\n${objectSections(current.summary as Row)}\n\n` : ""}${formBlock(`actions://${actionId}/confirm`, fields)}\n\n${link("Back to the action", `actions://${actionId}`)}`,
        actionId,
      };
    },
    async submit(match, fields, backend) {
      const actionId = match.params.action_id ?? "";
      const key = typeof fields.idempotency_key === "string" ? fields.idempotency_key : "";
      const version = typeof fields.version === "number" ? fields.version : undefined;
      const outcome = await backend.confirmAction({
        action_id: actionId,
        idempotency_key: key,
        ...(version ? { version } : {}),
      });
      if (outcome.outcome === "not_found") return NOT_FOUND_FOR("action", actionId);
      return {
        ...actionPage({ ...outcome, action_id: outcome.action_id ?? actionId }, backend),
        title: `Confirm action ${actionId}`,
      };
    },
  },
  {
    pattern: "actions://{action_id}/verify",
    title: "Verify action",
    description: "Asks the business system whether the action's effect really happened (read-only).",
    keywords: ["verify", "check", "did it work", "payment status"],
    async render(match, backend) {
      const actionId = match.params.action_id ?? "";
      const outcome = await backend.verifyAction({ action_id: actionId });
      if (outcome.outcome === "not_found") return NOT_FOUND_FOR("action", actionId);
      return {
        ...actionPage({ ...outcome, action_id: outcome.action_id ?? actionId }, backend),
        title: `Verify action ${actionId}`,
      };
    },
  },
  ...(["shop", "helpdesk"] as const).map(
    (connector): RouteDefinition => ({
      pattern: `config://${connector}`,
      title: `${connector} settings`,
      description: `The ${connector} connector's settings; for each secret only whether it is set and when it changed. A form replaces a secret.`,
      keywords: ["config", "settings", "secret", "api key", "credentials", "connection", connector],
      startPoint: true,
      async render(_match, backend) {
        const config = await backend.connectorConfig(connector);
        if (!config) return NOT_FOUND_FOR("connector", connector);
        const secrets = config.secrets.map((s) => ({
          name: s.name,
          set: s.set ? "set" : "not set",
          changed: s.updatedAt ?? "—",
        }));
        const fields: FormField[] = [
          {
            name: "name",
            type: "enum",
            required: true,
            description: "which secret to replace",
            options: config.secrets.map((s) => ({ value: s.name })),
          },
          {
            name: "value",
            type: "string",
            required: true,
            description: "the new value (write-only: it is never shown again)",
          },
        ];
        return {
          title: `${connector} settings`,
          outcome: "applied",
          markdown: [
            fieldList([
              ["Connector", config.connector],
              ["Enabled", config.enabled ? "yes" : "no"],
            ]),
            `### Settings\n\n${objectSections(config.settings) || "_(none)_"}`,
            `### Secrets\n\nValues are never shown.\n\n${rowsTable(secrets, ["name", "set", "changed"])}`,
            `## Form\n\nReplace a secret:\n\n${formBlock(`config://${connector}`, fields)}`,
          ].join("\n\n"),
        };
      },
      async submit(_match, fields, backend) {
        const name = typeof fields.name === "string" ? fields.name : "";
        const value = typeof fields.value === "string" ? fields.value : "";
        const outcome = await backend.setSecret({ connector, name, value });
        // Never echo the value back: the page says only what changed.
        return {
          title: `${connector} settings`,
          outcome: outcome.outcome,
          markdown: `**${outcome.outcome}:** ${escapeText(outcome.message)}\n\n${link(`Back to ${connector} settings`, `config://${connector}`)}`,
        };
      },
    }),
  ),
  {
    pattern: "signpost://permissions/request",
    title: "Request permission",
    description: "Form: ask an admin for a permission you were denied.",
    keywords: ["permission", "access", "denied", "request access", "grant"],
    async render(match) {
      const fields: FormField[] = [
        {
          name: "verb",
          type: "enum",
          required: true,
          description: "what you want to do",
          value: match.uri.query.verb ?? "",
          options: ["search", "navigate", "submit", "start", "advance", "confirm"].map((v) => ({ value: v })),
        },
        {
          name: "target",
          type: "string",
          required: true,
          description: "the URI or capability pattern",
          value: match.uri.query.target ?? "",
        },
        {
          name: "reason",
          type: "string",
          required: false,
          description: "why you need it (shown to the admin)",
        },
      ];
      return {
        title: "Request permission",
        outcome: "applied",
        markdown: `An admin decides; you will not get access by asking twice.\n\n${formBlock("signpost://permissions/request", fields)}`,
      };
    },
    async submit(_match, fields, backend) {
      const verb = typeof fields.verb === "string" ? fields.verb : "";
      const target = typeof fields.target === "string" ? fields.target : "";
      const reason = typeof fields.reason === "string" ? fields.reason : undefined;
      const outcome = await backend.requestPermission({ verb, target, reason });
      return {
        title: "Request permission",
        outcome: outcome.outcome,
        markdown: `**${outcome.outcome}:** ${escapeText(outcome.message)}\n\n${link("Start", "signpost://start")}`,
      };
    },
  },
];

export function matchRoute(uri: BrowseUri): { route: RouteDefinition; match: RouteMatch } | null {
  for (const route of BROWSE_ROUTES) {
    const [scheme, path = ""] = route.pattern.split("://") as [string, string];
    if (scheme !== uri.scheme) continue;
    const parts = path === "" ? [] : path.split("/");
    if (parts.length !== uri.segments.length) continue;
    const params: Record<string, string> = {};
    let ok = true;
    parts.forEach((part, i) => {
      const segment = uri.segments[i] ?? "";
      if (part.startsWith("{") && part.endsWith("}")) params[part.slice(1, -1)] = segment;
      else if (part !== segment) ok = false;
    });
    if (ok) return { route, match: { uri, params } };
  }
  return null;
}

export { humanize };
