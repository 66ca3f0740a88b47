// The comparison point of DESIGN.md's parse-and-run budget: Adyen's Drop-in with Card, tree-shaken
// as a merchant would bundle it. Loading it only defines it, as loading paydrop.js only defines Paydrop.
import { AdyenCheckout, Card, Dropin } from '@adyen/adyen-web';

(window as unknown as { AdyenBench: unknown }).AdyenBench = { AdyenCheckout, Dropin, Card };
