// The back office's script-tag entry: the one file that touches window when it loads. It defines
// window.PaydropBackOffice and mounts a payout form into every element marked
// `data-paydrop-payout-form` (its value: the payouts handler's endpoint).
import { createBackOfficeApi, mountPayoutForm } from './index';

declare global {
  interface Window {
    PaydropBackOffice?: {
      mountPayoutForm: typeof mountPayoutForm;
      createBackOfficeApi: typeof createBackOfficeApi;
    };
  }
}

window.PaydropBackOffice = { mountPayoutForm, createBackOfficeApi };

function mountMarked(): void {
  for (const element of document.querySelectorAll<HTMLElement>('[data-paydrop-payout-form]')) {
    if (element.dataset.paydropMounted) continue;
    element.dataset.paydropMounted = 'true';
    const currencies = element.dataset.paydropCurrencies?.split(',').map((code) => code.trim());
    mountPayoutForm(element, {
      endpoint: element.dataset.paydropPayoutForm || '/api/back-office',
      ...(currencies ? { currencies } : {}),
    });
  }
}

if (document.readyState === 'loading')
  document.addEventListener('DOMContentLoaded', mountMarked, { once: true });
else mountMarked();
