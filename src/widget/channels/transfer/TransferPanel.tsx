import { useComputed } from '@preact/signals';
import { h } from 'preact';
import { useLayoutEffect, useRef } from 'preact/hooks';
import type { CheckoutModel, TransferPhase } from '../../../flow/checkout-model';
import type { PaymentView } from '../../../flow/companion';
import type { Messages } from '../../messages/en';
import { fill } from '../../messages/fill';
import type { outcomeMessages } from '../../outcomes/words';
import { adoptStyles } from '../../ui/adopt-styles';
import { CopyButton } from '../../ui/CopyButton';
import {
  amountDue,
  formatCountdown,
  formatMoney,
  groupDigits,
  plainAmount,
  spokenDigits,
} from '../../ui/format';
import TRANSFER_CSS from './transfer.css?inline';

interface TransferPanelProps {
  readonly model: CheckoutModel;
  readonly payment: PaymentView;
  readonly phase: TransferPhase;
  readonly messages: Messages;
  readonly locale: string;
  readonly announce: (text: string) => void;
  /**
   * The outcomes chunk as far as it has come, asking for it (ui/outcomes.ts): handed in, for this
   * panel is a chunk of its own (transfer.js in the chunks folder) and that state is the dialog's.
   */
  readonly ask: () => { readonly outcomeMessages: typeof outcomeMessages } | null | undefined;
}

interface DetailProps {
  readonly term: string;
  /** What the copy button names, when the language wants other words than `term`. */
  readonly what?: string | undefined;
  readonly shown: string;
  readonly copied: string;
  /** Said once copied, e.g. `messages.copiedBank`. */
  readonly copiedText: string;
  readonly wide?: boolean;
  /** What a screen reader says instead of `shown`: the account number digit by digit. */
  readonly spoken?: string;
  readonly messages: Messages;
  readonly announce: (text: string) => void;
}

/** One line of the account details: a term, its value, and a copy button inside the value. */
function Detail({
  term,
  what,
  shown,
  copied,
  copiedText,
  wide,
  spoken,
  messages,
  announce,
}: DetailProps) {
  return (
    <div class="row">
      <dt>{term}</dt>
      <dd>
        <span class={wide ? 'account' : undefined} aria-hidden={spoken ? 'true' : undefined}>
          {shown}
        </span>
        {spoken ? <span class="visually-hidden">{spoken}</span> : null}
        <CopyButton
          value={copied}
          what={what || term}
          copiedText={copiedText}
          messages={messages}
          announce={announce}
        />
      </dd>
    </div>
  );
}

/**
 * The virtual account to pay into, its countdown, and "I've sent the money". In its own chunk for
 * the script tag (issue 23: paydrop.js pays for the checkout's new looks), loaded as the transfer
 * is set up; the npm build imports it directly (chunks.ts).
 */
export function TransferPanel({
  model,
  payment,
  phase,
  messages,
  locale,
  announce,
  ask,
}: TransferPanelProps) {
  const heading = useRef<HTMLHeadingElement>(null);
  // Arrived after the spinner that had focus went away: the heading takes it, as the dialog's
  // steps' do (a panel drawn with its step gets it from the dialog as well).
  useLayoutEffect(() => {
    const root = heading.current?.getRootNode() as Document | ShadowRoot | undefined;
    if (!root?.activeElement || root.activeElement === document.body) heading.current?.focus();
  }, []);
  // The countdown is a signal handed to the text itself: its tick updates that text node and
  // redraws no component (CONVENTIONS 18).
  const countdown = useComputed(() => formatCountdown(model.secondsLeft.value ?? 0));
  const counting = useComputed(() => model.secondsLeft.value !== null);
  // The last two minutes look different, and say what to do (issue 12).
  const expiring = useComputed(() => {
    const left = model.secondsLeft.value;
    return left !== null && left > 0 && left <= 120;
  });
  const replaced = model.replacedAccount.value;
  // The outcomes chunk has the words of both notices: a replaced account's came with the expired
  // screen before it; the last two minutes ask for them, so the expired screen needs no network.
  const words = replaced || expiring.value ? ask() : undefined;
  const account = payment.virtualAccount;
  if (!account) return null;
  const total = amountDue(payment);
  const totalText = formatMoney(total, locale);
  const copyProps = { messages, announce };
  // « Copier le numéro de compte », not « Copier Numéro de compte » (issue 12).
  const [amountName, numberName, bankName, nameName] = messages.copyNames.split('|');
  return (
    <div class="step">
      <h3
        ref={(node) => {
          heading.current = node;
          adoptStyles(node, TRANSFER_CSS);
        }}
        tabIndex={-1}
        data-step-heading
      >
        {/* The amount is the header's, and the details' below to copy: not a third time here
            (issue 23), unless a merchant's own title asks for {amount}. */}
        {fill(messages.transferTitle, { amount: totalText })}
      </h3>
      {replaced && words ? (
        <p class="notice">
          {/* No-break spaces: the old number never splits across two lines. */}
          {fill(words.outcomeMessages(locale, messages).accountReplaces, {
            old: groupDigits(replaced).replace(/ /g, '\u00a0'),
          })}
        </p>
      ) : null}
      <p class="muted">{messages.transferIntro}</p>
      {payment.fees.amountMinor > 0 ? (
        <p class="muted">
          {fill(messages.transferFees, { fees: formatMoney(payment.fees, locale) })}
        </p>
      ) : null}
      <dl>
        <Detail
          term={messages.amountLabel}
          what={amountName}
          shown={totalText}
          copied={plainAmount(total)}
          copiedText={messages.copiedAmount}
          {...copyProps}
        />
        <Detail
          term={messages.accountNumberLabel}
          what={numberName}
          shown={groupDigits(account.accountNumber)}
          spoken={spokenDigits(account.accountNumber)}
          copied={account.accountNumber}
          copiedText={messages.copiedAccountNumber}
          wide
          {...copyProps}
        />
        <Detail
          term={messages.bankLabel}
          what={bankName}
          shown={account.bank}
          copied={account.bank}
          copiedText={messages.copiedBank}
          {...copyProps}
        />
        <Detail
          term={messages.accountNameLabel}
          what={nameName}
          shown={account.accountName}
          copied={account.accountName}
          copiedText={messages.copiedAccountName}
          {...copyProps}
        />
      </dl>
      {counting.value ? (
        <p class={expiring.value ? 'expiring' : 'muted'}>
          {fill(messages.expiresIn, { time: '' })}
          <span class="timer" role="timer">
            {countdown}
          </span>
        </p>
      ) : null}
      {expiring.value && phase === 'awaiting' && words ? (
        <p class="expiring">{words.outcomeMessages(locale, messages).expiringSoon}</p>
      ) : null}
      {phase === 'awaiting' ? (
        <div class="actions">
          <button type="button" class="primary" onClick={() => model.sentMoney()}>
            {messages.sentMoney}
          </button>
        </div>
      ) : (
        <div class="state">
          <div class="spinner" aria-hidden="true" />
          <p tabIndex={-1} data-step-heading>
            <strong>{messages.confirmingTitle}</strong>
          </p>
          <p class="muted">{messages.confirmingText}</p>
        </div>
      )}
    </div>
  );
}
