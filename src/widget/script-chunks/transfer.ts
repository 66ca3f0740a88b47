// paydrop-<hash>/transfer.js, the script tag's transfer chunk: the account to pay into, and `adopt`,
// through which the page hands over its Preact and signals before anything renders
// (../chunk-host.ts). Loaded when a transfer is set up (channels/transfer/index.tsx).
export { TransferPanel } from '../channels/transfer/TransferPanel';
export { adopt } from '../chunk-host';
