// An MCP server that dies at once, saying why on stderr.
process.stderr.write("fatal: could not open the database\n");
process.exit(3);
