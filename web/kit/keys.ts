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
