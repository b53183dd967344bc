/** server/build-server.mjs (plain JavaScript: npm start runs it without a loader). */
export declare const serverBuildOf: (root: string) => { output: string; stamp: string };
export declare function serverBuildIsStale(root: string): boolean;
export declare function buildServer(root: string): Promise<string>;
