import type { ValidationError } from "../sdk/outcome";

type Line = { product_id: string; name: string; quantity: number };

/**
 * Why an order said to come from the cart (`from_cart`) cannot: a line the cart does not hold, or
 * holds fewer of. Each refusal names what the cart holds, so the agent can set the items from it
 * or leave the cart out of it without reading the cart again. Empty when every line fits.
 */
export function fromCartRefusals(lines: readonly Line[], cart: readonly Line[]): ValidationError[] {
  const inCart = new Map(cart.map((c) => [c.product_id, c.quantity]));
  const holds = cart.length
    ? `your cart holds ${cart.map((c) => `${c.name} ×${c.quantity}`).join(", ")}`
    : "your cart is empty";
  const way = "buy only what it holds, or send from_cart false (the cart then stays as it is)";
  const out: ValidationError[] = [];
  for (const line of lines) {
    const held = inCart.get(line.product_id) ?? 0;
    if (held >= line.quantity) continue;
    out.push(
      held === 0
        ? {
            field: "from_cart",
            code: "not_in_cart",
            message: `${line.name} (${line.product_id}) is not in your cart; ${holds}: ${way}`,
          }
        : {
            field: "from_cart",
            code: "more_than_in_cart",
            message: `${line.name} ×${line.quantity} is more than your cart's ×${held}; ${holds}: ${way}`,
          },
    );
  }
  return out;
}
