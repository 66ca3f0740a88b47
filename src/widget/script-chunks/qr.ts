// paydrop-qr.js, the script tag's QR chunk: the QR code, and `adopt`, through which the page hands
// over its Preact before anything renders (../chunk-host.ts).
export { adopt } from '../chunk-host';
export { QrCode, qrMessages } from '../qr';
