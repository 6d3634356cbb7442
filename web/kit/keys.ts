// Keyboard shortcuts and text entry: a key typed into a text field is text, not a shortcut.

/** Input types whose keys are never text. */
const NOT_TEXT = ['range', 'button', 'checkbox'];

/**
 * True when a key typed into this element is text, not a shortcut. `alsoNotText` names further
 * input types the caller takes keys from (the tour's answers are radios).
 */
export function isTyping(target: EventTarget | null, alsoNotText: readonly string[] = []): boolean {
  if (!(target instanceof HTMLElement)) return false;
  const tag = target.tagName;
  if (tag === 'INPUT') {
    const type = (target as HTMLInputElement).type;
    return !NOT_TEXT.includes(type) && !alsoNotText.includes(type);
  }
  return tag === 'TEXTAREA' || tag === 'SELECT' || target.isContentEditable;
}

/** True when the key's target sits in an open menu (a <details> the menu owns): its Esc is the menu's. */
export function inOpenMenu(target: EventTarget | null): boolean {
  return target instanceof Element && target.closest('details[open]') !== null;
}

/**
 * A <details> menu's key handler: Esc closes the open menu and gives focus back to its button
 * (the summary), as a menu is expected to; the key goes no further.
 */
export function closeMenuOnEscape(e: {
  key: string;
  currentTarget: HTMLDetailsElement;
  preventDefault(): void;
  stopPropagation(): void;
}): void {
  if (e.key !== 'Escape' || !e.currentTarget.open) return;
  e.preventDefault();
  e.stopPropagation();
  e.currentTarget.open = false;
  e.currentTarget.querySelector('summary')?.focus();
}
