/**
 * The demo back office's page (issue 14): balances, the payouts table moving live over the
 * payouts handler's Server-Sent Events, the transaction list page by page, payment links, and
 * the sandbox's controls to settle or reverse a payout. The payout form itself comes from its own
 * script tag (paydrop-back-office.js) and tells this page through `paydrop:payout-sent`.
 * Every provider string reaches the page as text; no markup is written anywhere.
 */
import { batch, computed, signal } from '@preact/signals';
import { h, render } from 'preact';
import { createBackOfficeApi, formatMoney } from '../src/back-office';
import type {
  PaymentLinkView,
  PayoutEventWire,
  PayoutView,
  TransactionPageWire,
} from '../src/protocol/back-office';
import { isSafeUrl } from '../src/protocol/url';

/** Without a staff session (never signed in, or it ended) the page is the login page. */
function toLogin(): void {
  window.location.assign('/back-office/login');
}

const api = createBackOfficeApi('/api/back-office', async (input, init) => {
  const response = await fetch(input, init);
  if (response.status === 401) toLogin();
  return response;
});
const PER_PAGE = 5;

const balances = signal<Record<string, number> | null>(null);
const payouts = signal<ReadonlyMap<string, PayoutView>>(new Map());
const transactions = signal<TransactionPageWire | null>(null);
const page = signal(1);
const links = signal<readonly PaymentLinkView[]>([]);
/** The cursor of the next page of links; null once the oldest is shown. */
const linksNext = signal<string | null>(null);
const linksLoading = signal(false);

/** Shows the next page of links under those shown (a link created meanwhile is not repeated). */
async function showMoreLinks(after: string | null): Promise<void> {
  linksLoading.value = true;
  try {
    const page = await api.links(after);
    const shown = new Set(links.value.map((link) => link.alias));
    links.value = [...links.value, ...page.links.filter((link) => !shown.has(link.alias))];
    linksNext.value = page.next;
  } catch (error) {
    linkMessage.value = `The links could not be loaded: ${(error as Error).message}`;
  } finally {
    linksLoading.value = false;
  }
}
const notice = signal('');

async function control(path: string, method = 'GET'): Promise<unknown> {
  const response = await fetch(`/demo/back-office/sandbox${path}`, { method });
  if (response.status === 401) toLogin();
  const body: unknown = await response.json().catch(() => ({}));
  if (!response.ok)
    throw new Error((body as { error?: string }).error ?? `HTTP ${response.status}`);
  return body;
}

async function loadBalances(): Promise<void> {
  try {
    const body = (await control('/wallets')) as {
      wallets: Record<string, { balanceMinor: number }>;
    };
    balances.value = Object.fromEntries(
      Object.entries(body.wallets).map(([code, wallet]) => [code, wallet.balanceMinor]),
    );
  } catch {
    balances.value = {};
  }
}

async function loadPayouts(): Promise<void> {
  const list = await api.payouts();
  payouts.value = new Map(list.map((payout) => [payout.reference, payout]));
}

/** The page asked for last (1 = newest); a refresh from a live event keeps it. */
let wantedPage = 1;
let loads = 0;

/**
 * Loads page `wanted` (newest first, PER_PAGE each) and shows it with its number in one go; only
 * the latest load lands. The provider lists oldest first, so a page here spans at most two of its
 * pages of the same size, read and cut to the newest-first window.
 */
async function loadTransactions(wanted = wantedPage): Promise<void> {
  wantedPage = wanted;
  const load = ++loads;
  const first = await api.transactions(1, PER_PAGE);
  const total = first.total;
  const pages = Math.max(1, Math.ceil(total / PER_PAGE));
  const target = Math.min(Math.max(1, wanted), pages);
  const end = total - (target - 1) * PER_PAGE;
  const start = Math.max(0, end - PER_PAGE);
  const from = Math.floor(start / PER_PAGE) + 1;
  const to = Math.max(from, Math.floor((end - 1) / PER_PAGE) + 1);
  const read = [];
  for (let number = from; number <= to && total > 0; number++)
    read.push(number === 1 ? first : await api.transactions(number, PER_PAGE));
  const items = read
    .flatMap((one) => one.items)
    .slice(start - (from - 1) * PER_PAGE, end - (from - 1) * PER_PAGE);
  if (load !== loads) return;
  batch(() => {
    page.value = target;
    transactions.value = { ...first, items, page: target, pageCount: pages };
  });
}

