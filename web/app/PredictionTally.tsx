// How many of the papers' values the model predicts, per paper, from web/app/predictions.json
// (written by `npm run predictions` from the CLI's checks, never by hand). Fitted values, the
// ones a parameter was tuned on, are counted apart: agreeing with them proves only the fit.
import predictions from './predictions.json';
import './prediction-tally.css';

interface Tally {
  predicted: number;
  hold: number;
  known_miss: number;
  fitted: number;
}
interface PaperTallyEntry extends Tally {
  id: string;
  title: string;
}

const PAPERS: readonly PaperTallyEntry[] = predictions.papers;
const SHORT: Record<string, string> = {
  thesis: 'the thesis (Kim 2003)',
  sinic: 'the SINIC paper (Binkert et al. 2006)',
  offload: 'the TCP offload paper (Freimuth et al. 2005)',
  eta: 'the ETA+AIO paper (Brecht et al. 2006)',
  protocache: 'the protocol cache paper (Nahum et al. 1997)',
  facts: 'PCI, driver and Ethernet facts',
};

function tallyText(t: Tally): string {
  const missed = t.known_miss ? `; ${t.known_miss} miss, explained` : '';
  return `${t.hold} of ${t.predicted} predictions hold${missed}`;
}

/** One paper's count, for a paper's group header: "68 of 68 predictions hold · 67 fitted". */
export function PaperTally({ paper }: { paper: string }) {
  const t = PAPERS.find((p) => p.id === paper);
  if (!t || t.predicted + t.fitted === 0) return null;
  return (
    <span className="paper-tally" data-testid={`paper-tally-${paper}`} title={t.title}>
      {tallyText(t)}
      {t.fitted > 0 && ` · ${t.fitted} fitted`}
    </span>
  );
}

/** Every paper's count, for the gallery's footer. */
export function PredictionTally() {
  const shown = PAPERS.filter((p) => p.predicted + p.fitted > 0);
  if (shown.length === 0) return null;
  const fitted = shown.reduce((n, p) => n + p.fitted, 0);
  return (
    <section className="prediction-tally" aria-labelledby="prediction-tally-h">
      <h2 id="prediction-tally-h">Predictions that hold</h2>
      <ul>
        {shown.map((p) => (
          <li key={p.id} data-testid={`prediction-tally-${p.id}`} title={p.title}>
            <b>{SHORT[p.id] ?? p.title}</b>: {tallyText(p)}
            {p.fitted > 0 && <span className="muted"> · {p.fitted} fitted values apart</span>}
          </li>
        ))}
      </ul>
      <p className="muted small">
        A prediction is a published value no parameter was tuned on. The {fitted} fitted values
        (each parameter tuned on one names them; the checks mark them hollow) are not counted:
        matching them shows only that the fit holds.
      </p>
    </section>
  );
}
