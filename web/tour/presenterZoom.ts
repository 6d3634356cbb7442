// Presenter mode's zoom: on a projector at 1280×720 a drawing laid out for a desk screen (the
// system diagram is 1100 units wide and holds some fifty labels) shows its labels at 7 to 12 px
// once it shares the screen with the tour dock. No layout of that many labels fits the room at
// 18 px, so presenter mode magnifies each view's drawing until its median label is drawn at
// LABEL_PX and lets the drawing pan inside a frame that fills the room between the playback bar
// and the dock, centred on the parts the tour step highlights. Nothing is laid out anew: every
// box keeps its label.

/** The size, on screen, of a view's median label in presenter mode. */
export const LABEL_PX = 18.5;
/** The attribute a zoomed drawing carries (the frame around it: its parent). */
const ZOOMED = 'data-presenter-zoom';

/** A drawing's labels (the SVG text elements drawn, with some text): their size on screen. */
function labelSizes(svg: SVGSVGElement): number[] {
  const out: number[] = [];
  for (const t of svg.querySelectorAll('text')) {
    if (!t.textContent?.trim() || t.getClientRects().length === 0) continue;
    const m = t.getScreenCTM();
    if (m) out.push(parseFloat(getComputedStyle(t).fontSize) * Math.hypot(m.a, m.b));
  }
  return out.sort((a, b) => a - b);
}

function clear(svg: SVGSVGElement) {
  svg.removeAttribute(ZOOMED);
  for (const p of ['width', 'height', 'max-width', 'max-height', 'flex', 'zoom'])
    svg.style.removeProperty(p);
  const frame = svg.parentElement;
  if (frame?.hasAttribute('data-presenter-frame')) {
    frame.removeAttribute('data-presenter-frame');
    for (const p of ['overflow', 'max-height', 'max-width']) frame.style.removeProperty(p);
    if (frame.hasAttribute('data-presenter-tabindex')) {
      frame.removeAttribute('data-presenter-tabindex');
      frame.removeAttribute('tabindex');
      frame.removeAttribute('aria-label');
    }
  }
}

/** Undoes every zoom (leaving presenter mode). */
export function clearPresenterZoom(root: ParentNode = document) {
  for (const svg of root.querySelectorAll<SVGSVGElement>(`svg[${ZOOMED}]`)) clear(svg);
  for (const el of root.querySelectorAll<HTMLElement>(`.panel[${ZOOMED}]`)) {
    el.removeAttribute(ZOOMED);
    el.style.removeProperty('zoom');
  }
}

/**
 * Zooms every view drawing under `root` whose median label would be drawn smaller than LABEL_PX.
 * `top` is where the room starts (below the playback bar), `bottom` where it ends (the tour
 * dock's top, or the window's bottom).
 */
export function fitPresenterZoom(root: ParentNode, top: number, bottom: number) {
  for (const panel of root.querySelectorAll<HTMLElement>('.panel')) {
    let drawings = 0;
    for (const svg of panel.querySelectorAll<SVGSVGElement>('svg')) {
      if (svg.parentElement?.closest('svg')) continue;
      if (svg.hasAttribute(ZOOMED)) clear(svg);
      const sizes = labelSizes(svg);
      if (sizes.length === 0) continue;
      drawings++;
      const median = sizes[Math.floor(sizes.length / 2)]!;
      if (median >= LABEL_PX - 0.05) continue;
      const s = LABEL_PX / median;
      const vb = svg.viewBox.baseVal;
      svg.setAttribute(ZOOMED, s.toFixed(3));
      if (!vb || vb.width <= 0 || vb.height <= 0) {
        // A drawing sized in pixels: magnified in place.
        svg.style.zoom = s.toFixed(3);
        continue;
      }
      // The drawing's scale as laid out (its width, or a height cap, decides it), times s.
      const box = svg.getBoundingClientRect();
      const k = Math.min(box.width / vb.width, box.height / vb.height) * s;
      const [w, h] = [Math.round(vb.width * k), Math.round(vb.height * k)];
      svg.style.width = `${w}px`;
      svg.style.height = `${h}px`;
      svg.style.maxWidth = 'none';
      svg.style.maxHeight = 'none';
      svg.style.flex = 'none';
      const frame = svg.parentElement!;
      // The frame fills the room below the bar (less the panel's head above the drawing).
      const panelTop = panel.getBoundingClientRect().top;
      const head = Math.max(0, frame.getBoundingClientRect().top - panelTop);
      const room = Math.max(160, Math.floor(bottom - top - head - 16));
      if (w <= frame.clientWidth && h <= room) continue;
      frame.setAttribute('data-presenter-frame', '');
      frame.style.overflow = 'auto';
      frame.style.maxHeight = `${room}px`;
      frame.style.maxWidth = '100%';
      // A region that scrolls must scroll from the keyboard too (WCAG 2.1.1): one tab stop.
      if (!frame.hasAttribute('tabindex')) {
        frame.setAttribute('data-presenter-tabindex', '');
        frame.setAttribute('tabindex', '0');
        frame.setAttribute('aria-label', 'Magnified drawing: scroll with the arrow keys');
      }
      centreOnHighlight(svg, frame);
    }
    if (drawings === 0) zoomText(panel);
  }
}

/** The font sizes of an HTML panel's text (the elements holding a text node), as laid out. */
export function htmlTextSizes(panel: Element): number[] {
  const out: number[] = [];
  for (const el of panel.querySelectorAll<HTMLElement>('*')) {
    if (el.closest('svg, .sr-only')) continue;
    const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent?.trim());
    if (!own || el.getClientRects().length === 0) continue;
    out.push(parseFloat(getComputedStyle(el).fontSize));
  }
  return out.sort((a, b) => a - b);
}

/** A view drawn in HTML (tables, bars): zoomed as a whole, its text reflowing to its width. */
function zoomText(panel: HTMLElement) {
  if (panel.hasAttribute(ZOOMED)) {
    panel.removeAttribute(ZOOMED);
    panel.style.removeProperty('zoom');
  }
  const sizes = htmlTextSizes(panel);
  if (sizes.length === 0) return;
  const median = sizes[Math.floor(sizes.length / 2)]!;
  if (median >= LABEL_PX - 0.05) return;
  panel.setAttribute(ZOOMED, (LABEL_PX / median).toFixed(3));
  panel.style.zoom = (LABEL_PX / median).toFixed(3);
}

/** Scrolls the frame to the tour step's highlighted parts (or leaves it where it is). */
function centreOnHighlight(svg: SVGSVGElement, frame: HTMLElement) {
  const rings = svg.querySelectorAll('[data-testid="highlight-ring"]');
  if (rings.length === 0) return;
  let [l, t, r, b] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const g of rings) {
    const q = g.getBoundingClientRect();
    [l, t, r, b] = [
      Math.min(l, q.left),
      Math.min(t, q.top),
      Math.max(r, q.right),
      Math.max(b, q.bottom),
    ];
  }
  const f = frame.getBoundingClientRect();
  frame.scrollLeft += (l + r) / 2 - (f.left + f.width / 2);
  frame.scrollTop += (t + b) / 2 - (f.top + Math.min(f.height, frame.clientHeight) / 2);
}
