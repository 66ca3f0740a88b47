/**
 * The demo's single-page app: a cart and a thank-you view, paying through `open()` from the npm
 * module. It shows what a framework app does: open on click, react to the result, move on; and
 * on load, `resume()` picks up a payment the bank sent the customer back from after a full-page
 * redirect (where the browser blocked the bank's window).
 */
import { type CheckoutResult, open, resume } from 'paydrop';

const app = document.getElementById('app') as HTMLElement;

/** What the cart sells: the order ids the demo server knows (demo/catalogue.ts). */
const ITEMS = [
  {
    order: 'tote-ngn',
    name: 'Adire tote bag',
    price: '₦25,000.50',
    swatch: 'indigo',
    pay: 'Pay by bank transfer or card',
  },
  {
    order: 'scarf-gbp',
    name: 'Merino scarf',
    price: '£49.99',
    swatch: 'wool',
    pay: 'Pay from your bank or by card',
  },
] as const;

function element<K extends keyof HTMLElementTagNameMap>(tag: K, text?: string, className?: string) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (className) node.className = className;
  return node;
}

function cart(note?: string): void {
  const heading = element('h1', 'Your cart');
  const products = element('div', undefined, 'products');
  for (const product of ITEMS) {
    const item = element('article', undefined, 'product');
    item.append(
      element('div', undefined, `swatch ${product.swatch}`),
      element('h2', product.name),
      element('p', product.price, 'price'),
    );
    const pay = element('button', product.pay, 'buy');
    pay.type = 'button';
    pay.addEventListener('click', async () => {
      const { result } = open({ endpoint: '/api/checkout', order: product.order });
      show(await result);
    });
    item.append(pay);
    products.append(item);
  }
  app.replaceChildren(heading, ...(note ? [element('p', note, 'lede')] : []), products);
}

function show(result: CheckoutResult): void {
  if (result.status === 'succeeded') {
    history.pushState({}, '', '/spa#thanks');
    const done = element('h1', 'Thank you!');
    const ref = element('p', `Payment ${result.payment.reference} confirmed.`, 'lede');
    const back = element('button', 'Back to the shop', 'buy');
    back.type = 'button';
    back.addEventListener('click', () => {
      history.pushState({}, '', '/spa');
      cart();
    });
    app.replaceChildren(done, ref, back);
  } else if (result.status === 'pending') {
    cart(
      result.payment.channel === 'PayByTransfer'
        ? 'Your transfer is on its way; we will email you when it arrives.'
        : 'Your payment is being confirmed; we will email you when it is.',
    );
  } else if (result.status === 'failed') {
    cart(`The payment did not go through (${result.error.code}).`);
  } else {
    cart();
  }
}

addEventListener('popstate', () => cart());
cart();
// Back from the bank in the whole tab: the checkout opens again on that payment, and its result
// lands in this app as if the bank's window had been used.
void resume().then(async (resumed) => {
  if (resumed) show(await resumed.result);
});
