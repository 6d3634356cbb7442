import { Component, type ErrorInfo, type ReactNode } from 'react';

interface Props {
  /** Name of the view, shown in the message. */
  name: string;
  children: ReactNode;
  /** Changing this clears the error (e.g. a new run). */
  resetKey?: unknown;
}

interface State {
  error: Error | null;
  resetKey?: unknown;
}

/** A view that throws shows a small message; the rest of the page keeps working. */
export class ErrorBoundary extends Component<Props, State> {
  state: State = { error: null, resetKey: this.props.resetKey };

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    if (props.resetKey !== state.resetKey) return { error: null, resetKey: props.resetKey };
    return null;
  }

  componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error(`[nicsim] the ${this.props.name} view failed`, error, info.componentStack);
  }

  render(): ReactNode {
    if (this.state.error) {
      return (
        <div className="view-error" role="alert">
          <strong>The {this.props.name} could not be shown.</strong>
          <span className="view-error-msg">{this.state.error.message}</span>
          <button
            type="button"
            className="btn btn-small"
            onClick={() => this.setState({ error: null })}
          >
            Try again
          </button>
        </div>
      );
    }
    return this.props.children;
  }
}
