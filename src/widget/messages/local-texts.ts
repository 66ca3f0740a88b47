/**
 * A lazily loaded chunk's own texts for a locale ('fr-CA' uses French, anything else English),
 * with the merchant's `messages` on top: how the card, QR and outcomes chunks carry words the main
 * catalogue does not.
 */
export function localTexts<K extends string>(
  en: Readonly<Record<K, string>>,
  fr: Readonly<Record<K, string>>,
  locale: string,
  overrides: Partial<Record<string, string>>,
): Readonly<Record<K, string>> {
  const base = locale.toLowerCase().split('-')[0] === 'fr' ? fr : en;
  return Object.fromEntries(
    Object.entries(base).map(([key, text]) => [key, overrides[key] ?? text]),
  ) as Record<K, string>;
}
