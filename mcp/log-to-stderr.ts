// Imported first by the stdio entry (mcp/stdio.ts): on stdio, stdout carries only protocol
// messages, so the logger must write to stderr. It reads this when it is created, on the first
// import of server/logger.ts, which this module runs before.
process.env.SIGNPOST_LOG_STDERR = "1";
