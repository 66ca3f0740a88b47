// @vitest-environment jsdom
// The message catalogues: French is complete and really French on screen, placeholders are filled
// as plain text, the merchant's wording wins, and the right catalogue loads for a locale.

import { act, cleanup, fireEvent, screen } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { createCardActions } from '../../src/flow/channels';
import { CompanionFailure, type CompanionFailureCode } from '../../src/flow/companion';
import { fill, loadMessages, type Messages } from '../../src/widget/messages';
import { en, type MessageKey } from '../../src/widget/messages/en';
import { fr } from '../../src/widget/messages/fr';
import { outcomeMessagesFr } from '../../src/widget/outcomes/messages';
import { qrMessagesFr } from '../../src/widget/qr/messages';
import { deferred } from '../helpers/deferred';
import { FakeCompanion, type Initiation } from '../helpers/fake-companion';
import {
  channels,
  paymentView,
  SERVER_NOW,
  sessionView,
  virtualAccount,
} from '../helpers/fake-companion-answers';
import { andRedraw, renderCheckout } from './checkout-harness';
import { FakePopup } from './fake-popup';
import { stubClipboard } from './setup-dom';

const KEYS = Object.keys(en) as MessageKey[];
/** The texts a customer reads: `lang` is the dialog's attribute, never shown. */
const SHOWN_KEYS = KEYS.filter((key) => key !== 'lang');
/** French amounts hold narrow and non-breaking spaces: compare the text as it is. */
const asIs = { normalizer: (text: string) => text.trim() };
const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('the French catalogue', () => {
  it('has every English key, non-empty, and no other', () => {
    expect(Object.keys(fr).sort()).toEqual([...KEYS].sort());
    for (const key of KEYS) expect(fr[key].trim(), key).not.toBe('');
  });

  it('uses the same placeholders as English in every message', () => {
    for (const key of KEYS) expect(placeholders(fr[key]), key).toEqual(placeholders(en[key]));
  });

  it('translates every message (none is left equal to its English text)', () => {
    const untranslated = KEYS.filter((key) => fr[key] === en[key]);
    expect(untranslated).toEqual([]);
  });
});

describe('fill', () => {
  it('replaces the placeholders it is given, numbers included', () => {
    expect(fill('Transfer {amount} before {time}', { amount: '₦25,000.50', time: '10:30' })).toBe(
      'Transfer ₦25,000.50 before 10:30',
    );
    expect(fill(en.minutesLeft, { minutes: 5 })).toBe('5 minutes left to transfer.');
    expect(fill('{a}{a}', { a: 'x' })).toBe('xx');
  });

  it('leaves unknown placeholders as they are, and a template without values unchanged', () => {
    expect(fill('Pay {amount} by {date}', { amount: '£5.00' })).toBe('Pay £5.00 by {date}');
    expect(fill('Copy {what}')).toBe('Copy {what}');
    expect(fill('{toString} {constructor}', {})).toBe('{toString} {constructor}');
  });

  it('treats values as plain text: a value that looks like a placeholder or markup stays as given', () => {
    expect(fill('{a} and {b}', { a: '{b}', b: 'B' })).toBe('{b} and B');
    expect(fill('{a}', { a: '<img src=x onerror=alert(1)>' })).toBe('<img src=x onerror=alert(1)>');
    expect(fill('{a}', { a: '$& $1 $$' })).toBe('$& $1 $$');
  });
});

