// paydrop-card.js, the script tag's card chunk: the card step, and `adopt`, through which the page
// hands over its Preact and signals before anything renders (../chunk-host.ts).

export { CardEntryStep } from '../channels/card/chunk';
export { adopt } from '../chunk-host';