function refresh(): void {
  void loadBalances();
  void loadTransactions().catch(() => {});
}

function upsert(payout: PayoutView): void {
  const next = new Map(payouts.value);
  const known = next.get(payout.reference);
  next.set(payout.reference, {
    ...payout,
    amount: payout.amount ?? known?.amount ?? null,
    createdAt: payout.createdAt ?? known?.createdAt ?? null,
  });
  payouts.value = next;
}

/** A reference as long as a row can show: its first 6 and last 4 characters (issue 23). */
function shortReference(value: string): string {
  return value.length <= 12 ? value : `${value.slice(0, 6)}…${value.slice(-4)}`;
}

/** What the last copy did, said to screen readers (and shown beside the tables). */
const copyNotice = signal('');

async function copyReference(what: string, value: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(value);
    copyNotice.value = `${what} ${value} copied.`;
  } catch {
    copyNotice.value = `Could not copy. The full ${what.toLowerCase()}: ${value}`;
  }
}

const COPY_ICON = h(
  'svg',
  { viewBox: '0 0 16 16', width: 16, height: 16, 'aria-hidden': 'true', focusable: 'false' },
  h('rect', { x: 5.5, y: 5.5, width: 8, height: 9, rx: 1.5 }),
  h('path', { d: 'M10.5 3.5v-1a1 1 0 0 0-1-1h-6a1 1 0 0 0-1 1v8a1 1 0 0 0 1 1h1' }),
);

/**
 * A reference shortened to fit a row, its whole value still there: read out in full (the short
 * form is hidden from screen readers), shown on hover, and copied by the button beside it.
 */
function Reference({ what, value }: { what: string; value: string }) {
  const short = shortReference(value);
  if (short === value) return h('code', { class: 'reference' }, value);
  return h(
    'span',
    { class: 'reference' },
    h(
      'code',
      { title: value },
      h('span', { 'aria-hidden': 'true' }, short),
      h('span', { class: 'visually-hidden' }, value),
    ),
    h(
      'button',
      {
        type: 'button',
        class: 'copy',
        title: `Copy ${value}`,
        'aria-label': `Copy ${what.toLowerCase()} ${value}`,
        onClick: () => void copyReference(what, value),
      },
      COPY_ICON,
    ),
  );
}

/** A table cell that says its column's name when the rows are stacked on a phone. */
function cell(label: string, content: unknown, className?: string) {
  return h(
    'td',
    { role: 'cell', 'data-label': label, ...(className ? { class: className } : {}) },
    h('span', { class: 'value' }, content as string),
  );
}

/**
 * A table that stays one on a phone: under 640 px its rows stack as label: value pairs (the
 * labels from the cells' data-label, drawn by CSS and hidden from screen readers, which get the
 * column headers). The roles are explicit because a browser may drop a table's semantics once
 * CSS changes its display.
 */
function DataTable({
  describedBy,
  columns,
  children,
}: {
  describedBy: string;
  columns: readonly string[];
  children: unknown;
}) {
  return h(
    'table',
    { class: 'data', role: 'table', 'aria-describedby': describedBy },
    h(
      'thead',
      { role: 'rowgroup' },
      h(
        'tr',
        { role: 'row' },
        columns.map((name) => h('th', { key: name, scope: 'col', role: 'columnheader' }, name)),
      ),
    ),
    h('tbody', { role: 'rowgroup' }, children as null),
  );
}

function money(amount: { amountMinor: number; currency: string } | null): string {
  return amount ? formatMoney(amount.amountMinor, amount.currency) : '—';
}

