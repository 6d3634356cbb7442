// What the rest of web/ uses of this feature; other folders import it only from here.
export { SystemDiagram } from './SystemDiagram';
export { diagramStateAt } from './diagramState';
export { narrate } from './narrate';
