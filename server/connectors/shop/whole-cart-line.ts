/**
 * What the person's screen says of an order that is their whole cart, naming its items
 * ("all of it (Signpost Mug ×2, Logo Tee (M) ×1), emptied once paid"). Played (issue
 * 23): "these are its items" named none, and the model read the cart to learn what it held.
 */
export function wholeCartLine(lines: ReadonlyArray<{ name: string; quantity: number }>): string {
  const items = lines.map((l) => `${l.name} ×${l.quantity}`).join(", ");
  const shown = items.length > 80 ? `${items.slice(0, 79)}…` : items;
  return `all of it (${shown}), emptied once paid`;
}
