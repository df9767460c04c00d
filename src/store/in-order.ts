/**
 * Runs the calls with the same key one after another, in call order, in this process
 * (calls with other keys run alongside). A call that fails does not stop the next.
 */
export function inOrder(): <T>(key: string, run: () => Promise<T>) => Promise<T> {
  const running = new Map<string, Promise<unknown>>();
  return <T>(key: string, run: () => Promise<T>) => {
    const next = (running.get(key) ?? Promise.resolve()).catch(() => {}).then(run);
    running.set(key, next);
    const forget = () => {
      if (running.get(key) === next) running.delete(key);
    };
    next.then(forget, forget);
    return next;
  };
}
