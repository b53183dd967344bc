/** Everything the process writes to stdout and stderr from now on (the server's log lines), until `restore()`. */
export function captureOutput(): { text: () => string; restore: () => void } {
  let captured = '';
  const undo: (() => void)[] = [];
  for (const stream of [process.stdout, process.stderr]) {
    const original = stream.write.bind(stream);
    stream.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      captured += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
      return (original as (...args: unknown[]) => boolean)(chunk, ...rest);
    }) as typeof stream.write;
    undo.push(() => {
      stream.write = original as typeof stream.write;
    });
  }
  return { text: () => captured, restore: () => undo.forEach((fn) => fn()) };
}
