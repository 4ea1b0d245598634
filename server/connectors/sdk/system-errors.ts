// What a connector's system did, as errors every layer can tell apart: down (nothing happened,
// worth retrying) or a refusal (the system said no; asking again unchanged will not help).

/**
 * `instanceof` by brand, not by class identity: a connector installed from outside Signpost's
 * source loads its own copy of this module (and Next.js bundles another), and an outage it
 * throws must still read as an outage everywhere. Subclasses keep plain class checks.
 */
function branded(brand: symbol) {
  return function hasInstance(this: unknown, value: unknown): boolean {
    if (typeof this === "function" && Function.prototype[Symbol.hasInstance].call(this, value)) return true;
    return (
      typeof value === "object" &&
      value !== null &&
      (value as Record<symbol, unknown>)[brand] === true &&
      Object.hasOwn(this as object, "brand") &&
      (this as { brand?: symbol }).brand === brand
    );
  };
}

const UNAVAILABLE = Symbol.for("signpost.SystemUnavailableError");
const REJECTED = Symbol.for("signpost.SystemRejectedError");

/** Thrown by reads when the system stays unavailable through the read budget. */
export class SystemUnavailableError extends Error {
  static readonly brand: symbol = UNAVAILABLE;
  static [Symbol.hasInstance] = branded(UNAVAILABLE);
  readonly [UNAVAILABLE] = true;
  constructor(message: string) {
    super(message);
    this.name = "SystemUnavailableError";
  }
}

/**
 * Thrown by `get` when the system answered a read with a 4xx other than 404 (a bad
 * filter, a rejected key, a validation error). It is typed so callers can tell "the system
 * said no; asking again will not help" from "the system is down" (SystemUnavailableError)
 * and from a bug of our own. The message names the path, status and code only (the system's own text stays in systemMessage).
 */
export class SystemRejectedError extends Error {
  static readonly brand: symbol = REJECTED;
  static [Symbol.hasInstance] = branded(REJECTED);
  readonly [REJECTED] = true;
  readonly status: number;
  readonly code: string;
  /** The system's own explanation; not shown to agents as is (it is the vendor's text). */
  readonly systemMessage: string;
  constructor(path: string, status: number, code: string, systemMessage: string) {
    super(`system ${path}: ${status} ${code}`);
    this.name = "SystemRejectedError";
    this.status = status;
    this.code = code;
    this.systemMessage = systemMessage;
  }
}
