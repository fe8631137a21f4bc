/**
 * FNV-1a, 32 bits: a text as a number, the same on every run and machine. What the commands draw
 * from a seed starts here: `snapshot --anonymize`'s stream for a word, `diff`'s sample of words.
 */
export function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
