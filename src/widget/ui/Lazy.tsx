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
  /** The chunk could not be loaded (offline, or a blocked file); the host decides what then. */
  readonly failed: () => void;
  readonly children: (loaded: T) => ComponentChildren;
}

/** Renders what a lazily loaded chunk brings; until then, a spinner. */
export class Lazy<T> extends Component<LazyProps<T>, { loaded?: T }> {
  private live = true;

  override componentDidMount(): void {
    this.props.load().then(
      (loaded) => this.live && this.setState({ loaded }),
      () => this.live && this.props.failed(),
    );
  }

  override componentWillUnmount(): void {
    this.live = false;
  }

  override render() {
    const { loaded } = this.state;
    return loaded ? this.props.children(loaded) : <Waiting text={this.props.messages.loading} />;
  }
}
