/**
 * What the agent's text and the person's screen say beside a reason filled with the user's
 * request: read by the engine that fills it and by the pages that must not repeat it as a choice.
 */
export const REQUEST_NOTE = "taken from the request: the user gave no reason of their own";
