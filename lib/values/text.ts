/**
 * The number of characters (code points) of a text, as the API's limits count them: JSON Schema's
 * maxLength and PostgreSQL's varchar count code points, while String#length counts UTF-16 units
 * (an emoji is two).
 */
export function charLength(value: string): number {
  // A surrogate pair is one code point, as the string iterator counts it (a lone surrogate is one
  // too). Counted in place: every text field of every imported row passes here.
  let count = value.length;
  for (let i = 0; i < value.length - 1; i++) {
    const unit = value.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = value.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        count -= 1;
        i += 1;
      }
    }
  }
  return count;
}
