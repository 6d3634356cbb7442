// Handing files to the browser: a chart's SVG made standalone (styles inlined, a title and the
// legend drawn in, since on the page they are HTML), its PNG, and any text as a download.

import { canvasColor, EXPORT_LABEL, EXPORT_PAPER, EXPORT_TITLE } from '../kit/palette';

/** Starts a download of `data` named `name`. */
export function download(name: string, data: Blob | string, mime = 'text/plain'): void {
  const blob =
    typeof data === 'string' ? new Blob([data], { type: `${mime};charset=utf-8` }) : data;
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  a.remove();
  // Revoked later: some browsers read the URL after click() returns.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

// The presentation properties the chart's CSS sets; copied onto each element so the file looks
// like the page without the stylesheet.
const STYLE_PROPS = [
  'fill',
  'fill-opacity',
  'stroke',
  'stroke-width',
  'stroke-dasharray',
  'stroke-opacity',
  'stroke-linecap',
  'stroke-linejoin',
  'opacity',
  'font-family',
  'font-size',
  'font-weight',
  'text-anchor',
  'dominant-baseline',
  'visibility',
  'display',
] as const;

// Values that need not be written: what SVG assumes when a property is absent.
const DEFAULTS: Record<string, string> = {
  opacity: '1',
  'fill-opacity': '1',
  'stroke-opacity': '1',
  'stroke-dasharray': 'none',
  'dominant-baseline': 'auto',
  visibility: 'visible',
  display: 'inline',
};

const NOT_INHERITED = new Set(['opacity', 'display']);

/** Copies the computed presentation styles, leaving out what the parent already gives. */
function inlineStyles(src: Element, dst: Element, parent: CSSStyleDeclaration | null = null): void {
  const cs = getComputedStyle(src);
  const decl = STYLE_PROPS.map((p) => [p, cs.getPropertyValue(p)] as const)
    .filter(
      ([p, v]) =>
        v !== '' &&
        v !== DEFAULTS[p] &&
        (NOT_INHERITED.has(p) || v !== parent?.getPropertyValue(p)),
    )
    .map(([p, v]) => `${p}:${v}`)
    .join(';');
  if (decl) dst.setAttribute('style', decl);
  for (let i = 0; i < src.children.length; i++)
    inlineStyles(src.children[i]!, dst.children[i]!, cs);
}

export interface LegendEntry {
  label: string;
  color: string;
  dashed?: boolean;
}

const NS = 'http://www.w3.org/2000/svg';
const TITLE_LINE = 19;

/** About how wide a character of the bold 14 px title is. */
export const TITLE_CHAR_PX = 8.6;

/** The title in lines that fit `width`, at most three. */
export function wrapTitle(title: string, width: number): string[] {
  const max = Math.max(12, Math.floor((width - 24) / TITLE_CHAR_PX));
  const lines: string[] = [];
  let line = '';
  for (const word of title.split(/\s+/)) {
    if (line && (line + ' ' + word).length > max) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  if (lines.length > 3)
    lines.splice(
      2,
      lines.length - 2,
      `${lines
        .slice(2)
        .join(' ')
        .slice(0, max - 1)}…`,
    );
  return lines;
}
const LEGEND_ROW = 18;

/**
 * The chart as a standalone SVG file: its own size, a white background, the title above and the
 * legend below. Interactive overlays (the hover line, tooltips) are left out.
 */
export function standaloneSvg(
  svg: SVGSVGElement,
  opts: { title: string; legend?: LegendEntry[] },
): { text: string; width: number; height: number } {
  const vb = svg.viewBox.baseVal;
  const width = vb && vb.width ? vb.width : svg.clientWidth || 640;
  const chartH = vb && vb.height ? vb.height : svg.clientHeight || 360;
  const legend = opts.legend ?? [];
  const perRow = Math.max(1, Math.floor(width / 170));
  const legendH = legend.length ? Math.ceil(legend.length / perRow) * LEGEND_ROW + 8 : 0;
  const titleLines = wrapTitle(opts.title, width);
  const TITLE_H = titleLines.length * TITLE_LINE + 10;
  const height = TITLE_H + chartH + legendH;

  const copy = svg.cloneNode(true) as SVGSVGElement;
  inlineStyles(svg, copy);
  copy.querySelectorAll('[data-export="omit"]').forEach((n) => n.remove());
  const out = document.createElementNS(NS, 'svg');
  out.setAttribute('xmlns', NS);
  out.setAttribute('width', String(width));
  out.setAttribute('height', String(height));
  out.setAttribute('viewBox', `0 0 ${width} ${height}`);
  out.setAttribute('font-family', 'system-ui, sans-serif');
  // The page's own paper and inks, resolved (a file has no theme.css): the chart's inlined
  // colours read on it in either colour scheme.
  const bg = document.createElementNS(NS, 'rect');
  bg.setAttribute('width', String(width));
  bg.setAttribute('height', String(height));
  bg.setAttribute('fill', canvasColor(EXPORT_PAPER));
  out.appendChild(bg);
  titleLines.forEach((t, i) => {
    const title = document.createElementNS(NS, 'text');
    title.setAttribute('x', '12');
    title.setAttribute('y', String(19 + i * TITLE_LINE));
    title.setAttribute('font-size', '14');
    title.setAttribute('font-weight', '600');
    title.setAttribute('fill', canvasColor(EXPORT_TITLE));
    title.textContent = t;
    out.appendChild(title);
  });
  const body = document.createElementNS(NS, 'g');
  body.setAttribute('transform', `translate(0 ${TITLE_H})`);
  while (copy.firstChild) body.appendChild(copy.firstChild);
  out.appendChild(body);
  legend.forEach((e, i) => {
    const x = 12 + (i % perRow) * 170;
    const y = TITLE_H + chartH + 8 + Math.floor(i / perRow) * LEGEND_ROW;
    const line = document.createElementNS(NS, 'line');
    line.setAttribute('x1', String(x));
    line.setAttribute('x2', String(x + 22));
    line.setAttribute('y1', String(y + 6));
    line.setAttribute('y2', String(y + 6));
    line.setAttribute('stroke', canvasColor(e.color));
    line.setAttribute('stroke-width', '2.5');
    if (e.dashed) line.setAttribute('stroke-dasharray', '5 3');
    out.appendChild(line);
    const label = document.createElementNS(NS, 'text');
    label.setAttribute('x', String(x + 28));
    label.setAttribute('y', String(y + 10));
    label.setAttribute('font-size', '12');
    label.setAttribute('fill', canvasColor(EXPORT_LABEL));
    label.textContent = e.label;
    out.appendChild(label);
  });
  const text = `<?xml version="1.0" encoding="UTF-8"?>\n${new XMLSerializer().serializeToString(out)}\n`;
  return { text, width, height };
}

/** The standalone SVG drawn onto a canvas at `scale` × its size, as a PNG. */
export function svgToPng(svg: { text: string; width: number; height: number }, scale = 2) {
  return new Promise<Blob>((resolve, reject) => {
    const url = URL.createObjectURL(new Blob([svg.text], { type: 'image/svg+xml' }));
    const img = new Image();
    img.onload = () => {
      const canvas = document.createElement('canvas');
      canvas.width = Math.round(svg.width * scale);
      canvas.height = Math.round(svg.height * scale);
      const ctx = canvas.getContext('2d');
      if (!ctx) {
        URL.revokeObjectURL(url);
        reject(new Error('no 2D canvas'));
        return;
      }
      ctx.scale(scale, scale);
      ctx.drawImage(img, 0, 0);
      URL.revokeObjectURL(url);
      canvas.toBlob(
        (b) => (b ? resolve(b) : reject(new Error('PNG encoding failed'))),
        'image/png',
      );
    };
    img.onerror = () => {
      URL.revokeObjectURL(url);
      reject(new Error('the chart could not be drawn as an image'));
    };
    img.src = url;
  });
}
