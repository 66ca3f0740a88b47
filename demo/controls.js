// The demo's sandbox controls, live log and payment-link block. Every call goes to the demo
// server, which adds the key itself: the key never reaches this page. Loaded by the shop (with
// paydrop.js before it) and by the pop-out controls window (without it).
(() => {
  const log = document.getElementById('log');
  const list = document.getElementById('payments');

  function line(kind, text) {
    const item = document.createElement('li');
    item.className = kind;
    item.textContent = `${new Date().toLocaleTimeString()} ${text}`;
    log.prepend(item);
  }

  async function control(path, body) {
    const response = await fetch(`/demo/sandbox${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body ?? {}),
    });
    const answer = await response.json().catch(() => ({}));
    line('control', `${path} → ${response.status}${answer.error ? ` ${answer.error}` : ''}`);
    await refresh();
    return answer;
  }

  async function payments() {
    const response = await fetch('/demo/sandbox/payments').catch(() => null);
    return response?.ok ? (await response.json()).payments : [];
  }

  async function refresh() {
    const all = await payments();
    list.replaceChildren(
      ...all
        .slice(-6)
        .reverse()
        .map((payment) => {
          const item = document.createElement('li');
          const link = payment.linkAlias ? ` · link ${payment.linkAlias}` : '';
          item.textContent = `${payment.reference} · ${payment.channel} · ${payment.currency} ${payment.amount} · ${payment.status}${link}`;
          return item;
        }),
    );
    return all;
  }

  /** The newest payment of `channel` still waiting at `stage` (the customer's move). */
  async function latest(channel, stage) {
    const all = (await payments()).filter(
      (payment) =>
        payment.channel === channel &&
        payment.status === 'PENDING' &&
        (payment.stage === undefined || payment.stage === stage),
    );
    return all.at(-1);
  }

  async function decideAtBank(approve) {
    const payment = await latest('PayByAccount', 'awaiting-bank');
    if (!payment) return line('control', 'No payment from a bank is waiting for a decision.');
    await control(`/payments/${payment.reference}/bank`, { approve });
  }

  document.getElementById('pay-latest').addEventListener('click', async () => {
    const payment = await latest('PayByTransfer', 'awaiting-transfer');
    if (!payment) return line('control', 'No pending transfer to pay into.');
    await control(`/payments/${payment.reference}/transfer`);
  });
  document.getElementById('approve-latest').addEventListener('click', () => decideAtBank(true));
  document.getElementById('decline-latest').addEventListener('click', () => decideAtBank(false));
  document
    .getElementById('clock-10')
    .addEventListener('click', () => control('/clock', { advanceSeconds: 600 }));
  document
    .getElementById('clock-31')
    .addEventListener('click', () => control('/clock', { advanceSeconds: 1860 }));
  document.getElementById('fault-status').addEventListener('click', () =>
    control('/faults', {
      faults: [
        {
          endpoint: 'status',
          steps: [
            { type: 'error', status: 503 },
            { type: 'error', status: 503 },
          ],
        },
      ],
    }),
  );
  document
    .getElementById('pop-out')
    ?.addEventListener('click', () =>
      window.open('/demo/controls', 'paydrop-controls', 'width=460,height=760'),
    );
  document.getElementById('reset').addEventListener('click', () => control('/reset'));

  // Widget callbacks, as a merchant would listen to them: events from the buttons (and from a
  // checkout picked up after a full-page bank redirect), callbacks from Paydrop.open below.
  const widgetLine = (name, detail) => {
    line('widget', `widget ${name}: ${JSON.stringify(detail)}`);
    void refresh();
  };
  for (const name of ['success', 'failure', 'pending', 'close']) {
    document.addEventListener(`paydrop:${name}`, (event) => widgetLine(name, event.detail));
  }

  // "Pay a payment link": the demo server makes a one-time link with its key; the page opens the
  // checkout on its alias. The last alias is kept for the session, to show a paid link refused.
  const newLink = document.getElementById('link-new');
  const linkAgain = document.getElementById('link-again');
  const linkStatus = document.getElementById('link-status');
  const LAST_LINK = 'paydrop-demo:last-link';
  let lastLink = null;
  try {
    lastLink = sessionStorage.getItem(LAST_LINK);
  } catch {
    // No storage: the last link lives as long as the page.
  }

  function showLastLink() {
    if (!linkAgain || !linkStatus) return;
    linkAgain.disabled = !lastLink;
    linkStatus.textContent = lastLink ? `Last link: ${lastLink} (one-time).` : '';
  }

  function payLink(alias) {
    if (!window.Paydrop) return line('control', 'paydrop.js did not load: run npm start.');
    window.Paydrop.open({
      endpoint: '/api/checkout',
      link: alias,
      onSuccess: (payment) => widgetLine('success', payment),
      onFailure: (error) => widgetLine('failure', error),
      onPending: (payment) => widgetLine('pending', payment),
      onClose: (result) => widgetLine('close', result),
    });
  }

  // A flag rather than `disabled`: a disabled button loses focus, and the checkout gives focus
  // back to the button that opened it.
  let making = false;
  newLink?.addEventListener('click', async () => {
    if (making) return;
    making = true;
    try {
      const response = await fetch('/demo/link', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      }).catch(() => null);
      const answer = response ? await response.json().catch(() => ({})) : {};
      if (!response?.ok || typeof answer.alias !== 'string') {
        if (linkStatus) linkStatus.textContent = answer.error ?? 'The link could not be made.';
        return;
      }
      lastLink = answer.alias;
      try {
        sessionStorage.setItem(LAST_LINK, lastLink);
      } catch {
        // Kept in memory only.
      }
      showLastLink();
      payLink(lastLink);
    } finally {
      making = false;
    }
  });
  linkAgain?.addEventListener('click', () => {
    if (lastLink) payLink(lastLink);
  });
  showLastLink();
  // Webhooks and outcomes, pushed by the demo server.
  const events = new EventSource('/demo/events');
  events.addEventListener('log', (event) => {
    const data = JSON.parse(event.data);
    line(data.kind, data.text);
    void refresh();
  });
  // New payments are not logged: the list looks again now and then while the page is seen.
  setInterval(() => {
    if (document.visibilityState === 'visible') void refresh();
  }, 4000);
  void refresh();
})();