describe('loadMessages', () => {
  it('gives French for French locales, whatever the region or case', async () => {
    expect(await loadMessages('fr')).toEqual(fr);
    expect(await loadMessages('fr-CA')).toEqual(fr);
    expect(await loadMessages('FR-fr')).toEqual(fr);
  });

  it('gives English for English and for languages it does not have', async () => {
    expect(await loadMessages('en')).toEqual(en);
    expect(await loadMessages('de')).toEqual(en);
    expect(await loadMessages('en-NG')).toEqual(en);
    // 'fry' (Frisian) starts with "fr" but is not French.
    expect(await loadMessages('fry')).toEqual(en);
  });

  it("puts the merchant's wording on top, in French and in English", async () => {
    const french = await loadMessages('fr-CA', { close: 'Quitter la caisse' });
    expect(french.close).toBe('Quitter la caisse');
    expect(french.leave).toBe(fr.leave);
    const english = await loadMessages('de', { sentMoney: 'Done, I paid' });
    expect(english.sentMoney).toBe('Done, I paid');
    expect(english.stay).toBe(en.stay);
  });

  it('does not change the shared catalogues when overriding', async () => {
    await loadMessages('fr', { close: 'X' });
    await loadMessages('en', { close: 'Y' });
    expect(fr.close).toBe('Fermer');
    expect(en.close).toBe('Close');
  });
});

/** Every piece of text a person can see or hear: text nodes, and aria-labels. */
function textsOnScreen(): string[] {
  const found: string[] = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent?.trim();
    if (text) found.push(text);
  }
  for (const element of document.body.querySelectorAll('[aria-label]')) {
    found.push(element.getAttribute('aria-label') as string);
  }
  return found;
}

/** A catalogue's message as the pieces of fixed wording between its placeholders. */
function pieces(template: string): string[] {
  return (
    template
      // copyNames is a list: each of its names is a piece.
      .split(/\{\w+\}|\|/)
      .map((piece) => piece.trim())
      .filter((piece) => piece !== '')
  );
}

