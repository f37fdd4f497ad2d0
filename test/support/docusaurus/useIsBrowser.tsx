export default function useIsBrowser(): boolean {
  return typeof window !== 'undefined';
}
