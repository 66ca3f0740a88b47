import { loadFrench } from '#chunks';
import { en, type MessageKey, type Messages } from './en';

export { fill } from './fill';

export type { MessageKey, Messages };

/**
 * The catalogue for a locale ('fr-CA' uses French, anything unknown English), with the merchant's
 * overrides on top. French is loaded only for French-speaking customers; if it cannot be loaded
 * the customer still gets a working checkout, in English.
 */
export async function loadMessages(
  locale: string,
  overrides: Partial<Messages> = {},
): Promise<Messages> {
  const language = locale.toLowerCase().split('-')[0];
  let catalogue: Messages = en;
  if (language === 'fr') catalogue = await loadFrench().catch(() => en);
  return { ...catalogue, ...overrides };
}
