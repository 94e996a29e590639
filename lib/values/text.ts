/**
 * The number of characters (code points) of a text, as the API's limits count them: JSON Schema's
 * maxLength and PostgreSQL's varchar count code points, while String#length counts UTF-16 units
 * (an emoji is two).
 */
export function charLength(value: string): number {
  // The string iterator walks code points: a surrogate pair is one step.
  return Array.from(value).length;
}
