/**
 * Preloaded into the service by bench/write-floor.ts (`node -r`): records what the service asks
 * of SQLite, for replaying without the service. SIGUSR1 checkpoints the service's database,
 * copies it to FLOOR_SNAPSHOT and starts recording every statement run on it (text, parameters,
 * whether it reads); SIGUSR2 writes the recording to FLOOR_RECORDING as JSON lines. Both signals
 * come between two turns of the event loop, and every write of the service runs within one turn
 * (src/store/sqlite.ts), so the copy and the recording start at the same point of its history.
 */
const fs = require('node:fs')
const { createRequire } = require('node:module')
const { join } = require('node:path')

// The release the service loads on this Node.js (src/store/sqlite-binding.ts).
const binding = Number(process.versions.node.split('.')[0]) >= 22 ? 'better-sqlite3-13' : 'better-sqlite3'
const Database = createRequire(join(process.cwd(), 'package.json'))(binding)

let database = null
let recording = null
const prepare = Database.prototype.prepare
Database.prototype.prepare = function (text) {
  if (database === null && !this.memory) database = this
  const statement = prepare.call(this, text)
  for (const method of ['run', 'all', 'get']) {
    const original = statement[method]
    statement[method] = function (...params) {
      if (recording !== null && this.database === database) recording.push(JSON.stringify([text, params, statement.reader]))
      return original.apply(this, params)
    }
  }
  return statement
}

process.on('SIGUSR1', () => {
  database.pragma('wal_checkpoint(TRUNCATE)')
  fs.copyFileSync(database.name, process.env.FLOOR_SNAPSHOT)
  recording = []
})
process.on('SIGUSR2', () => {
  fs.writeFileSync(process.env.FLOOR_RECORDING, recording.join('\n'))
  recording = null
})