function Balances() {
  const value = balances.value;
  if (value === null) return h('p', { class: 'hint' }, 'Loading…');
  const entries = Object.entries(value);
  if (entries.length === 0) return h('p', { class: 'hint' }, 'Balances come from the sandbox.');
  return h(
    'dl',
    { class: 'balances' },
    entries.map(([code, minor]) =>
      h(
        'div',
        { key: code },
        h('dt', null, code),
        h('dd', { 'data-currency': code }, formatMoney(minor, code)),
      ),
    ),
  );
}

const sortedPayouts = computed(() =>
  [...payouts.value.values()].sort((a, b) => (b.createdAt ?? '').localeCompare(a.createdAt ?? '')),
);

async function reverse(reference: string): Promise<void> {
  try {
    await control(`/payouts/${encodeURIComponent(reference)}/reverse`, 'POST');
    notice.value = `Asked the sandbox's bank to return payout ${reference}.`;
  } catch (error) {
    notice.value = `Could not reverse ${reference}: ${(error as Error).message}`;
  }
}

/** The sandbox fails a payout to account 0000000000 (README, "Payouts"): one such, sent for you. */
async function sendFailing(): Promise<void> {
  try {
    const result = await api.sendPayout({
      tenantReference: `demo-failing-${crypto.randomUUID()}`,
      amount: { amountMinor: 50_000, currency: 'NGN' },
      narration: 'Sandbox: a payout that fails',
      paymentMethodType: 'BankCode',
      paymentMethodValue: '058',
      beneficiary: { accountName: 'Unknown Account', accountNumber: '0000000000' },
    });
    if (result.status === 'accepted') {
      upsert(result.payout);
      notice.value = `Sent payout ${result.payout.reference} to account 0000000000: the sandbox fails it.`;
    } else notice.value = `Not sent: ${result.status}.`;
  } catch (error) {
    notice.value = `Not sent: ${(error as Error).message}`;
  }
}

async function settle(): Promise<void> {
  await control('/settle', 'POST').catch(() => {});
  notice.value = 'The sandbox clock moved 2 seconds: pending payouts settle.';
}

/** The sandbox's own buttons: set apart from the staff's real actions, and labelled so. */
function SandboxControls() {
  return h(
    'div',
    { class: 'sandbox', role: 'group', 'aria-labelledby': 'payouts-sandbox-title' },
    h(
      'p',
      { class: 'sandbox-title', id: 'payouts-sandbox-title' },
      h('span', { class: 'sandbox-tag' }, 'Sandbox'),
      ' Play the bank: not in production',
    ),
    h(
      'div',
      { class: 'sandbox-actions' },
      h('button', { type: 'button', onClick: () => void settle() }, 'Settle pending payouts now'),
      h(
        'button',
        { type: 'button', onClick: () => void sendFailing() },
        'Send a payout that fails',
      ),
    ),
  );
}

function Payouts() {
  const rows = sortedPayouts.value;
  return h(
    'div',
    null,
    h(SandboxControls, null),
    h('p', { class: 'hint notice', role: 'status' }, notice.value),
    rows.length === 0
      ? h('p', { class: 'hint' }, 'No payouts yet. Send one with the form.')
      : h(DataTable, {
          describedBy: 'payouts-title',
          columns: ['Reference', 'Your reference', 'Amount', 'Status', 'Reason', 'Sandbox'],
          children: rows.map((payout) =>
            h(
              'tr',
              { key: payout.reference, role: 'row', 'data-reference': payout.reference },
              cell('Reference', h(Reference, { what: 'Reference', value: payout.reference })),
              cell(
                'Your reference',
                payout.tenantReference
                  ? h(Reference, { what: 'Your reference', value: payout.tenantReference })
                  : '—',
              ),
              cell('Amount', money(payout.amount), 'number'),
              cell(
                'Status',
                h('span', { class: `status status-${payout.status.toLowerCase()}` }, payout.status),
              ),
              h(
                'td',
                { role: 'cell', 'data-label': 'Reason', class: 'reason' },
                payout.reason ?? '',
              ),
              h(
                'td',
                { role: 'cell', 'data-label': 'Sandbox', class: 'sandbox-cell' },
                payout.status === 'Completed'
                  ? h(
                      'button',
                      {
                        type: 'button',
                        class: 'small sandbox-button',
                        'aria-label': `Reverse payout ${payout.reference} (sandbox)`,
                        onClick: () => void reverse(payout.reference),
                      },
                      'Reverse',
                    )
                  : null,
              ),
            ),
          ),
        }),
  );
}

