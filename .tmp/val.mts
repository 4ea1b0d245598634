import SwaggerParser from "@apidevtools/swagger-parser";
import fs from "node:fs";
const f = process.argv[2];
const d = JSON.parse(fs.readFileSync(f, "utf8"));
const t = Date.now();
try { await SwaggerParser.validate(d, { resolve: { external: false } }); console.log("valid", Date.now() - t); }
catch (e) { console.log("invalid", Date.now() - t, String(e.message).slice(0, 300)); }
