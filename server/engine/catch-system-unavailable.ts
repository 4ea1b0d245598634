import { SystemUnavailableError } from "../connectors/sdk/system-errors";

/** Runs a call to a connector's system; one that stays down becomes `{ unavailable }`, an outcome, not a throw. */
export async function catchSystemUnavailable<T>(fn: () => Promise<T>): Promise<T | { unavailable: string }> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof SystemUnavailableError) return { unavailable: err.message };
    throw err;
  }
}
