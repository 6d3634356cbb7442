// What the rest of web/ uses of this feature; other folders import it only from here.
export { ViewDescription } from './ViewDescription';
export { ViewsMenu } from './ViewsMenu';
export { REGISTRY, panelOf, viewEntry } from './registry';
