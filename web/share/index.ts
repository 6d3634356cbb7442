// What the rest of web/ uses of this feature; other folders import it only from here.
export { LinkBanner } from './LinkBanner';
export { ShareMenu } from './ShareMenu';
export { decodeLink, isLinkHash, linkCatalog, scenarioViews } from './link';
export { isEmbed, navigate, withoutEmbed } from './linkNav';
export type { Nav } from './linkNav';
export { linkUi, useLinkRestore } from './linkRestore';
export type { OpenedLink } from './linkRestore';
