/**
 * What a scripted agent takes from one tool result, the way a model would: either from the text
 * block alone (what hosts that show only `content` give the model) or from `structuredContent`
 * serialized as JSON (hosts that pass the structured result). Both readers produce the same
 * Reading, so the same agent policy runs on either and a worse response makes it worse.
 */
export interface NextStep {
  tool: string;
  args: Record<string, unknown>;
  description: string;
  needsApproval: boolean;
}

export interface Choice {
  /** The value to send back (an id, a code, a kind). */
  id: string;
  /** Everything the response says about it, for matching the user's words. */
  line: string;
}

export interface Reading {
  outcome: string;
  message: string;
  reason?: string;
  /** Fields the action still needs, and fields that failed validation. */
  needs: string[];
  choices: Choice[];
  next: NextStep[];
  approvalUrl?: string;
  /** The action the answer is about, where one was started. */
  actionId?: string;
  /** search_capabilities results: each capability with the inputs it lists. */
  capabilities: Array<{ id: string; inputs: string[] }>;
  /** Links of a browse page (navigate targets). */
  links: string[];
  /** The answer says to ask the user first (several records fit a change nobody approves). */
  askUser?: boolean;
  /** What the model read, for the token count and for checking answers. */
  read: string;
}

const OUTCOMES = [
  "applied",
  // The text's words for an applied call that executed nothing yet.
  "ready",
  "awaiting_approval",
  "preview",
  "input_required",
  "rejected",
  "conflict",
  "not_found",
  "temporarily_unavailable",
  "unknown",
];

/** Reads only the text block. */
export function readText(text: string): Reading {
  const lines = text.split("\n");
  const head = /^\**([a-z_]+)\**:?\s*[—:-]?\s*(.*)$/.exec(lines[0] ?? "");
  const worded = head && OUTCOMES.includes(head[1] ?? "");
  // A read that answered (get_context, search_capabilities) is headed by its message alone: no
  // outcome word means it answered and changed nothing, as a model reads it.
  const outcome = worded ? String(head?.[1]) : "applied";
  const reading: Reading = {
    outcome,
    message: worded ? (head?.[2] ?? "") : (lines[0] ?? ""),
    needs: [],
    choices: [],
    next: [],
    capabilities: [],
    links: [],
    read: text,
  };
  let actionId: string | undefined;
  let version: number | undefined;
  let section = "";
  for (const raw of lines.slice(1)) {
    const line = raw.trim();
    const ids = /action `?([A-Za-z0-9_-]+)`?\s*·\s*(?:version |v)(\d+)/.exec(line);
    if (ids) {
      actionId = ids[1];
      version = Number(ids[2]);
    }
    const reason = /reason:? `?([a-z_]+)`?/.exec(line);
    if (reason && !reading.reason) reading.reason = reason[1];
    const fields = /^(?:\*\*)?(missing|fix|validation_errors)(?:\*\*)?:\s*(.*)$/i.exec(line);
    if (fields) {
      for (const part of (fields[2] ?? "").split(/[;,]\s*/)) {
        const f = /^`?([a-z_][a-z0-9_]*)/.exec(part.trim())?.[1];
        if (f && !reading.needs.includes(f)) reading.needs.push(f);
      }
      section = fields[1]?.toLowerCase() ?? "";
      continue;
    }
    if (section === "fix" && line.startsWith("- ")) {
      const f = /^- `?([a-z_][a-z0-9_]*)/.exec(line)?.[1];
      if (f && !reading.needs.includes(f)) reading.needs.push(f);
      continue;
    }
    const header = /^(?:\*\*)?([A-Za-z_. ]+?)(?:\*\*)?:\s*$/.exec(line);
    if (header) {
      section = (header[1] ?? "").toLowerCase();
      continue;
    }
    if (/^ask the user:/.test(line)) reading.askUser = true;
    const approve = /approve at:?\s*(\S+)/i.exec(line);
    if (approve) reading.approvalUrl = approve[1];
    if (section.startsWith("next") && line.startsWith("- ")) {
      const tool = /^- `?([a-z_]+)`?/.exec(line);
      if (tool) {
        let rest = line.slice(tool[0].length).trim();
        // `{action_id, version}`: the arguments named, their values the facts line's.
        const named = /^\{([a-z_]+(?:, [a-z_]+)*)\}\s*/.exec(rest);
        const fromFacts: Record<string, unknown> = {};
        if (named) {
          for (const k of (named[1] ?? "").split(", "))
            fromFacts[k] = k === "action_id" ? actionId : k === "version" ? version : undefined;
          rest = rest.slice(named[0].length);
        }
        const json = balancedJson(rest);
        let args: Record<string, unknown> = {};
        try {
          args = json ? (JSON.parse(json) as Record<string, unknown>) : {};
        } catch {
          args = {};
        }
        reading.next.push({
          tool: tool[1] ?? "",
          args: { ...fromFacts, ...args },
          description: rest.slice(json.length).replace(/^\s*[—-]\s*/, ""),
          needsApproval: /needs (?:the )?user(?:'s)? approval|user's approval carries it out/i.test(line),
        });
      }
      continue;
    }
    // The 2025 rendering: "next: a, b (needs user approval)" on one line, ids on the facts line.
    const oldNext = /^next: (.*)$/.exec(line);
    if (oldNext && !/none/.test(oldNext[1] ?? "")) {
      for (const part of (oldNext[1] ?? "").split(/,\s*/)) {
        const tool = /^([a-z_]+)/.exec(part)?.[1];
        if (!tool) continue;
        reading.next.push({
          tool,
          args: actionId ? { action_id: actionId, ...(version ? { version } : {}) } : {},
          description: part,
          needsApproval: part.includes("needs user approval"),
        });
      }
      continue;
    }
    const capability = /^\d+\. `([a-z][a-z0-9_]*)`.*?inputs:? ([a-z0-9_, ]+)/.exec(line);
    if (capability)
      reading.capabilities.push({
        id: capability[1] ?? "",
        inputs: (capability[2] ?? "").split(/,\s*/).map((f) => f.trim()),
      });
    // Choices: list items or table rows that start with a copyable id.
    const choice = /^(?:- |\| |\d+\. )`([^`]+)`(.*)$/.exec(line);
    if (choice && !section.startsWith("next")) reading.choices.push({ id: choice[1] ?? "", line });
    for (const m of line.matchAll(/\b([a-z]+:\/\/[^\s)`"']+)/g)) reading.links.push(m[1] ?? "");
  }
  reading.actionId = actionId;
  return reading;
}

