// paydrop/back-office: the payout form and the back office's calls to createPayoutsHandler, for a
// merchant's staff pages. Importing does nothing; mountPayoutForm renders. Never holds a key.

export { type BackOfficeApi, BackOfficeError, createBackOfficeApi } from './back-office-api';
export { type MountedPayoutForm, type MountPayoutFormOptions, mountPayoutForm } from './mount';
export { formatMoney, PayoutForm, type PayoutFormProps } from './PayoutForm';
export { createPayoutFormModel, type PayoutFormModel } from './payout-form-model';
