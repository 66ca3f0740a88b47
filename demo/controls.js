// The demo's sandbox controls and live log. Every call goes to the demo server, which adds the
// sandbox key itself: the key never reaches this page.
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
    const response = await fetch('/demo/sandbox/payments');
    return response.ok ? (await response.json()).payments : [];
  }

  async function refresh() {
    const all = await payments();
    list.replaceChildren(
      ...all
        .slice(-6)
        .reverse()
        .map((payment) => {
          const item = document.createElement('li');
          item.textContent = `${payment.reference} · ${payment.channel} · ${payment.currency} ${payment.amount} · ${payment.status}`;
          return item;
        }),
    );
    return all;
  }

  async function latest(channel) {
    const all = (await payments()).filter(
      (payment) => payment.channel === channel && payment.status === 'PENDING',
    );
    return all.at(-1);
  }

  document.getElementById('pay-latest').addEventListener('click', async () => {
    const payment = await latest('PayByTransfer');
    if (!payment) return line('control', 'No pending transfer to pay into.');
    await control(`/payments/${payment.reference}/transfer`);
  });
  document.getElementById('approve-latest').addEventListener('click', async () => {
    const payment = await latest('PayByAccount');
    if (!payment) return line('control', 'No payment waiting at the bank.');
    await control(`/payments/${payment.reference}/bank`, { approve: true });
  });
  document.getElementById('decline-latest').addEventListener('click', async () => {
    const payment = await latest('PayByAccount');
    if (!payment) return line('control', 'No payment waiting at the bank.');
    await control(`/payments/${payment.reference}/bank`, { approve: false });
  });
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

  // Widget callbacks, as a merchant would listen to them.
  for (const name of ['success', 'failure', 'pending', 'close']) {
    document.addEventListener(`paydrop:${name}`, (event) =>
      line('widget', `widget ${name}: ${JSON.stringify(event.detail)}`),
    );
  }
  // Webhooks and outcomes, pushed by the demo server.
  const events = new EventSource('/demo/events');
  events.addEventListener('log', (event) => {
    const data = JSON.parse(event.data);
    line(data.kind, data.text);
    void refresh();
  });
  void refresh();
})();
