// The paydrop-qr chunk: loaded only when a QR code is shown (the desktop-to-phone handoff).
export { createQrCode, type HostPreact, type QrCodeProps } from './QrCode';
export { drawQr, type QrDrawing } from './qr-path';
