import { actionPage } from "./action-page";
import type { BackendOutcome, BrowseBackend, Row } from "./browse-backend";
import type { AnyConnector } from "./define-connector";
import type { PageBody, RouteDefinition } from "./define-route";
import { entityListing } from "./entity-listing";
import { capabilityFormFields, type LineField } from "./form-fields-line";
import { escapeText, link } from "./markdown";
import type { SubmittedWords } from "./not-run-yet";
import {
  fieldsFromOutcome,
  formSection,
  nextActionsList,
  objectSections,
  optionsSections,
  problemsList,
} from "./render-helpers";
import { outcomePage } from "./route-pages";
import { USER_WORDS, userWordsField, userWordsProblem, userWordsUse } from "./user-words-field";

// ---------------------------------------------------------------------------------------------
// Capability forms: a form route is a face of a capability's nodes. Navigating previews the
// capability for the entity (dry run: nothing changes); submitting starts it with the fields as
// the patch; the action page then carries the form of whatever node comes next.
// Every change's form carries one more field, the user's words (USER_WORDS): they go to the start
// as its `intent`, filling the fields they name, and a change nobody must approve runs at once
// exactly where start_action by those words would (the engine's own check: the words name the
// record, or it is the only one).
// ---------------------------------------------------------------------------------------------

interface CapabilityForm {
  capability: string;
  /** The entity the form is about (`get_context` name) and the route parameter holding its id. */
  entity?: { name: string; param: string };
  back(params: Record<string, string>): { label: string; uri: string };
}

export function capabilityFormRoute(
  base: Omit<RouteDefinition, "render" | "submit">,
  form: CapabilityForm,
): RouteDefinition {
  // The fields follow from the capability's definition alone: worked out once per list of
  // connectors (a tenant's, until its setup changes), not on every page that links the form.
  const fieldsOf = new WeakMap<readonly AnyConnector[], Promise<readonly LineField[] | null>>();
  return {
    ...base,
    capability: form.capability,
    async fields(backend) {
      const among = await backend.connectors();
      let fields = fieldsOf.get(among);
      if (!fields) {
        // The record the form is about comes from its URI, never from a field.
        const bound = form.entity
          ? among.flatMap((c) => c.capabilities).find((c) => c.id === form.capability)?.appliesTo.field
          : undefined;
        fields = capabilityFormFields(backend, form.capability, bound).then((found) =>
          found ? Object.freeze(found) : found,
        );
        fieldsOf.set(among, fields);
        fields.catch(() => fieldsOf.delete(among));
      }
      return fields;
    },
    async render(match, backend) {
      const entityId = form.entity ? match.params[form.entity.param] : undefined;
      const preview = await backend.startAction({
        capability: form.capability,
        entity_id: entityId,
        dry_run: true,
      });
      const words = await userWordsUse(backend, form.capability);
      return capabilityFormPage(
        base.title,
        match.uri.uri,
        preview,
        form.back(match.params),
        {},
        undefined,
        words,
      );
    },
    async submit(match, fields, backend) {
      const entityId = form.entity ? match.params[form.entity.param] : undefined;
      const { [USER_WORDS]: said, ...patch } = fields;
      const use = await userWordsUse(backend, form.capability);
      // Taken on every form, as start_action takes words for any capability.
      const problem = userWordsProblem(said);
      if (problem)
        return {
          title: base.title,
          outcome: "rejected",
          markdown: `### Problems\n\n- **${USER_WORDS}:** ${problem}\n\nNothing was started: submit \`${escapeText(match.uri.uri)}\` again with it fixed.`,
        };
      const intent = typeof said === "string" && said.trim() ? said.trim() : undefined;
      const outcome = await backend.startAction({
        capability: form.capability,
        entity_id: entityId,
        patch,
        ...(intent ? { intent } : {}),
      });
      // The field the URI fills, for a form shown again after a start that ended (not a field to send).
      const bound = outcome.status === "refused" ? await boundField(backend, form) : undefined;
      return actionOutcomePage(
        base.title,
        match.uri.uri,
        outcome,
        fields,
        form.back(match.params),
        backend,
        {
          words: use === "runs",
          use,
          said: !!intent,
          form: match.uri.uri,
          // Read only where the answer asks the user among records: where the rest of them are.
          ...(outcome.ask_user
            ? { listing: entityListing(await backend.connectors(), form.capability) }
            : {}),
        },
        bound,
      );
    },
  };
}

/**
 * The form again after a start refused for a choice that cannot be taken: every field but the one
 * the URI fills (the ended action takes no patch), and only the lists of the refused fields (the
 * rest was as the user's words or fields set it).
 */
function anotherChoiceForm(outcome: BackendOutcome, errors: Row[], bound?: string): BackendOutcome {
  const inputs = Array.isArray(outcome.inputs) ? (outcome.inputs as Row[]) : [];
  const fields = inputs.map((i) => String(i.field ?? "")).filter((f) => f && f !== bound);
  const refused = new Set(errors.map((e) => String(e.field)));
  const { field_of, order_of, ...lists } = (outcome.options as Row | undefined) ?? {};
  const fieldOf = (field_of ?? {}) as Record<string, string>;
  const options = Object.fromEntries(
    Object.entries(lists).filter(([list]) => refused.has(String(fieldOf[list] ?? ""))),
  );
  return { ...outcome, allowed_patch: fields, options: { ...options, field_of, order_of } };
}

