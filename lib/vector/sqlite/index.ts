// rx-advisors/vector/sqlite: a persistent vector store in SQLite (better-sqlite3 and
// sqlite-vec, optional peers). Only this entry point loads sqlite-vec; the application
// opens the Database and passes it in.
export { SqliteVectorStore, type SqliteVectorStoreOptions } from './sqlite-vector-store.js';