function Transactions() {
  const list = transactions.value;
  if (!list) return h('p', { class: 'hint' }, 'Loading…');
  const pages = Math.max(1, list.pageCount);
  const items = [...list.items].reverse();
  return h(
    'div',
    null,
    items.length === 0
      ? h('p', { class: 'hint' }, 'No transactions yet.')
      : h(DataTable, {
          describedBy: 'transactions-title',
          columns: ['Id', 'Kind', 'Amount', 'Status', 'Created'],
          children: items.map((item) =>
            h(
              'tr',
              { key: item.id, role: 'row' },
              cell('Id', h(Reference, { what: 'Transaction id', value: item.id })),
              cell('Kind', item.kind),
              cell('Amount', money(item.amount), 'number'),
              cell('Status', item.status),
              cell(
                'Created',
                item.createdAt ? new Date(item.createdAt).toLocaleString('en-GB') : '',
              ),
            ),
          ),
        }),
    h(
      'nav',
      { class: 'pager', 'aria-label': 'Transaction pages' },
      h(
        'button',
        {
          type: 'button',
          disabled: page.value <= 1,
          onClick: () => void loadTransactions(page.value - 1),
        },
        'Newer',
      ),
      h(
        'span',
        { 'aria-live': 'polite' },
        `Page ${Math.min(page.value, pages)} of ${pages} · ${list.total} in all`,
      ),
      h(
        'button',
        {
          type: 'button',
          disabled: page.value >= pages,
          onClick: () => void loadTransactions(page.value + 1),
        },
        'Older',
      ),
    ),
  );
}

const linkName = signal('Gift card');
const linkType = signal<'OneTime' | 'Reusable'>('OneTime');
const linkCurrency = signal('GBP');
const linkAmount = signal('20.00');
const linkMessage = signal('');

async function createLink(event: Event): Promise<void> {
  event.preventDefault();
  const amountText = linkAmount.value.trim();
  // NGN, GBP and USD all have two decimals.
  const digits = 2;
  let amountMinor: number | undefined;
  if (amountText !== '') {
    if (!/^\d+(\.\d{1,2})?$/.test(amountText)) {
      linkMessage.value = 'Enter the amount like 20.00, or leave it empty for the payer to choose.';
      return;
    }
    const [whole = '0', fraction = ''] = amountText.split('.');
    amountMinor = Number(whole + fraction.padEnd(digits, '0'));
  }
  try {
    const link = await api.createLink({
      name: linkName.value,
      linkType: linkType.value,
      currency: linkCurrency.value,
      ...(amountMinor ? { amountMinor } : {}),
    });
    links.value = [link, ...links.value];
    linkMessage.value = `Link ${link.alias} created.`;
  } catch (error) {
    linkMessage.value = `The link was not created: ${(error as Error).message}`;
  }
}

