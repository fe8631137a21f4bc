import type { Page } from 'playwright';

/** Decodes a PNG in Chromium: its size, distinct colours and share of non-white pixels. */
export async function imageStats(page: Page, png: Buffer) {
  return page.evaluate(async (base64) => {
    const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
    const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
    const context = new OffscreenCanvas(bitmap.width, bitmap.height).getContext('2d')!;
    context.drawImage(bitmap, 0, 0);
    const { data } = context.getImageData(0, 0, bitmap.width, bitmap.height);
    const colours = new Set<number>();
    let nonWhite = 0;
    for (let i = 0; i < data.length; i += 4) {
      const [r, g, b] = [data[i]!, data[i + 1]!, data[i + 2]!];
      colours.add((r << 16) | (g << 8) | b);
      if (r < 240 || g < 240 || b < 240) nonWhite++;
    }
    const pixels = data.length / 4;
    return { width: bitmap.width, colours: colours.size, nonWhite: nonWhite / pixels };
  }, png.toString('base64'));
}
