// React 18 ships no type declarations and @types/react is not a dependency of the kit: the pages use React only to
// mount GraphiQL (whose own declarations are typed) and for one small component inside it (graphiql.ts RunOpenTab),
// so the two entry modules are declared loosely here.
declare module 'react' {
  export function createElement(type: unknown, props?: Record<string, unknown> | null, ...children: unknown[]): unknown;
  export function useEffect(effect: () => void, deps?: readonly unknown[]): void;
  export function useRef<T>(initial: T): { current: T };
}
declare module 'react-dom/client' {
  export function createRoot(container: Element): { render(node: unknown): void; unmount(): void };
}
declare module '*.css';
