/**
 * The bank's window as window.open returns it: records where it was sent and what its opener was
 * at that moment; a test closes it as the customer would.
 */
export class FakePopup {
  closed = false;
  opener: unknown = globalThis;
  focused = 0;
  readonly navigations: Array<{ url: string; opener: unknown }> = [];
  readonly location = {
    replace: (url: string) => {
      this.navigations.push({ url, opener: this.opener });
    },
  };
  focus(): void {
    this.focused++;
  }
  close(): void {
    this.closed = true;
  }
  /** As window.open's answer. */
  asWindow(): Window {
    return this as unknown as Window;
  }
}
