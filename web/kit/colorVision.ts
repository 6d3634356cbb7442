// Colour arithmetic for the palette's accessibility tests: simulated colour-vision deficiency
// (Machado, Oliveira and Fernandes 2009, severity 1), CIEDE2000 colour difference and the WCAG 2
// contrast ratio. Pure functions; nothing here is drawn.

export type Rgb = readonly [number, number, number];

/** "#1f5fa8" → [31, 95, 168]; throws on anything else (the palettes are literal hex). */
export function hexToRgb(hex: string): Rgb {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!m) throw new Error(`not a #rrggbb colour: ${hex}`);
  return [parseInt(m[1]!, 16), parseInt(m[2]!, 16), parseInt(m[3]!, 16)];
}

function toLinear(c: number): number {
  const s = c / 255;
  return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
}

function fromLinear(l: number): number {
  const c = Math.min(1, Math.max(0, l));
  const s = c <= 0.0031308 ? 12.92 * c : 1.055 * c ** (1 / 2.4) - 0.055;
  return Math.round(s * 255);
}

export type Deficiency = 'protanopia' | 'deuteranopia' | 'tritanopia';

// Machado et al. 2009, severity 1.0, applied to linear RGB.
const MACHADO: Record<Deficiency, readonly number[]> = {
  protanopia: [
    0.152286, 1.052583, -0.204868, 0.114503, 0.786281, 0.099216, -0.003882, -0.048116, 1.051998,
  ],
  deuteranopia: [
    0.367322, 0.860646, -0.227968, 0.280085, 0.672501, 0.047413, -0.01182, 0.04294, 0.968881,
  ],
  tritanopia: [
    1.255528, -0.076749, -0.178779, -0.078411, 0.930809, 0.147602, 0.004733, 0.691367, 0.3039,
  ],
};

/** The colour as a viewer with the given dichromacy sees it (an approximation). */
export function simulateCvd(rgb: Rgb, deficiency: Deficiency): Rgb {
  const m = MACHADO[deficiency];
  const [r, g, b] = rgb.map(toLinear) as [number, number, number];
  return [
    fromLinear(m[0]! * r + m[1]! * g + m[2]! * b),
    fromLinear(m[3]! * r + m[4]! * g + m[5]! * b),
    fromLinear(m[6]! * r + m[7]! * g + m[8]! * b),
  ];
}

/** sRGB (D65) → CIE L*a*b*. */
export function rgbToLab(rgb: Rgb): [number, number, number] {
  const [r, g, b] = rgb.map(toLinear) as [number, number, number];
  const x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047;
  const y = 0.2126729 * r + 0.7151522 * g + 0.072175 * b;
  const z = (0.0193339 * r + 0.119192 * g + 0.9503041 * b) / 1.08883;
  const f = (t: number) => (t > 216 / 24389 ? Math.cbrt(t) : (24389 / 27 / 116) * t + 16 / 116);
  const [fx, fy, fz] = [f(x), f(y), f(z)];
  return [116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)];
}

const deg = Math.PI / 180;

/** CIEDE2000 colour difference (Sharma, Wu and Dalal 2005). About 2 is just noticeable. */
export function deltaE2000(c1: Rgb, c2: Rgb): number {
  return deltaE2000Lab(rgbToLab(c1), rgbToLab(c2));
}

/** CIEDE2000 between two L*a*b* colours. */
export function deltaE2000Lab(
  [L1, a1, b1]: readonly [number, number, number],
  [L2, a2, b2]: readonly [number, number, number],
): number {
  const C1 = Math.hypot(a1, b1);
  const C2 = Math.hypot(a2, b2);
  const Cm = (C1 + C2) / 2;
  const G = 0.5 * (1 - Math.sqrt(Cm ** 7 / (Cm ** 7 + 25 ** 7)));
  const a1p = (1 + G) * a1;
  const a2p = (1 + G) * a2;
  const C1p = Math.hypot(a1p, b1);
  const C2p = Math.hypot(a2p, b2);
  const hue = (b: number, a: number) => {
    if (a === 0 && b === 0) return 0;
    const h = Math.atan2(b, a) / deg;
    return h < 0 ? h + 360 : h;
  };
  const h1p = hue(b1, a1p);
  const h2p = hue(b2, a2p);
  const dLp = L2 - L1;
  const dCp = C2p - C1p;
  let dhp = 0;
  if (C1p * C2p !== 0) {
    dhp = h2p - h1p;
    if (dhp > 180) dhp -= 360;
    else if (dhp < -180) dhp += 360;
  }
  const dHp = 2 * Math.sqrt(C1p * C2p) * Math.sin((dhp / 2) * deg);
  const Lm = (L1 + L2) / 2;
  const Cmp = (C1p + C2p) / 2;
  let hm = h1p + h2p;
  if (C1p * C2p !== 0) {
    if (Math.abs(h1p - h2p) > 180) hm += h1p + h2p < 360 ? 360 : -360;
    hm /= 2;
  }
  const T =
    1 -
    0.17 * Math.cos((hm - 30) * deg) +
    0.24 * Math.cos(2 * hm * deg) +
    0.32 * Math.cos((3 * hm + 6) * deg) -
    0.2 * Math.cos((4 * hm - 63) * deg);
  const dTheta = 30 * Math.exp(-(((hm - 275) / 25) ** 2));
  const Rc = 2 * Math.sqrt(Cmp ** 7 / (Cmp ** 7 + 25 ** 7));
  const Sl = 1 + (0.015 * (Lm - 50) ** 2) / Math.sqrt(20 + (Lm - 50) ** 2);
  const Sc = 1 + 0.045 * Cmp;
  const Sh = 1 + 0.015 * Cmp * T;
  const Rt = -Math.sin(2 * dTheta * deg) * Rc;
  return Math.sqrt(
    (dLp / Sl) ** 2 + (dCp / Sc) ** 2 + (dHp / Sh) ** 2 + Rt * (dCp / Sc) * (dHp / Sh),
  );
}

/** WCAG 2 relative luminance. */
export function luminance(rgb: Rgb): number {
  const [r, g, b] = rgb.map(toLinear) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG 2 contrast ratio, 1 … 21 (4.5 for normal text, 3 for large text and graphics). */
export function contrastRatio(fg: Rgb, bg: Rgb): number {
  const [l1, l2] = [luminance(fg), luminance(bg)].sort((p, q) => q - p) as [number, number];
  return (l1 + 0.05) / (l2 + 0.05);
}

/** The closest pair of a palette under one way of seeing (normal vision: null). */
export function closestPair(
  colors: readonly string[],
  deficiency: Deficiency | null,
): { a: string; b: string; deltaE: number } {
  const seen = colors.map((c) => (deficiency ? simulateCvd(hexToRgb(c), deficiency) : hexToRgb(c)));
  let best = { a: colors[0] ?? '', b: colors[0] ?? '', deltaE: Infinity };
  for (let i = 0; i < colors.length; i++)
    for (let j = i + 1; j < colors.length; j++) {
      const d = deltaE2000(seen[i]!, seen[j]!);
      if (d < best.deltaE) best = { a: colors[i]!, b: colors[j]!, deltaE: d };
    }
  return best;
}