function containsPiece(text: string, piece: string): boolean {
  const escaped = piece.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?<!\\p{L})${escaped}(?!\\p{L})`, 'u').test(text);
}

describe('the dialog in French', () => {
  let restore: (() => void) | undefined;
  afterEach(() => {
    restore?.();
    restore = undefined;
  });

  const seen = new Set<string>();
  const collect = () => {
    for (const text of textsOnScreen()) seen.add(text);
  };
  // What the provider and the shop say: not ours to translate, and chosen with no English in it.
  const french = (messages: Messages = fr) => ({ messages, locale: 'fr' });

  async function errorScreen(code: CompanionFailureCode | 'no_channels') {
    const companion = new FakeCompanion();
    companion.answerSession = async () => {
      if (code === 'no_channels') return sessionView({ channels: channels('Card') });
      throw new CompanionFailure(code, 'raw message');
    };
    await renderCheckout({ companion, ...french() });
    collect();
    cleanup();
  }

  it('shows and announces only French, through every step', async () => {
    const description = 'Commande 1042 — Boutique Amina';
    const account = virtualAccount({
      bank: 'Banque Wema',
      accountName: 'Paydrop / Boutique Amina',
      expiresAt: SERVER_NOW + 10 * 60_000 + 2_000,
    });

    // 1. Loading, choosing, starting, the account, the countdown warnings, copy, leave, confirm, success.
    const companion = new FakeCompanion();
    const session = deferred<ReturnType<typeof sessionView>>();
    companion.answerSession = () => session.promise;
    const initiation = deferred<Initiation>();
    companion.answerInitiate = () => initiation.promise;
    const first = await renderCheckout({
      companion,
      supportedChannels: ['PayByTransfer', 'PayByAccount', 'Card'],
      ...french(),
    });
    expect(screen.getAllByRole('dialog', { name: 'Paiement' })).toHaveLength(1);
    collect();

    await andRedraw(() =>
      session.resolve(
        sessionView({ description, channels: channels('Card', 'PayByAccount', 'PayByTransfer') }),
      ),
    );
    expect(
      screen.getAllByRole('heading', { name: 'Comment souhaitez-vous payer\u202f?' }),
    ).toHaveLength(1);
    collect();

    await andRedraw(() =>
      fireEvent.click(screen.getByRole('button', { name: 'Virement bancaire' })),
    );
    collect();

    await andRedraw(() =>
      initiation.resolve({
        token: 'payment-token',
        payment: paymentView({
          fees: { amountMinor: 5_000, currency: 'NGN' },
          virtualAccount: account,
        }),
      }),
    );
    expect(screen.getAllByRole('heading', { name: 'Virez sur ce compte' })).toHaveLength(1);
    expect(screen.getAllByText('Dont 50,00\u00a0₦ de frais.', asIs)).toHaveLength(1);
    collect();

    await andRedraw(() => first.clock.advance(3_000));
    collect();
    await andRedraw(() => first.clock.advance(9 * 60_000));
    collect();

    restore = stubClipboard(async () => {});
    // Each value's own sentence, agreeing with it: « Banque copiée ».
    // Each button named as French reads it: « Copier le numéro de compte » (issue 12).
    for (const what of [
      'le numéro de compte',
      'le montant',
      'le nom de la banque',
      'le nom du titulaire du compte',
    ]) {
      await act(async () => {
        fireEvent.click(screen.getByRole('button', { name: `Copier ${what}` }));
        for (let i = 0; i < 10; i++) await Promise.resolve();
      });
      collect();
    }
    expect(screen.getByRole('status').textContent).toBe(
      'Titulaire du compte copié dans le presse-papiers.',
    );

    await andRedraw(() => fireEvent.click(screen.getByRole('button', { name: 'Fermer' })));
    collect();
    await andRedraw(() => fireEvent.click(screen.getByRole('button', { name: 'Rester' })));
    await andRedraw(() =>
      fireEvent.click(screen.getByRole('button', { name: 'J’ai envoyé l’argent' })),
    );
    collect();
    await andRedraw(() => companion.push('SUCCESSFUL'));
    collect();
    cleanup();
    restore();

    // 2. A clipboard that refuses, then a failed payment.
    restore = stubClipboard(async () => {
      throw new DOMException('denied', 'NotAllowedError');
    });
    const failing = new FakeCompanion();
    failing.answerSession = async () => sessionView({ description });
    failing.answerInitiate = async () => ({
      token: 'payment-token',
      payment: paymentView({ virtualAccount: account }),
    });
    const second = await renderCheckout({ companion: failing, ...french() });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Copier le montant' }));
      for (let i = 0; i < 10; i++) await Promise.resolve();
    });
    collect();
    await andRedraw(() => second.companion.push('FAILED'));
    collect();
    cleanup();

    // 2b. A transfer short of the amount (issue 12): what arrived, what is missing.
    const short = new FakeCompanion();
    short.answerSession = async () => sessionView({ description });
    short.answerInitiate = async () => ({
      token: 'payment-token',
      payment: paymentView({ virtualAccount: account }),
    });
    await renderCheckout({ companion: short, ...french() });
    await andRedraw(() =>
      short.push('FAILED', {
        status: 'FAILED',
        serverTime: null,
        reason: 'transfer_short',
        paid: { amountMinor: 2_000_000, currency: 'NGN' },
      }),
    );
    // The outcome screens' words come in a chunk of their own: found once it has loaded.
    expect(
      await screen.findAllByRole('heading', { name: outcomeMessagesFr.shortTitle }),
    ).toHaveLength(1);
    collect();
    cleanup();

    // 3. Expiry.
    const expiring = new FakeCompanion();
    expiring.answerInitiate = async () => ({
      token: 'payment-token',
      payment: paymentView({ virtualAccount: { ...account, expiresAt: SERVER_NOW + 1_000 } }),
    });
    expiring.answerSession = async () => sessionView({ description });
    const third = await renderCheckout({ companion: expiring, ...french() });
    // The last two minutes say so (issue 12).
    expect(await screen.findAllByText(outcomeMessagesFr.expiringSoon)).toHaveLength(1);
    collect();
    await andRedraw(() => third.clock.advance(1_000));
    collect();
    // A new account says plainly that it replaces the expired one (issue 12).
    expiring.answerInitiate = async () => ({
      token: 'payment-token-2',
      payment: paymentView({
        reference: 'PAY-0002',
        virtualAccount: {
          ...account,
          accountNumber: '9876543210',
          expiresAt: SERVER_NOW + 1_800_000,
        },
      }),
    });
    await andRedraw(() => fireEvent.click(screen.getByRole('button', { name: fr.newAccount })));
    // No-break spaces where French typography and the number want them: « expiré : » keeps its
    // colon, and « 012 345 6789 » never splits across lines.
    expect(document.querySelector('.notice')?.textContent).toBe(
      'Voici un nouveau compte. Il remplace le compte 012\u00a0345\u00a06789, qui a expiré\u00a0: ne payez plus sur celui-ci.',
    );
    collect();
    cleanup();

    // 4. Paying from the bank with the window blocked: on to the bank, or the QR code for a phone.
    const bankPayment = paymentView({
      channel: 'PayByAccount',
      virtualAccount: null,
      bankAuthUrl: 'https://bank.example/authorise/ref_0001',
    });
    const bankCompanion = () => {
      const companion = new FakeCompanion();
      companion.answerSession = async () =>
        sessionView({ description, channels: channels('PayByAccount', 'PayByTransfer') });
      companion.answerInitiate = async () => ({ token: 'payment-token', payment: bankPayment });
      return companion;
    };
    const both = ['PayByTransfer', 'PayByAccount'] as const;
    await renderCheckout({ companion: bankCompanion(), supportedChannels: [...both], ...french() });
    await andRedraw(() =>
      fireEvent.click(screen.getByRole('button', { name: 'Payer depuis votre banque' })),
    );
    expect(screen.getAllByRole('button', { name: fr.continueToBank })).toHaveLength(1);
    collect();
    fireEvent.click(screen.getByRole('button', { name: fr.usePhone }));
    expect(await screen.findAllByRole('img', { name: qrMessagesFr.qrLabel })).toHaveLength(1);
    collect();
    cleanup();

    // 5. The bank's window opened, closed with nothing decided, then the bank's return.
    const popup = new FakePopup();
    const fourth = await renderCheckout({
      companion: bankCompanion(),
      supportedChannels: [...both],
      ...french(),
    });
    fourth.openWindow.mockReturnValue(popup.asWindow());
    await andRedraw(() =>
      fireEvent.click(screen.getByRole('button', { name: 'Payer depuis votre banque' })),
    );
    expect(screen.getAllByRole('button', { name: fr.showBank })).toHaveLength(1);
    collect();
    await andRedraw(() => fourth.model.bankWindowClosed());
    expect(screen.getAllByText(fr.bankClosedText)).toHaveLength(1);
    collect();
    await andRedraw(() => fourth.model.bankReturned(bankPayment.reference));
    expect(screen.getAllByText(fr.processing)).toHaveLength(1);
    collect();
    cleanup();

    // 6. A card verification left until it timed out.
    const byCard = new FakeCompanion();
    byCard.answerSession = async () => sessionView({ description, channels: channels('Card') });
    const fifth = await renderCheckout({
      companion: byCard,
      supportedChannels: ['Card'],
      ...french(),
    });
    await andRedraw(() =>
      createCardActions(fifth.model.paying).cardTimedOut(
        paymentView({ channel: 'Card', virtualAccount: null }),
      ),
    );
    // A card's failure words come with the card chunk, loaded here as the screen shows.
    expect(await screen.findAllByText(outcomeMessagesFr.timeoutText, asIs)).toHaveLength(1);
    collect();
    cleanup();

    // 6b. A card whose finalize went unanswered: checked, never offered again (issue 9).
    const unsure = new FakeCompanion();
    unsure.answerSession = async () => sessionView({ description, channels: channels('Card') });
    const sixth = await renderCheckout({
      companion: unsure,
      supportedChannels: ['Card'],
      ...french(),
    });
    await andRedraw(() =>
      createCardActions(sixth.model.paying).checkPayment(
        paymentView({ channel: 'Card', virtualAccount: null }),
        'card-token',
      ),
    );
    expect(screen.getAllByText(fr.checkingPayment)).toHaveLength(1);
    collect();
    cleanup();

    // 6c. Failures that say why (issue 12): each card cause, a bank decline.
    // The causes a browser hears (issue 20: insufficient funds, an expired card are declines).
    for (const reason of ['card_declined', 'verification_failed'] as const) {
      const refused = new FakeCompanion();
      refused.answerSession = async () =>
        sessionView({ description, channels: channels('Card', 'PayByTransfer') });
      const view = await renderCheckout({
        companion: refused,
        supportedChannels: ['Card', 'PayByTransfer'],
        ...french(),
      });
      await andRedraw(() => fireEvent.click(screen.getByRole('button', { name: /^Carte/ })));
      await andRedraw(() =>
        createCardActions(view.model.paying).track(
          paymentView({ channel: 'Card', virtualAccount: null }),
          'card-token',
          'FAILED',
          reason,
        ),
      );
      expect(
        await screen.findAllByText(
          reason === 'card_declined'
            ? outcomeMessagesFr.cardDeclinedText
            : outcomeMessagesFr.cardNotChargedText,
        ),
      ).toHaveLength(1);
      collect();
      cleanup();
    }
    const declinedAtBank = bankCompanion();
    await renderCheckout({ companion: declinedAtBank, supportedChannels: [...both], ...french() });
    await andRedraw(() =>
      fireEvent.click(screen.getByRole('button', { name: 'Payer depuis votre banque' })),
    );
    await andRedraw(() => declinedAtBank.push('FAILED'));
    expect(await screen.findAllByText(outcomeMessagesFr.bankDeclinedText)).toHaveLength(1);
    collect();
    cleanup();

    // 6d. Back to an order with an open transfer: continue it, or another way (issue 12).
    const returning = new FakeCompanion();
    returning.answerSession = async () =>
      sessionView({
        description,
        channels: channels('PayByTransfer', 'PayByAccount'),
        payment: paymentView(),
      });
    await renderCheckout({ companion: returning, supportedChannels: [...both], ...french() });
    expect(screen.getAllByRole('button', { name: fr.continueTransfer })).toHaveLength(1);
    collect();
    cleanup();

    // 7. Every error text.
    for (const code of [
      'network',
      'unavailable',
      'order_not_found',
      'already_paid',
      'no_channels',
      'internal',
    ] as const) {
      await errorScreen(code);
    }

    const texts = [...seen];
    // Nothing English anywhere...
    const english = SHOWN_KEYS.flatMap((key) =>
      pieces(en[key]).flatMap((piece) =>
        texts.filter((text) => containsPiece(text, piece)).map((text) => `${key}: "${text}"`),
      ),
    );
    expect(english).toEqual([]);
    // ...and every French message was actually on screen or in the live region at some point.
    const neverSeen = SHOWN_KEYS.filter(
      (key) => !pieces(fr[key]).every((piece) => texts.some((text) => text.includes(piece))),
    );
    expect(neverSeen).toEqual([]);
  });

  it('formats amounts for the French locale', async () => {
    await renderCheckout(french());
    expect(
      screen.getAllByText('25\u202f000,50\u00a0₦', { ...asIs, selector: '.total' }),
    ).toHaveLength(1);
    expect(screen.getByRole('timer').parentElement?.textContent).toBe(
      'Ce compte expire dans 30:00',
    );
  });

  it("shows the merchant's own wording over the French", async () => {
    await renderCheckout(french({ ...fr, sentMoney: 'Virement effectué' }));
    expect(screen.getAllByRole('button', { name: 'Virement effectué' })).toHaveLength(1);
    expect(screen.queryByRole('button', { name: fr.sentMoney })).toBeNull();
  });
});
