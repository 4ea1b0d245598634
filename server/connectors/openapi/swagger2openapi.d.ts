// swagger2openapi ships no types; this is the one function Signpost calls.
declare module "swagger2openapi" {
  const swagger2openapi: {
    convertObj(
      document: object,
      options: { patch?: boolean; warnOnly?: boolean; resolve?: boolean },
    ): Promise<{ openapi: object }>;
  };
  export default swagger2openapi;
}