/** The capability's record field, where the form's URI names the record (never a field to send). */
async function boundField(backend: BrowseBackend, form: CapabilityForm): Promise<string | undefined> {
  if (!form.entity) return undefined;
  const capabilities = (await backend.connectors()).flatMap((c) => c.capabilities);
  return capabilities.find((c) => c.id === form.capability)?.appliesTo.field;
}

function capabilityFormPage(
  title: string,
  uri: string,
  preview: BackendOutcome,
  back: { label: string; uri: string },
  current: Record<string, unknown> = {},
  problems?: BackendOutcome,
  words: "runs" | "fills" | null = null,
): PageBody {
  // A refusal that names its problems (validation errors) keeps the form: the agent sees why.
  const refusalWithProblems = problems !== undefined && preview.outcome === "rejected";
  if (
    preview.outcome !== "preview" &&
    preview.outcome !== "applied" &&
    preview.outcome !== "input_required" &&
    !refusalWithProblems
  ) {
    return outcomePage(title, preview, back);
  }
  const parts: string[] = [];
  if (typeof preview.capability === "string") parts.push(`Capability: \`${preview.capability}\``);
  if (typeof preview.explanation === "string") parts.push(escapeText(preview.explanation));
  // A read-only capability's dry run already holds its answer (tracking events): shown, not "Preview
  // only … done" over an empty form the agent had to submit to see it (round 3's model did).
  const result =
    !problems && preview.result && typeof preview.result === "object" ? (preview.result as Row) : null;
  if (result)
    parts.push("Read-only: the answer is below; nothing was changed and there is nothing to submit.");
  else if (typeof preview.message === "string") parts.push(escapeText(preview.message));
  if (problems) parts.push(problemsList(problems));
  if (result) parts.push(`## Result\n\n${objectSections(result)}`);
  const options = optionsSections(preview);
  if (options) parts.push(`## Choices\n\n${options}`);
  const fields = fieldsFromOutcome(preview, current);
  // Only on the capability's own form: an action's later step keeps the words of its start.
  if (words && !uri.startsWith("actions://")) fields.push(userWordsField(current[USER_WORDS], words));
  if (!result || fields.length)
    parts.push(
      formSection(
        uri,
        fields,
        fields.some((f) => f.name === USER_WORDS),
      ),
    );
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
  said: SubmittedWords,
  bound?: string,
): PageBody {
  const actionId = outcome.action_id;
  if (outcome.outcome === "rejected" || outcome.outcome === "not_found" || outcome.outcome === "conflict") {
    // An action refused at its start ended there (its status says so): its page would be a dead
    // form, so the problems come with this form's own page, as the preview showed it.
    const ended = outcome.status === "refused";
    const errors = Array.isArray(outcome.validation_errors) ? (outcome.validation_errors as Row[]) : null;
    // Refused only for a choice that cannot be taken (sold out): the same form, with what was
    // sent, is the way on with the user's other choice (the ended action takes no patch).
    const again = !!errors?.length && errors.every((e) => e.choice_closed === true);
    // Refused for the record the URI names (shipped, already so), or with nothing any field
    // could change: the page is the refusal and where to go; its form invited the same submit
    // again (set CW: "Problems — order_id: said above", the order as a choice, and the form).
    if (actionId && ended && errors?.length && errors.every((e) => e.field === bound || e.refused === true)) {
      const refusal = outcomePage(title, outcome);
      const next = outcome.next_actions?.length ? `\n\n## Next\n\n${nextActionsList(outcome)}` : "";
      return {
        ...refusal,
        markdown: `${refusal.markdown}${next}\n\n${link(back.label, back.uri)}`,
        capability: typeof outcome.capability === "string" ? outcome.capability : undefined,
        actionId,
      };
    }
    const form = again ? anotherChoiceForm(outcome, errors, bound) : outcome;
    if (actionId && ended && errors)
      return {
        ...capabilityFormPage(title, formUri, form, back, submitted, outcome, said.use),
        actionId,
      };
    if (actionId && Array.isArray(outcome.validation_errors) && outcome.validation_errors.length) {
      return {
        ...capabilityFormPage(title, `actions://${actionId}`, outcome, back, submitted, outcome),
        actionId,
      };
    }
    if (!actionId && Array.isArray(outcome.validation_errors)) {
      return capabilityFormPage(title, formUri, outcome, back, submitted, outcome, said.use);
    }
    return { ...outcomePage(title, outcome, back), actionId };
  }
  const page = actionPage(outcome, backend, { afterSubmit: said });
  return {
    ...page,
    title: `${title}: ${page.title}`,
    markdown: `${page.markdown}\n\n${link(back.label, back.uri)}`,
    actionId,
  };
}
