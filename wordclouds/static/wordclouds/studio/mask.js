// The shape a mask image gives, drawn the way the engine decides it: a pixel is inside when
// its alpha is at least 128 and its luminance (Pillow's "L": ITU-R 601-2 weights, rounded)
// is below MASK_THRESHOLD.

const PREVIEW_SIDE = 360;

export function luminance(red, green, blue) {
  return (red * 19595 + green * 38470 + blue * 7471 + 0x8000) >> 16;
}

export class MaskPreview {
  constructor(canvas) {
    this.canvas = canvas;
    this.pixels = null;
  }

  async load(file) {
    const bitmap = await createImageBitmap(file);
    const scale = Math.min(1, PREVIEW_SIDE / Math.max(bitmap.width, bitmap.height));
    this.canvas.width = Math.max(1, Math.round(bitmap.width * scale));
    this.canvas.height = Math.max(1, Math.round(bitmap.height * scale));
    const context = this.canvas.getContext("2d", { willReadFrequently: true });
    context.clearRect(0, 0, this.canvas.width, this.canvas.height);
    context.drawImage(bitmap, 0, 0, this.canvas.width, this.canvas.height);
    this.pixels = context.getImageData(0, 0, this.canvas.width, this.canvas.height);
    return { width: bitmap.width, height: bitmap.height };
  }

  // Draws the shape; returns the share of the image inside it (0 means nothing to fill).
  draw(threshold) {
    if (!this.pixels) return 0;
    const source = this.pixels.data;
    const shape = new ImageData(this.pixels.width, this.pixels.height);
    let inside = 0;
    for (let i = 0; i < source.length; i += 4) {
      const filled = source[i + 3] >= 128
        && luminance(source[i], source[i + 1], source[i + 2]) < threshold;
      inside += filled;
      const [r, g, b] = filled ? [47, 111, 222] : [236, 240, 245];
      shape.data.set([r, g, b, 255], i);
    }
    this.canvas.getContext("2d").putImageData(shape, 0, 0);
    return inside / (source.length / 4);
  }
}
