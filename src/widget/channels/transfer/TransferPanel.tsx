import { Fragment, h } from 'preact';
import type { CheckoutModel, TransferPhase } from '../../../flow/checkout-model';
import type { PaymentView } from '../../../flow/companion';
import { fill, type Messages } from '../../messages';
import { CopyButton } from '../../ui/CopyButton';
import { formatCountdown, formatMoney, groupDigits, plainAmount } from '../../ui/format';

interface TransferPanelProps {
  readonly model: CheckoutModel;
  readonly payment: PaymentView;
  readonly phase: TransferPhase;
  readonly messages: Messages;
  readonly locale: string;
  readonly announce: (text: string) => void;
}

/** The virtual account to pay into, its countdown, and "I've sent the money". */
export function TransferPanel({
  model,
  payment,
  phase,
  messages,
  locale,
  announce,
}: TransferPanelProps) {
  const account = payment.virtualAccount;
  if (!account) return null;
  const total = {
    amountMinor: payment.amount.amountMinor + payment.fees.amountMinor,
    currency: payment.amount.currency,
  };
  const totalText = formatMoney(total, locale);
  const seconds = model.secondsLeft.peek();
  const copyProps = { messages, announce };
  return (
    <>
      <h3 tabIndex={-1} data-step-heading>
        {fill(messages.transferTitle, { amount: totalText })}
      </h3>
      <p class="muted">{messages.transferIntro}</p>
      {payment.fees.amountMinor > 0 ? (
        <p class="muted">
          {fill(messages.transferFees, { fees: formatMoney(payment.fees, locale) })}
        </p>
      ) : null}
      <dl>
        <div class="row">
          <div>
            <dt>{messages.amountLabel}</dt>
            <dd>{totalText}</dd>
          </div>
          <CopyButton value={plainAmount(total)} what={messages.amountLabel} {...copyProps} />
        </div>
        <div class="row">
          <div>
            <dt>{messages.accountNumberLabel}</dt>
            <dd class="account">{groupDigits(account.accountNumber)}</dd>
          </div>
          <CopyButton
            value={account.accountNumber}
            what={messages.accountNumberLabel}
            {...copyProps}
          />
        </div>
        <div class="row">
          <div>
            <dt>{messages.bankLabel}</dt>
            <dd>{account.bank}</dd>
          </div>
          <CopyButton value={account.bank} what={messages.bankLabel} {...copyProps} />
        </div>
        <div class="row">
          <div>
            <dt>{messages.accountNameLabel}</dt>
            <dd>{account.accountName}</dd>
          </div>
          <CopyButton value={account.accountName} what={messages.accountNameLabel} {...copyProps} />
        </div>
      </dl>
      {seconds !== null ? (
        <p class="muted">
          {fill(messages.expiresIn, { time: '' })}
          <span class="timer" role="timer">
            {formatCountdown(seconds)}
          </span>
        </p>
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
          <p>
            <strong>{messages.confirmingTitle}</strong>
          </p>
          <p class="muted">{messages.confirmingText}</p>
        </div>
      )}
    </>
  );
}
