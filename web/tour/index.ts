// What the rest of web/ uses of this feature; other folders import it only from here.
export { PresenterToggle } from './Presenter';
export { TourPanel } from './TourPanel';
export { partsText } from './tour';
