/**
 * A link's QR code as files staff can print or hand to a partner: SVG (uqr's rendering, as the
 * view shows it) and PNG (the same modules drawn on a canvas, 8 pixels each, with a white border).
 */
import { encode, renderSVG } from 'uqr';

export const qrSvg = (text: string) => renderSVG(text, { border: 2 });

/** The PNG of `text`'s QR code; null where the browser has no canvas to draw it with. */
export function qrPng(text: string, scale = 8): Promise<Blob | null> {
  const { data, size } = encode(text, { border: 2 });
  const canvas = document.createElement('canvas');
  canvas.width = canvas.height = size * scale;
  const context = canvas.getContext('2d');
  if (!context) return Promise.resolve(null);
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, canvas.width, canvas.height);
  context.fillStyle = '#000000';
  data.forEach((row, y) => row.forEach((dark, x) => dark && context.fillRect(x * scale, y * scale, scale, scale)));
  return new Promise((resolve) => canvas.toBlob((blob) => resolve(blob), 'image/png'));
}

/** Saves `blob` as `filename` through a temporary link. */
export function download(blob: Blob, filename: string) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