type Json = Record<string, unknown>;

/** Reads structuredContent as the model would see it serialized. */
export function readStructured(value: unknown): Reading {
  const sc = (value ?? {}) as Json;
  const errors = Array.isArray(sc.validation_errors) ? (sc.validation_errors as Json[]) : [];
  const needs = [
    ...((Array.isArray(sc.missing) ? sc.missing : []) as string[]),
    ...errors.map((e) => String(e.field ?? "").split(".")[0] ?? ""),
  ].filter((f, i, all) => f && all.indexOf(f) === i);
  const choices: Choice[] = [];
  const collect = (item: unknown) => {
    if (!item || typeof item !== "object") return;
    const o = item as Json;
    const id = o.id ?? o.kind ?? o.code ?? o.method ?? o.type ?? o.product_id;
    if (typeof id === "string") choices.push({ id, line: JSON.stringify(o) });
  };
  for (const option of Object.values((sc.options ?? {}) as Json)) {
    if (Array.isArray(option)) option.forEach(collect);
    else collect(option);
  }
  const next = ((sc.next_actions ?? []) as Json[]).map((n) => ({
    tool: String(n.tool),
    args: (n.args ?? {}) as Json,
    description: String(n.description ?? ""),
    needsApproval: n.requires_user_approval === true,
  }));
  const links = Array.isArray(sc.links) ? (sc.links as string[]) : [];
  const capabilities = ((Array.isArray(sc.results) ? sc.results : []) as Json[])
    .filter((c) => typeof c.capability === "string")
    .map((c) => ({ id: String(c.capability), inputs: (c.inputs ?? []) as string[] }));
  return {
    outcome: String(sc.outcome ?? "unknown_format"),
    message: String(sc.message ?? ""),
    reason: typeof sc.reason === "string" ? sc.reason : undefined,
    needs,
    choices,
    next,
    capabilities,
    approvalUrl: typeof sc.approval_url === "string" ? sc.approval_url : undefined,
    askUser: !!sc.ask_user,
    actionId: typeof sc.action_id === "string" ? sc.action_id : undefined,
    links,
    read: JSON.stringify(sc),
  };
}

/** The JSON object a line starts with (braces balanced, strings respected), or "". */
function balancedJson(text: string): string {
  if (!text.startsWith("{")) return "";
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "{") depth++;
    else if (c === "}" && --depth === 0) return text.slice(0, i + 1);
  }
  return "";
}
