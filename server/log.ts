/** Structured JSON log lines, one per event, to stdout (errors to stderr). */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';
export type Logger = Record<Exclude<LogLevel, 'silent'>, (msg: string, fields?: Record<string, unknown>) => void>;

const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

export function createLogger(level: LogLevel): Logger {
  const at =
    (name: Exclude<LogLevel, 'silent'>) =>
    (msg: string, fields: Record<string, unknown> = {}) => {
      if (ORDER[name] < ORDER[level]) return;
      // pid tells apart the lines of several worker processes sharing one output (WORKERS=N).
      const line = JSON.stringify({ time: new Date().toISOString(), level: name, pid: process.pid, msg, ...fields });
      (name === 'error' || name === 'warn' ? process.stderr : process.stdout).write(`${line}\n`);
    };
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}
