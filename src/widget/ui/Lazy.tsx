import { Component, type ComponentChildren, Fragment, h } from 'preact';
import type { Messages } from '../messages';

export function Waiting({ text }: { readonly text: string }) {
  return (
    <div class="state">
      <div class="spinner" aria-hidden="true" />
      <p tabIndex={-1} data-step-heading>
        {text}
      </p>
    </div>
  );
}

interface LazyProps<T> {
  readonly load: () => Promise<T>;
  readonly messages: Messages;
  readonly children: (loaded: T) => ComponentChildren;
}

/** Renders what a lazily loaded chunk brings, with a way out if it cannot be loaded. */
export class Lazy<T> extends Component<LazyProps<T>, { loaded?: T; failed?: boolean }> {
  private live = true;

  private fetch = () => {
    this.setState({ failed: false });
    this.props.load().then(
      (loaded) => this.live && this.setState({ loaded }),
      () => this.live && this.setState({ failed: true }),
    );
  };

  override componentDidMount(): void {
    this.fetch();
  }

  override componentWillUnmount(): void {
    this.live = false;
  }

  override render() {
    const { messages, children } = this.props;
    const { loaded, failed } = this.state;
    if (loaded) return <>{children(loaded)}</>;
    return failed ? (
      <div class="state">
        <p class="muted">{messages.errorNetwork}</p>
        <button type="button" class="secondary" onClick={this.fetch}>
          {messages.tryAgain}
        </button>
      </div>
    ) : (
      <Waiting text={messages.loading} />
    );
  }
}

