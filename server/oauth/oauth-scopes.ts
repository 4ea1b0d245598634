/**
 * What a host may be allowed to do through an OAuth token: one scope per MCP face. A request for
 * `/mcp?faces=…` needs the scope of every face it names (default: actions and browse, the
 * faces `/mcp` serves without `faces`).
 */
export const FACE_SCOPES = {
  actions: "signpost:actions",
  browse: "signpost:browse",
  script: "signpost:script",
} as const;

export type ScopedFace = keyof typeof FACE_SCOPES;

export const ALL_SCOPES: string[] = Object.values(FACE_SCOPES);

/** The plain words a person reads on the consent screen for each scope. */
export const SCOPE_WORDS: Record<string, string> = {
  [FACE_SCOPES.actions]:
    "find and run business actions for you (what moves money still waits for your approval)",
  [FACE_SCOPES.browse]: "read pages of your company's systems and fill in forms for you",
  [FACE_SCOPES.script]: "run small scripts that combine the two above",
};

export function scopesForFaces(faces: readonly string[]): string[] {
  return faces.flatMap((face) => (face in FACE_SCOPES ? [FACE_SCOPES[face as ScopedFace] as string] : []));
}
