// Every feature's stylesheet, loaded with the app shell and in this order, although the pages
// that import them load later (App's React.lazy): the cascade then stays what it is when every
// page is bundled at once, so a rule of equal specificity wins as it always did, whichever page
// loaded first (the gallery's cards use the A/B link's style, the share menu's width beats the
// export menu's, ...). The order is that of the static imports from main.tsx before the split;
// app.css and a11y.css come after these (main.tsx). A test checks that no stylesheet is missing.
import '../charts/chart-references.css';
import '../export/export.css';
import '../webserver/cache.css';
import '../webserver/request.css';
import '../playback/nav.css';
import '../sinic/sinic.css';
import '../tigon/tigon.css';
import '../tour/tour.css';
import '../tour/presenter.css';
import '../timeline/timeline.css';
import '../share/links.css';
import '../compare/ab.css';
import '../results/checks.css';
import '../eta/eta.css';
import '../protocache/protocache.css';
import '../offload/offload.css';
import './prediction-tally.css';
import './shortcuts.css';
import './gallery.css';
import './theme.css';
