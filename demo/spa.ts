/**
 * The demo's single-page app: a cart and a thank-you view, paying through `open()` from the npm
 * module. It shows what a framework app does: open on click, react to the result, move on.
 */
import { type CheckoutResult, open } from 'paydrop';

const app = document.getElementById('app') as HTMLElement;

function element<K extends keyof HTMLElementTagNameMap>(tag: K, text?: string, className?: string) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (className) node.className = className;
  return node;
}

function cart(note?: string): void {
  const heading = element('h1', 'Your cart');
  const item = element('article', undefined, 'product');
  item.append(
    element('div', undefined, 'swatch indigo'),
    element('h2', 'Adire tote bag'),
    element('p', '₦25,000.50', 'price'),
  );
  const pay = element('button', 'Checkout', 'buy');
  pay.addEventListener('click', async () => {
    const { result } = open({ endpoint: '/api/checkout', order: 'tote-ngn' });
    show(await result);
  });
  item.append(pay);
  app.replaceChildren(heading, ...(note ? [element('p', note, 'lede')] : []), item);
}

function show(result: CheckoutResult): void {
  if (result.status === 'succeeded') {
    history.pushState({}, '', '/spa#thanks');
    const done = element('h1', 'Thank you!');
    const ref = element('p', `Payment ${result.payment.reference} confirmed.`, 'lede');
    const back = element('button', 'Back to the shop', 'buy');
    back.addEventListener('click', () => {
      history.pushState({}, '', '/spa');
      cart();
    });
    app.replaceChildren(done, ref, back);
  } else if (result.status === 'pending') {
    cart('Your transfer is on its way; we will email you when it arrives.');
  } else if (result.status === 'failed') {
    cart(`The payment did not go through (${result.error.code}).`);
  } else {
    cart();
  }
}

addEventListener('popstate', () => cart());
cart();
