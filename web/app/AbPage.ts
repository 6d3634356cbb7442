// The A/B page as a module of its own, so the app can load it on demand (the compare feature's
// index is also imported by the gallery, for comparisonOf).
export { AbPage } from '../compare';
