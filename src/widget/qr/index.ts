// The paydrop-qr chunk: loaded only when a QR code is shown (the desktop-to-phone handoff).

export { type QrMessages, qrMessages, qrMessagesEn, qrMessagesFr } from './messages';
export { QrCode, type QrCodeProps } from './QrCode';
export { drawQr, type QrDrawing } from './qr-path';
