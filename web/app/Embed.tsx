// Embed mode (`?embed=1`): a small way out to the full app, and what the gallery says instead of
// showing itself inside someone else's page.
import { withoutEmbed } from '../share';
import '../share/links.css';

/** "Open in nicsim ↗": this page, outside the frame, in a new tab. */
export function OpenInNicsim() {
  return (
    <a
      className="open-in-nicsim"
      href={withoutEmbed(window.location)}
      target="_blank"
      rel="noopener noreferrer"
      data-testid="open-in-nicsim"
      // The hash may have changed since render (another link opened in the frame).
      onPointerDown={(e) => (e.currentTarget.href = withoutEmbed(window.location))}
      onFocus={(e) => (e.currentTarget.href = withoutEmbed(window.location))}
    >
      open in nicsim <span aria-hidden="true">↗</span>
    </a>
  );
}

/** The gallery in embed mode: a plain message (an embed shows one scenario). */
export function EmbedGalleryNote({ problem }: { problem?: string }) {
  return (
    <div className="embed-note" data-testid="embed-gallery">
      <h1>nicsim</h1>
      <p>
        {problem
          ? `This embedded view shows one scenario. ${problem}`
          : 'This embedded view shows one scenario, and its address names none.'}{' '}
        The address of an embed ends in <code>?embed=1#/s/&lt;scenario id&gt;</code> or a link
        copied from a scenario page.
      </p>
      <p>
        <OpenInNicsim />
      </p>
    </div>
  );
}
