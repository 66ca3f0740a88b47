/**
 * The end states' marks, one set (issue 23): paths for the dialog's ui/Icon, drawn on a disc of
 * the state's colour (styles.css, `.mark`). Here, not in paydrop.js: an end state is never the
 * first screen, and the disc shows, empty, the moment before they arrive (or if they cannot).
 */
export const outcomeMarks = {
  /** Paid: a tick. */
  good: 'M5 12.5l4.5 4.5L19 7.5',
  /** Already paid: two ticks. */
  paid: 'M2 12.5l4.5 4.5L16 7.5m-4 9 1 1L22.5 7.5',
  /** Failed, declined: a cross. */
  bad: 'M6 6l12 12M18 6L6 18',
  /** Expired: a clock's hands. */
  late: 'M12 6v6l4 3',
  /** Something went wrong: an exclamation mark. */
  error: 'M12 6v7m0 4.5v.5',
} as const;

export type OutcomeMark = keyof typeof outcomeMarks;
