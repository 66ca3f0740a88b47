import { useSignal } from '@preact/signals';
import { type ComponentChildren, Fragment, h } from 'preact';
import { loadQrChunk } from '#chunks';
import type { BankPhase, CheckoutModel } from '../../../flow/checkout-model';
import type { PaymentView } from '../../../flow/companion';
import type { Messages } from '../../messages';
import { Lazy, Waiting } from '../../ui/Lazy';
import type { BankWindow } from './bank-window';

interface BankPanelProps {
  readonly model: CheckoutModel;
  readonly payment: PaymentView;
  readonly phase: BankPhase;
  readonly messages: Messages;
  readonly locale: string;
  readonly bank: BankWindow;
  /** "Choose another way to pay", when there is another way. */
  readonly other: ComponentChildren;
}

let qrCode: ReturnType<typeof loadQrChunk> | null = null;

/** The QR chunk, loaded once; a failed load may be tried again. */
function loadQr() {
  qrCode ??= loadQrChunk();
  return qrCode.catch((error: unknown) => {
    qrCode = null;
    throw error;
  });
}

/** A phone is already where the bank app is; the QR code is offered on other screens. */
function onDesktop(): boolean {
  return !globalThis.matchMedia?.('(pointer: coarse)').matches;
}

/** PayByAccount: on to the bank (window, or full-page redirect), or on to the phone by QR code. */
export function BankPanel({ payment, phase, messages, locale, bank, other }: BankPanelProps) {
  const qr = useSignal(false);
  if (phase === 'processing') return <Waiting text={messages.processing} />;
  const url = payment.bankAuthUrl ?? '';
  return (
    <>
      <h3 tabIndex={-1} data-step-heading>
        {messages.bankTitle}
      </h3>
      <p class="muted">
        {phase === 'opened'
          ? messages.bankOpenedText
          : phase === 'closed'
            ? messages.bankClosedText
            : messages.bankReadyText}
      </p>
      <div class="actions">
        {phase === 'opened' ? (
          <button type="button" class="secondary" onClick={() => bank.focus()}>
            {messages.showBank}
          </button>
        ) : (
          <button type="button" class="primary" onClick={() => bank.continueToBank(payment)}>
            {messages.continueToBank}
          </button>
        )}
        {/* It stays once pressed, so the keyboard's focus is not lost with it. */}
        {onDesktop() ? (
          <button
            type="button"
            class="secondary"
            onClick={() => {
              qr.value = true;
            }}
          >
            {messages.usePhone}
          </button>
        ) : null}
        {phase === 'opened' ? null : other}
      </div>
      {qr.value ? (
        <Lazy
          load={loadQr}
          messages={messages}
          failed={() => {
            qr.value = false;
          }}
        >
          {({ QrCode, qrMessages }) => {
            const texts = qrMessages(locale, messages);
            return (
              <div class="state">
                <QrCode text={url} label={texts.qrLabel} />
                <p class="muted">{texts.phoneText}</p>
              </div>
            );
          }}
        </Lazy>
      ) : null}
    </>
  );
}
