"use client";

import { type FormEvent, useState } from "react";
import { buttonClass, inputClass, labelClass } from "../ui";
import { type Agent, type RuleDraft, VERBS } from "./rule-draft";

/** The form that adds or edits one rule. */
export function RuleForm({
  initial,
  agents,
  submitLabel,
  onSubmit,
  onCancel,
  busy,
  idPrefix,
}: {
  initial: RuleDraft;
  agents: Agent[];
  submitLabel: string;
  onSubmit: (d: RuleDraft) => void;
  onCancel?: () => void;
  busy: boolean;
  idPrefix: string;
}) {
  const [d, setD] = useState(initial);
  const id = (k: string) => `${idPrefix}-${k}`;
  return (
    <form
      className="grid grid-cols-2 gap-3 md:grid-cols-7 md:items-end"
      aria-label={submitLabel}
      onSubmit={(e: FormEvent) => {
        e.preventDefault();
        onSubmit(d);
      }}
    >
      <div>
        <label htmlFor={id("subjectType")} className={labelClass}>
          Subject
        </label>
        <select
          id={id("subjectType")}
          value={d.subjectType}
          onChange={(e) =>
            setD({ ...d, subjectType: e.target.value as RuleDraft["subjectType"], subjectId: "" })
          }
          className={`${inputClass} mt-1`}
        >
          <option value="tenant">everyone</option>
          <option value="role">role</option>
          <option value="agent">agent</option>
        </select>
      </div>
      <div>
        <label htmlFor={id("subjectId")} className={labelClass}>
          Which
        </label>
        {d.subjectType === "agent" ? (
          <select
            id={id("subjectId")}
            required
            value={d.subjectId}
            onChange={(e) => setD({ ...d, subjectId: e.target.value })}
            className={`${inputClass} mt-1`}
          >
            <option value="">choose…</option>
            {agents.map((a) => (
              <option key={a.id} value={a.id}>
                {a.name}
              </option>
            ))}
          </select>
        ) : d.subjectType === "role" ? (
          <select
            id={id("subjectId")}
            required
            value={d.subjectId}
            onChange={(e) => setD({ ...d, subjectId: e.target.value })}
            className={`${inputClass} mt-1`}
          >
            <option value="">choose…</option>
            <option value="member">member</option>
            <option value="support">support</option>
            <option value="admin">admin</option>
          </select>
        ) : (
          <input
            id={id("subjectId")}
            disabled
            value="the whole tenant"
            className={`${inputClass} mt-1 text-slate-600`}
          />
        )}
      </div>
      <div>
        <label htmlFor={id("verb")} className={labelClass}>
          Verb
        </label>
        <select
          id={id("verb")}
          value={d.verb}
          onChange={(e) => setD({ ...d, verb: e.target.value })}
          className={`${inputClass} mt-1`}
        >
          {VERBS.map((v) => (
            <option key={v} value={v}>
              {v}
            </option>
          ))}
        </select>
      </div>
      <div className="col-span-2">
        <label htmlFor={id("pattern")} className={labelClass}>
          URI or capability pattern
        </label>
        <input
          id={id("pattern")}
          required
          maxLength={300}
          placeholder="crm://account/* or capability:close_*"
          value={d.pattern}
          onChange={(e) => setD({ ...d, pattern: e.target.value })}
          className={`${inputClass} mt-1 font-mono`}
        />
      </div>
      <div>
        <label htmlFor={id("decision")} className={labelClass}>
          Decision
        </label>
        <select
          id={id("decision")}
          value={d.decision}
          onChange={(e) => setD({ ...d, decision: e.target.value as RuleDraft["decision"] })}
          className={`${inputClass} mt-1`}
        >
          <option value="allow">allow</option>
          <option value="deny">deny</option>
          <option value="ask">ask</option>
        </select>
      </div>
      <div className="flex gap-2">
        <button type="submit" disabled={busy} className={buttonClass("primary")}>
          {submitLabel}
        </button>
        {onCancel ? (
          <button type="button" onClick={onCancel} className={buttonClass("secondary")}>
            Cancel
          </button>
        ) : null}
      </div>
    </form>
  );
}
