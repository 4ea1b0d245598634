/**
 * What the agent's text and the person's screen say beside a reason filled with the user's
 * request (their words held a why: "it came late; refund the difference"): read by the engine
 * that fills it and by the pages that must not repeat it as a choice. It says whose words they
 * are and nothing more: "taken from the request: the user gave no reason of their own" read as
 * "ask the user for a reason", and the model advanced with one (an extra call and approval).
 */
export const REQUEST_NOTE = "the user's own words";
