import { createRequire } from 'node:module'
import type BetterSqlite3 from 'better-sqlite3'

/**
 * The better-sqlite3 release this process loads, picked once from the Node.js it runs on.
 * Release 12 wraps its objects in the raw node::ObjectWrap, which Node 24 changed: there the
 * garbage collector freeing a prepared statement can abort the process (`Assertion failed:
 * (env) != nullptr`). Release 13 is built on Node-API, ships one prebuilt binary for every
 * Node from 22 on, and crashes when loaded on Node 20. Both are installed (13 under the alias
 * `better-sqlite3-13`, see package.json); the README's "Node.js versions" gives the reasons
 * and the measurements, test/store/sqlite-statement-gc.test.ts holds each line to it.
 */
export const SQLITE_BINDING = Number(process.versions.node.split('.')[0]) >= 22 ? 'better-sqlite3-13' : 'better-sqlite3'

// Both releases are CommonJS with the same interface; a static import could not choose.
// `npm run build` keeps both outside the bundle (scripts/build.ts).
const requireBinding = createRequire(import.meta.url)

export const SQLite: typeof BetterSqlite3 = requireBinding(SQLITE_BINDING)
export type SQLiteDatabase = BetterSqlite3.Database
export type SQLiteStatement = BetterSqlite3.Statement
