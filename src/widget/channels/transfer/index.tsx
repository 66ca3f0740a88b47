export { TransferPanel } from './TransferPanel';