function Links() {
  const input = (id: string, label: string, value: typeof linkName) =>
    h(
      'div',
      { class: 'pd-field' },
      h('label', { for: id }, label),
      h('input', {
        id,
        type: 'text',
        value: value.value,
        onInput: (event: Event) => {
          value.value = (event.currentTarget as HTMLInputElement).value;
        },
      }),
    );
  return h(
    'div',
    null,
    h(
      'form',
      {
        class: 'link-form',
        onSubmit: (event: Event) => void createLink(event),
        'aria-label': 'Create a payment link',
      },
      input('link-name', 'Link name', linkName),
      h(
        'div',
        { class: 'pd-field' },
        h('label', { for: 'link-type' }, 'Type'),
        h(
          'select',
          {
            id: 'link-type',
            value: linkType.value,
            onChange: (event: Event) => {
              linkType.value = (event.currentTarget as HTMLSelectElement).value as
                | 'OneTime'
                | 'Reusable';
            },
          },
          h('option', { value: 'OneTime' }, 'One-time'),
          h('option', { value: 'Reusable' }, 'Reusable'),
        ),
      ),
      h(
        'div',
        { class: 'pd-field' },
        h('label', { for: 'link-currency' }, 'Currency'),
        h(
          'select',
          {
            id: 'link-currency',
            value: linkCurrency.value,
            onChange: (event: Event) => {
              linkCurrency.value = (event.currentTarget as HTMLSelectElement).value;
            },
          },
          ['NGN', 'GBP', 'USD'].map((code) => h('option', { key: code, value: code }, code)),
        ),
      ),
      input('link-amount', 'Link amount (empty: the payer chooses)', linkAmount),
      h('button', { type: 'submit' }, 'Create link'),
      h('p', { class: 'hint', role: 'status' }, linkMessage.value),
    ),
    links.value.length === 0
      ? h('p', { class: 'hint' }, 'No links yet.')
      : h(DataTable, {
          describedBy: 'links-title',
          columns: ['Alias', 'Name', 'Amount', 'Type', 'Status', 'Link'],
          children: links.value.map((link) =>
            h(
              'tr',
              { key: link.alias, role: 'row' },
              cell('Alias', h(Reference, { what: 'Alias', value: link.alias })),
              cell('Name', link.name),
              cell('Amount', link.amount ? money(link.amount) : 'Payer chooses', 'number'),
              cell('Type', link.linkType === 'OneTime' ? 'One-time' : 'Reusable'),
              cell('Status', link.status),
              cell(
                'Link',
                isSafeUrl(link.url)
                  ? h(
                      'a',
                      { href: link.url, target: '_blank', rel: 'noopener noreferrer' },
                      `Open ${link.alias}`,
                    )
                  : 'Link not shown (unsafe URL)',
              ),
            ),
          ),
        }),
    // A real button: reached by Tab, pressed with Enter or Space, named by its text.
    linksNext.value !== null
      ? h(
          'button',
          {
            type: 'button',
            class: 'show-more',
            'aria-describedby': 'links-title',
            disabled: linksLoading.value,
            onClick: () => void showMoreLinks(linksNext.value),
          },
          linksLoading.value ? 'Loading more links…' : 'Show more links',
        )
      : null,
  );
}

/** The last copy's outcome: a polite status, shown for a moment at the foot of the screen. */
function CopyStatus() {
  return h('p', { class: copyNotice.value ? 'toast' : 'toast toast-empty' }, copyNotice.value);
}

function mount(id: string, component: () => unknown): void {
  const element = document.getElementById(id);
  if (element) render(h(component as () => null, null), element);
}

function start(): void {
  mount('balances', Balances);
  mount('payouts', Payouts);
  mount('transactions', Transactions);
  mount('links', Links);
  mount('copy-status', CopyStatus);
  void loadPayouts().catch(() => {});
  void showMoreLinks(null);
  refresh();
  const events = new EventSource(api.eventsUrl);
  events.addEventListener('status', (event) => {
    const data = JSON.parse((event as MessageEvent<string>).data) as PayoutEventWire;
    if (data.type === 'payout') upsert(data.payout);
    refresh();
  });
  // The payout form's own calls: a session that ended while the page was open.
  document.addEventListener('paydrop:unauthorized', toLogin);
  document.addEventListener('paydrop:payout-sent', (event) => {
    upsert((event as CustomEvent<PayoutView>).detail);
    refresh();
  });
}

if (document.readyState === 'loading')
  document.addEventListener('DOMContentLoaded', start, { once: true });
else start();
