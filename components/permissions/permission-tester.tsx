"use client";

import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { apiSend } from "../api-client";
import { Badge, buttonClass, Card, ErrorState, inputClass, labelClass } from "../ui";
import { type Agent, VERBS } from "./rule-draft";

/** Which rule decides a call (verb, target, agent), without making it. */
export function Tester({ agents }: { agents: Agent[] }) {
  const [agentId, setAgentId] = useState("");
  const [verb, setVerb] = useState("submit");
  const [target, setTarget] = useState("");
  const test = useMutation({
    mutationFn: () =>
      apiSend<{
        decision: string;
        target: string;
        message: string;
        source: "rule" | "grant" | "default";
        rule?: {
          id: string;
          pattern: string;
          subjectType: string;
          subjectId: string | null;
          verb: string;
        } | null;
      }>("POST", "/api/console/permissions/test", { agentId, verb, target }),
  });
  return (
    <Card title="Would this be allowed?">
      <form
        className="grid grid-cols-1 gap-3 md:grid-cols-[1fr_10rem_2fr_auto] md:items-end"
        onSubmit={(e) => {
          e.preventDefault();
          test.mutate();
        }}
      >
        <div>
          <label htmlFor="t-agent" className={labelClass}>
            Agent
          </label>
          <select
            id="t-agent"
            required
            value={agentId}
            onChange={(e) => setAgentId(e.target.value)}
            className={`${inputClass} mt-1`}
          >
            <option value="">choose…</option>
            {agents.map((a) => (
              <option key={a.id} value={a.id}>
                {a.name}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="t-verb" className={labelClass}>
            Verb
          </label>
          <select
            id="t-verb"
            value={verb}
            onChange={(e) => setVerb(e.target.value)}
            className={`${inputClass} mt-1`}
          >
            {VERBS.filter((v) => v !== "*").map((v) => (
              <option key={v} value={v}>
                {v}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="t-target" className={labelClass}>
            URI or capability
          </label>
          <input
            id="t-target"
            required
            value={target}
            onChange={(e) => setTarget(e.target.value)}
            placeholder="crm://account/42 or close_account"
            className={`${inputClass} mt-1 font-mono`}
          />
        </div>
        <button type="submit" disabled={test.isPending} className={buttonClass("primary")}>
          Check
        </button>
      </form>
      {test.error ? <ErrorState error={test.error} /> : null}
      {test.data ? (
        <p
          role="status"
          className="mt-3 flex flex-wrap items-center gap-2 text-sm"
          data-testid="tester-result"
        >
          <Badge value={test.data.decision} />
          <code className="text-xs">{test.data.target}</code>
          {test.data.rule ? (
            <span>
              decided by rule{" "}
              <code className="text-xs">
                {test.data.rule.verb} {test.data.rule.pattern}
              </code>{" "}
              ({test.data.rule.subjectType}
              {test.data.rule.subjectId ? ` ${test.data.rule.subjectId}` : ""})
            </span>
          ) : (
            <span>
              {test.data.source === "grant" ? "a granted one-time request" : "the defaults (no rule matched)"}
              : {test.data.message}
            </span>
          )}
        </p>
      ) : null}
    </Card>
  );
}
